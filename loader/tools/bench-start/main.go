// Command bench-start measures what every docket command pays before it
// does anything: the process start of `docket version`, of `docket search`
// on a one-document project (start, open and query together), and of an
// extraction worker (docket-worker, which `docket load` starts one per
// core), each run -runs times in turns; CPU is the child's user+sys time
// (load-independent enough to compare on a busy machine), wall its elapsed
// time. It also prints the costliest Go package initialisations of docket
// and docket-worker (GODEBUG=inittrace=1, mean of 5 runs).
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/docket-dev/docket/loader/tools/internal/bench"
)

func main() {
	bin := flag.String("docket", "bin/docket", "docket binary (docket-worker beside it)")
	runs := flag.Int("runs", 30, "runs of each command")
	flag.String("corpus", "", "ignored (the project is generated)")
	flag.Parse()
	if err := bench.Fresh(*bin); err != nil {
		fmt.Fprintln(os.Stderr, "bench-start:", err)
		os.Exit(1)
	}
	if err := run(*bin, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "bench-start:", err)
		os.Exit(1)
	}
}

type sample struct{ cpu, wall []time.Duration }

func run(bin string, runs int) error {
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	wbin := filepath.Join(filepath.Dir(bin), "docket-worker")
	for _, b := range []string{bin, wbin} {
		if _, err := os.Stat(b); err != nil {
			return fmt.Errorf("%v (run `make build`)", err)
		}
	}
	dir, err := os.MkdirTemp("", "bench-start-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	proj := filepath.Join(dir, "p")
	for _, args := range [][]string{{"init", proj}, {"load", "--quiet", "--project", proj}, {"build", "--project", proj}} {
		if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
			return fmt.Errorf("docket %s: %v\n%s", args[0], err, out)
		}
	}
	cmds := []struct {
		name string
		argv []string
	}{
		{"docket version", []string{bin, "version"}},
		{"docket search (bm25)", []string{bin, "search", "termination notice", "--mode", "bm25", "--project", proj}},
		{"docket search (hybrid)", []string{bin, "search", "termination notice", "--project", proj}},
		{"docket-worker (start, exit)", []string{wbin}},
	}
	res := make([]sample, len(cmds))
	for r := 0; r < runs; r++ {
		for i, c := range cmds {
			cpu, wall, err := once(c.argv)
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			res[i].cpu = append(res[i].cpu, cpu)
			res[i].wall = append(res[i].wall, wall)
		}
	}
	fmt.Printf("process start, %d runs each in turns; load average %s\n", runs, bench.LoadAvg())
	for i, c := range cmds {
		fmt.Printf("  %-28s CPU p50 %5.1f ms   wall p50 %6.1f ms  p95 %6.1f ms\n", c.name,
			ms(pct(res[i].cpu, 50)), ms(pct(res[i].wall, 50)), ms(pct(res[i].wall, 95)))
	}
	for _, b := range []struct{ name, path string }{{"docket", bin}, {"docket-worker", wbin}} {
		top, total, alloc, err := inittrace(b.path, 5)
		if err != nil {
			return err
		}
		fmt.Printf("Go package initialisation of %s (mean of 5): %.1f ms clock, %.1f MB allocated; costliest:", b.name, total, alloc/1e6)
		for _, t := range top {
			fmt.Printf(" %s %.1f ms;", t.pkg, t.ms)
		}
		fmt.Println()
	}
	return nil
}

// once runs argv with stdin closed and returns its CPU and wall time.
func once(argv []string) (cpu, wall time.Duration, err error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, 0, fmt.Errorf("%v\n%s", err, out.String())
	}
	wall = time.Since(start)
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return cpu, wall, nil
}

type initCost struct {
	pkg string
	ms  float64
}

// inittrace runs bin n times with GODEBUG=inittrace=1 (docket: `version`;
// the worker: stdin closed) and returns the packages costing over 1 ms
// (mean clock), the mean total and the mean bytes allocated.
func inittrace(bin string, n int) ([]initCost, float64, float64, error) {
	sum := map[string]float64{}
	var total, alloc float64
	for i := 0; i < n; i++ {
		cmd := exec.Command(bin, "version")
		if strings.HasSuffix(bin, "docket-worker") {
			cmd = exec.Command(bin)
		}
		cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			return nil, 0, 0, fmt.Errorf("%s: %v", bin, err)
		}
		// init PKG @T ms, C ms clock, B bytes, A allocs (fields 1, 4, 7)
		sc := bufio.NewScanner(&stderr)
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			if len(f) < 9 || f[0] != "init" {
				continue
			}
			c, _ := strconv.ParseFloat(f[4], 64)
			b, _ := strconv.ParseFloat(f[7], 64)
			sum[f[1]] += c / float64(n)
			total += c / float64(n)
			alloc += b / float64(n)
		}
	}
	var top []initCost
	for p, c := range sum {
		if c >= 1 {
			top = append(top, initCost{p, c})
		}
	}
	sort.Slice(top, func(i, j int) bool { return top[i].ms > top[j].ms })
	return top[:min(len(top), 8)], total, alloc, nil
}

func pct(d []time.Duration, p int) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := (len(s)*p + 99) / 100
	return s[max(0, min(len(s)-1, i-1))]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

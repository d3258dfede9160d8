package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/docket-dev/docket/loader/tools/internal/bench"
)

// measure is one command run as a fresh process of the built binary.
type measure struct {
	Wall   time.Duration
	CPU    time.Duration // user + system time of the process and its waited-for workers
	MaxRSS int64         // bytes: wait4's ru_maxrss, the largest of the process and its waited-for workers
	Size   int64         // warehouse file (and WAL) after the command
}

// runDocket runs bin with args in the project dir and measures it.
func runDocket(bin, dir string, args ...string) (measure, []byte, error) {
	cmd := exec.Command(bin, append(args, "--project", dir)...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	t0 := time.Now()
	err := cmd.Run()
	m := measure{Wall: time.Since(t0)}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru != nil {
		m.MaxRSS = ru.Maxrss * 1024 // kilobytes on Linux
		m.CPU = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	m.Size = warehouseSize(dir)
	if err != nil {
		return m, out.Bytes(), fmt.Errorf("docket %s: %v\n%s", strings.Join(args, " "), err, tail(out.String(), 2000))
	}
	return m, out.Bytes(), nil
}

func warehouseSize(dir string) int64 {
	var n int64
	for _, f := range []string{"warehouse.duckdb", "warehouse.duckdb.wal"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err == nil {
			n += st.Size()
		}
	}
	return n
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// percentile of sorted durations (nearest rank).
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(p*float64(len(sorted)))) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// latency of one mode: wall p50/p95 (the target) and the CPU p50, which a
// busy machine inflates far less than wall time.
type latency struct {
	P50, P95, CPU50 time.Duration
	Load            string // 1-min load average when the mode's queries began
}

// searchLatency runs every query as its own `docket search` process (after
// one untimed warm-up for the page cache) and returns p50 and p95.
func searchLatency(bin, dir, mode string, queries []string) (latency, error) {
	if _, _, err := runDocket(bin, dir, "search", "--mode", mode, "-k", "10", queries[0]); err != nil {
		return latency{}, err
	}
	var lat, cpu []time.Duration
	load := bench.LoadAvg()
	for _, q := range queries {
		m, out, err := runDocket(bin, dir, "search", "--mode", mode, "-k", "10", q)
		if err != nil {
			return latency{}, err
		}
		if !bytes.Contains(out, []byte(" 1. ")) && !bytes.Contains(out, []byte("no results")) {
			return latency{}, fmt.Errorf("search %q: unexpected output:\n%s", q, tail(string(out), 500))
		}
		lat = append(lat, m.Wall)
		cpu = append(cpu, m.CPU)
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	sort.Slice(cpu, func(i, j int) bool { return cpu[i] < cpu[j] })
	return latency{percentile(lat, 0.50), percentile(lat, 0.95), percentile(cpu, 0.50), load}, nil
}

// scalar runs a one-value query with `docket sql` and returns its text.
func scalar(bin, dir, query string) string {
	_, out, err := runDocket(bin, dir, "sql", query)
	if err != nil {
		return "?"
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

func mb(b int64) string { return fmt.Sprintf("%.0f MB", float64(b)/(1<<20)) }

func secs(d time.Duration) string {
	if d < 10*time.Second {
		return fmt.Sprintf("%.2f s", d.Seconds())
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}

func ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d.Microseconds())/1000) }

// exponent is the growth exponent between two sizes: log(t2/t1)/log(n2/n1).
func exponent(n1, n2 int, t1, t2 time.Duration) string {
	if n1 == n2 || t1 <= 0 || t2 <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", math.Log(t2.Seconds()/t1.Seconds())/math.Log(float64(n2)/float64(n1)))
}

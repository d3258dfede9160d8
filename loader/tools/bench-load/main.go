// Command bench-load measures `docket load` end to end (walk, hash,
// detect, worker processes, landing) on every PDF of the corpus's pdf/,
// mixed/ and tables/ folders (issue 15's set) and, on the same files, a
// PyMuPDF page.get_text() multiprocessing.Pool with one process per core
// (the target: docket at least as fast, wall time), a one-process PyMuPDF
// loop (Debian's python3-fitz) and pdftotext; docket runs with one worker
// per core (the default) and with one worker, and a no-op re-load follows.
// docket is timed as a whole command (process start, opening the
// warehouse, landing and the final checkpoint included); the Pool from its
// creation to its last result (its processes' start included, Python's
// own start-up not); the loop only. The Pool, the loop and docket run in
// alternating rounds and the median and range of the per-round ratios are
// reported (the machine may be shared). Prints pages/s and the ratios,
// and the CPU seconds of docket's main process and of its workers.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/docket-dev/docket/loader/tools/internal/bench"
)

const pymupdf = `
import sys, time, fitz
files = sys.argv[1:]
pages = 0
t = time.perf_counter()
for f in files:
    try:
        d = fitz.open(f)
        if d.needs_pass:
            continue
        for p in d:
            p.get_text()
            pages += 1
    except Exception:
        continue
print(pages, time.perf_counter() - t)
`

// pymupdfPool is the same extraction in a multiprocessing.Pool of one
// process per core, files handed out one at a time in the given order
// (biggest first, as docket's plan orders them).
const pymupdfPool = `
import sys, os, time, fitz
from multiprocessing import Pool
def one(f):
    try:
        d = fitz.open(f)
        if d.needs_pass:
            return 0
        n = 0
        for p in d:
            p.get_text()
            n += 1
        return n
    except Exception:
        return 0
if __name__ == "__main__":
    files = sys.argv[1:]
    t = time.perf_counter()
    with Pool(os.cpu_count()) as pool:
        pages = sum(pool.imap_unordered(one, files, chunksize=1))
    print(pages, time.perf_counter() - t)
`

// folders are the corpus folders whose PDFs are measured (recursively).
var folders = []string{"pdf", "mixed", "tables"}

func main() {
	corpus := flag.String("corpus", "../shared/corpus", "corpus folder")
	bin := flag.String("docket", "bin/docket", "docket binary")
	all := flag.Bool("all", true, "every PDF of the corpus's pdf/, mixed/ and tables/ (copied into one folder); false: only corpus/pdf")
	rounds := flag.Int("rounds", 7, "alternating PyMuPDF / docket rounds")
	flag.Parse()
	if err := bench.Fresh(*bin); err != nil {
		fmt.Fprintln(os.Stderr, "bench-load:", err)
		os.Exit(1)
	}
	src := filepath.Join(*corpus, "pdf")
	if _, err := os.Stat(src); err != nil {
		fmt.Println("corpus not found, skipped")
		return
	}
	if *all {
		dir, err := gatherPDFs(*corpus)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench-load:", err)
			os.Exit(1)
		}
		defer os.RemoveAll(dir)
		src = dir
	}
	if err := run(src, *bin, *rounds); err != nil {
		fmt.Fprintln(os.Stderr, "bench-load:", err)
		os.Exit(1)
	}
}

// gatherPDFs copies every PDF under the corpus's folders into one
// temporary folder (names prefixed with their folder), so both sides read
// the same files.
func gatherPDFs(corpus string) (string, error) {
	dir, err := os.MkdirTemp("", "docket-bench-pdfs-")
	if err != nil {
		return "", err
	}
	for _, sub := range folders {
		if err = gatherFolder(corpus, filepath.Join(corpus, sub), dir); err != nil {
			break
		}
	}
	return dir, err
}

func gatherFolder(corpus, root, dir string) error {
	if _, err := os.Stat(root); err != nil {
		return nil
	}
	return filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.EqualFold(filepath.Ext(path), ".pdf") {
			return err
		}
		rel, _ := filepath.Rel(corpus, path)
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, strings.ReplaceAll(rel, string(filepath.Separator), "__")), b, 0o644)
	})
}

func fmtRatios(rs []float64) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprintf("%.2f", r)
	}
	return strings.Join(parts, " ")
}

func run(src, bin string, rounds int) error {
	src, _ = filepath.Abs(src)
	bin, _ = filepath.Abs(bin)
	files, _ := filepath.Glob(filepath.Join(src, "*.pdf"))
	more, _ := filepath.Glob(filepath.Join(src, "*.PDF"))
	files = append(files, more...)
	// Biggest first, as docket's plan orders them (the Pool hands files
	// out in this order).
	size := func(f string) int64 {
		st, err := os.Stat(f)
		if err != nil {
			return 0
		}
		return st.Size()
	}
	sort.SliceStable(files, func(i, j int) bool { return size(files[i]) > size(files[j]) })

	py := func(script string) (int, float64, error) {
		out, err := exec.Command("/usr/bin/python3", append([]string{"-c", script}, files...)...).Output()
		if err != nil {
			return 0, 0, fmt.Errorf("PyMuPDF (apt-get install python3-fitz): %w", err)
		}
		var pages int
		var secs float64
		fmt.Sscan(string(out), &pages, &secs)
		return pages, float64(pages) / secs, nil
	}
	pyRun := func() (int, float64, error) { return py(pymupdf) }
	poolRun := func() (int, float64, error) { return py(pymupdfPool) }
	// load runs `docket load` twice on a fresh warehouse: the first load
	// (its summary, and the wall time of the whole command: process start,
	// opening the warehouse and the final checkpoint included) and the
	// no-op re-load.
	type loadRun struct {
		sum, noop map[string]any
		wall      time.Duration
		cpu, main time.Duration // the whole command's CPU (workers included), the main process's
		faults    int64         // minor page faults of the whole command
	}
	load := func(workers int) (loadRun, error) {
		var r loadRun
		dir, err := os.MkdirTemp("", "docket-bench-load-")
		if err != nil {
			return r, err
		}
		defer os.RemoveAll(dir)
		os.WriteFile(filepath.Join(dir, "project.yaml"), []byte(fmt.Sprintf(
			"version: 1\nsources:\n  - {name: pdf, path: %q}\nloader:\n  workers: %d\nocr:\n  enabled: false\n", src, workers)), 0o644)
		for i, dst := range []*map[string]any{&r.sum, &r.noop} {
			start := time.Now()
			cmd := exec.Command(bin, "load", "--json", "--quiet", "--project", dir)
			var out strings.Builder
			cmd.Stdout = &out
			if err := cmd.Start(); err != nil {
				return r, err
			}
			main := watchCPU(cmd.Process.Pid)
			err := cmd.Wait()
			if i == 0 {
				r.wall = time.Since(start)
				r.main = <-main
				if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
					r.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
					r.faults = ru.Minflt
				}
			}
			if err != nil {
				return r, fmt.Errorf("docket load (%d): %w", i, err)
			}
			json.Unmarshal([]byte(out.String()), dst)
		}
		return r, nil
	}

	// The machine may be shared (its speed drifts by 20-30 % from minute to
	// minute): PyMuPDF and docket with one worker per core run in turns,
	// rounds times. Each round gives a ratio of two neighbouring runs; the
	// median ratio is the figure, the best run of each side is shown too.
	var pyPages int
	var pyRate, poolRate float64
	var many loadRun
	var ratios, poolRatios, mains, cpus, poolCPUs, cpuRatios, faults, poolFaults []float64
	for i := 0; i < rounds; i++ {
		c0, f0 := bench.ChildrenCPU(), bench.ChildrenFaults()
		n, prate, err := poolRun()
		if err != nil {
			return err
		}
		// the Pool's processes are its children, waited for by it
		poolCPU := (bench.ChildrenCPU() - c0).Seconds()
		poolFaults = append(poolFaults, float64(bench.ChildrenFaults()-f0)/1000)
		poolRate = max(poolRate, prate)
		r, err := load(runtime.NumCPU())
		if err != nil {
			return err
		}
		n, rate, err := pyRun()
		if err != nil {
			return err
		}
		pyPages, pyRate = n, max(pyRate, rate)
		if many.sum == nil || r.wall < many.wall {
			many = r
		}
		dk := r.sum["pages"].(float64) / r.wall.Seconds()
		ratios = append(ratios, dk/rate)
		poolRatios = append(poolRatios, dk/prate)
		mains = append(mains, r.main.Seconds())
		cpus = append(cpus, r.cpu.Seconds())
		faults = append(faults, float64(r.faults)/1000)
		poolCPUs = append(poolCPUs, poolCPU*1000/float64(n))
		cpuRatios = append(cpuRatios, (poolCPU/float64(n))/(r.cpu.Seconds()/r.sum["pages"].(float64)))
	}
	sort.Float64s(poolCPUs)
	sort.Float64s(cpuRatios)
	sort.Float64s(poolRatios)
	sort.Float64s(ratios)
	median := ratios[len(ratios)/2]
	var one loadRun
	for i := 0; i < 2; i++ {
		r, err := load(1)
		if err != nil {
			return err
		}
		if one.sum == nil || r.wall < one.wall {
			one = r
		}
	}

	// pdftotext, one process at a time.
	start := time.Now()
	for _, f := range files {
		exec.Command("pdftotext", "-q", f, os.DevNull).Run()
	}
	ptRate := float64(pyPages) / time.Since(start).Seconds()

	secs := func(m map[string]any) float64 { return m["duration_ns"].(float64) / 1e9 }
	pages := many.sum["pages"].(float64)
	fmt.Printf("%d PDFs of %s; OCR off (text layer only); %d alternating rounds (docket 1 worker: best of 2); load average %s\n", len(files), src, rounds, bench.LoadAvg())
	fmt.Printf("PyMuPDF get_text() Pool, %d processes:  %6.1f pages/s (best round; from the Pool's creation to its last result)\n", runtime.NumCPU(), poolRate)
	fmt.Printf("PyMuPDF get_text() loop, 1 process:    %6.1f pages/s (%d pages; the loop only, not Python's start-up)\n", pyRate, pyPages)
	fmt.Printf("pdftotext, 1 process per file:         %6.1f pages/s\n", ptRate)
	dn := pages / many.wall.Seconds()
	fmt.Printf("docket load, %d workers, whole command: %6.1f pages/s (%.0f pages in %.2fs), best run = %.2fx PyMuPDF's best\n", runtime.NumCPU(), dn, pages, many.wall.Seconds(), dn/pyRate)
	fmt.Printf("  docket / PyMuPDF Pool (target >= 1.0), run next to each other: median %.2fx, range %.2f-%.2fx (rounds: %s)\n",
		poolRatios[len(poolRatios)/2], poolRatios[0], poolRatios[len(poolRatios)-1], fmtRatios(poolRatios))
	fmt.Printf("  docket / PyMuPDF 1-process loop, run next to each other: median %.2fx (rounds: %s)\n", median, fmtRatios(ratios))
	fmt.Printf("  docket CPU per round: %s s in all, main process %s s (the rest: workers)\n", fmtRatios(cpus), fmtRatios(mains))
	fmt.Printf("  docket CPU per page (median of the rounds): workers %.2f ms, main process %.2f ms\n",
		perPage(cpus, mains, pages, true), perPage(cpus, mains, pages, false))
	// CPU is what a shared machine distorts least (the wall ratio of one
	// round ranged 0.2-1.8x at load averages of 8-20): the Pool's CPU
	// per page over docket's, from the same rounds.
	fmt.Printf("  PyMuPDF Pool CPU per page (median): %.2f ms; Pool/docket CPU per page: median %.2fx, range %.2f-%.2fx\n",
		poolCPUs[len(poolCPUs)/2], cpuRatios[len(cpuRatios)/2], cpuRatios[0], cpuRatios[len(cpuRatios)-1])
	// First touches of memory: ~10 us each on the shared VM (bare metal:
	// well under 1 us), so a gap in faults is a gap in CPU there.
	fmt.Printf("  minor page faults per round (thousands): docket %s, PyMuPDF Pool %s\n", fmtRatios(faults), fmtRatios(poolFaults))
	fmt.Printf("  same run, load phase (duration_ns):   %6.1f pages/s = %.2fx PyMuPDF\n", pages/secs(many.sum), pages/secs(many.sum)/pyRate)
	d1 := one.sum["pages"].(float64) / one.wall.Seconds()
	fmt.Printf("docket load, 1 worker, whole command:  %6.1f pages/s = %.2fx PyMuPDF, %.2fx pdftotext\n", d1, d1/pyRate, d1/ptRate)
	fmt.Printf("no-op re-load: %.3fs = %.1f%% of the first load (%s)\n", secs(many.noop), 100*secs(many.noop)/secs(many.sum), strings.TrimSpace(fmt.Sprint(many.noop["unchanged"], " unchanged")))
	return nil
}

// perPage is the median over rounds of the workers' (all - main) or the
// main process's CPU milliseconds per page.
func perPage(all, mains []float64, pages float64, workers bool) float64 {
	ms := make([]float64, len(all))
	for i := range all {
		ms[i] = mains[i]
		if workers {
			ms[i] = all[i] - mains[i]
		}
		ms[i] *= 1000 / pages
	}
	sort.Float64s(ms)
	return ms[len(ms)/2]
}

// watchCPU samples a process's own CPU time (utime + stime of
// /proc/PID/stat, its children not included) every 50 ms and sends the
// last sample once the process is gone.
func watchCPU(pid int) <-chan time.Duration {
	ch := make(chan time.Duration, 1)
	go func() {
		var last time.Duration
		for {
			b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
			if err != nil {
				break
			}
			s := string(b)
			f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
			if len(f) < 13 || f[0] == "Z" {
				break
			}
			u, _ := strconv.ParseInt(f[11], 10, 64)
			k, _ := strconv.ParseInt(f[12], 10, 64)
			last = time.Duration(u+k) * (time.Second / 100) // USER_HZ
			time.Sleep(50 * time.Millisecond)
		}
		ch <- last
	}()
	return ch
}

// Command bench-load measures `docket load` end to end (walk, hash,
// detect, worker processes, landing) on the PDFs of the corpus and, in the
// same run on the same files, a PyMuPDF page.get_text() loop (Debian's
// python3-fitz) and pdftotext, each on one process; docket runs with one
// worker per core (the default) and with one worker, and a no-op re-load
// follows. docket is timed as a whole command (process start, opening the
// warehouse, landing and the final checkpoint included); PyMuPDF's loop
// only. PyMuPDF and docket run in alternating rounds and the median of the
// per-round ratios is reported (the machine may be shared). Prints pages/s
// and the ratios.
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
	"strings"
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

func main() {
	corpus := flag.String("corpus", "../shared/corpus", "corpus folder")
	bin := flag.String("docket", "bin/docket", "docket binary")
	all := flag.Bool("all", true, "every PDF of the corpus (copied into one folder); false: only corpus/pdf")
	rounds := flag.Int("rounds", 7, "alternating PyMuPDF / docket rounds")
	flag.Parse()
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

// gatherPDFs copies every PDF under the corpus into one temporary folder
// (names prefixed with their folder), so both sides read the same files.
func gatherPDFs(corpus string) (string, error) {
	dir, err := os.MkdirTemp("", "docket-bench-pdfs-")
	if err != nil {
		return "", err
	}
	err = filepath.WalkDir(corpus, func(path string, d os.DirEntry, err error) error {
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
	return dir, err
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

	pyRun := func() (int, float64, error) {
		out, err := exec.Command("/usr/bin/python3", append([]string{"-c", pymupdf}, files...)...).Output()
		if err != nil {
			return 0, 0, fmt.Errorf("PyMuPDF (apt-get install python3-fitz): %w", err)
		}
		var pages int
		var secs float64
		fmt.Sscan(string(out), &pages, &secs)
		return pages, float64(pages) / secs, nil
	}
	// load runs `docket load` twice on a fresh warehouse: the first load
	// (its summary, and the wall time of the whole command: process start,
	// opening the warehouse and the final checkpoint included) and the
	// no-op re-load.
	type loadRun struct {
		sum, noop map[string]any
		wall      time.Duration
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
			out, err := exec.Command(bin, "load", "--json", "--quiet", "--project", dir).Output()
			if i == 0 {
				r.wall = time.Since(start)
			}
			if err != nil {
				return r, fmt.Errorf("docket load (%d): %w", i, err)
			}
			json.Unmarshal(out, dst)
		}
		return r, nil
	}

	// The machine may be shared (its speed drifts by 20-30 % from minute to
	// minute): PyMuPDF and docket with one worker per core run in turns,
	// rounds times. Each round gives a ratio of two neighbouring runs; the
	// median ratio is the figure, the best run of each side is shown too.
	var pyPages int
	var pyRate float64
	var many loadRun
	var ratios []float64
	for i := 0; i < rounds; i++ {
		n, rate, err := pyRun()
		if err != nil {
			return err
		}
		pyPages, pyRate = n, max(pyRate, rate)
		r, err := load(runtime.NumCPU())
		if err != nil {
			return err
		}
		if many.sum == nil || r.wall < many.wall {
			many = r
		}
		ratios = append(ratios, r.sum["pages"].(float64)/r.wall.Seconds()/rate)
	}
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
	fmt.Printf("PyMuPDF get_text() loop, 1 process:    %6.1f pages/s (%d pages; the loop only, not Python's start-up)\n", pyRate, pyPages)
	fmt.Printf("pdftotext, 1 process per file:         %6.1f pages/s\n", ptRate)
	dn := pages / many.wall.Seconds()
	fmt.Printf("docket load, %d workers, whole command: %6.1f pages/s (%.0f pages in %.2fs), best run = %.2fx PyMuPDF's best\n", runtime.NumCPU(), dn, pages, many.wall.Seconds(), dn/pyRate)
	fmt.Printf("  docket / PyMuPDF, run next to each other: median %.2fx (rounds: %s)\n", median, fmtRatios(ratios))
	fmt.Printf("  same run, load phase (duration_ns):   %6.1f pages/s = %.2fx PyMuPDF\n", pages/secs(many.sum), pages/secs(many.sum)/pyRate)
	d1 := one.sum["pages"].(float64) / one.wall.Seconds()
	fmt.Printf("docket load, 1 worker, whole command:  %6.1f pages/s = %.2fx PyMuPDF, %.2fx pdftotext\n", d1, d1/pyRate, d1/ptRate)
	fmt.Printf("no-op re-load: %.3fs = %.1f%% of the first load (%s)\n", secs(many.noop), 100*secs(many.noop)/secs(many.sum), strings.TrimSpace(fmt.Sprint(many.noop["unchanged"], " unchanged")))
	return nil
}

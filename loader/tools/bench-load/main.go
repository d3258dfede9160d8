// Command bench-load measures `docket load` end to end (walk, hash,
// detect, worker processes, landing) on the PDFs of the corpus and, in the
// same run on the same files, a PyMuPDF page.get_text() loop (Debian's
// python3-fitz) and pdftotext, each on one process; then docket with one
// worker per core, and a no-op re-load. Each docket configuration runs
// twice (best run counts: the machine may be shared). Prints pages/s and
// the ratios.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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
	flag.Parse()
	all := flag.Bool("all", true, "every PDF of the corpus (copied into one folder); false: only corpus/pdf")
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
	if err := run(src, *bin); err != nil {
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

func run(src, bin string) error {
	src, _ = filepath.Abs(src)
	bin, _ = filepath.Abs(bin)
	files, _ := filepath.Glob(filepath.Join(src, "*.pdf"))
	more, _ := filepath.Glob(filepath.Join(src, "*.PDF"))
	files = append(files, more...)

	// PyMuPDF, one process; best of two runs, like docket below.
	var pyPages int
	var pyRate float64
	for i := 0; i < 2; i++ {
		out, err := exec.Command("/usr/bin/python3", append([]string{"-c", pymupdf}, files...)...).Output()
		if err != nil {
			return fmt.Errorf("PyMuPDF (apt-get install python3-fitz): %w", err)
		}
		var secs float64
		fmt.Sscan(string(out), &pyPages, &secs)
		pyRate = max(pyRate, float64(pyPages)/secs)
	}

	// pdftotext, one process at a time.
	start := time.Now()
	for _, f := range files {
		exec.Command("pdftotext", "-q", f, os.DevNull).Run()
	}
	ptRate := float64(pyPages) / time.Since(start).Seconds()

	load := func(workers int) (map[string]any, map[string]any, error) {
		dir, err := os.MkdirTemp("", "docket-bench-load-")
		if err != nil {
			return nil, nil, err
		}
		defer os.RemoveAll(dir)
		os.WriteFile(filepath.Join(dir, "project.yaml"), []byte(fmt.Sprintf(
			"version: 1\nsources:\n  - {name: pdf, path: %q}\nloader:\n  workers: %d\nocr:\n  enabled: false\n", src, workers)), 0o644)
		var first, second map[string]any
		for i, dst := range []*map[string]any{&first, &second} {
			out, err := exec.Command(bin, "load", "--json", "--quiet", "--project", dir).Output()
			if err != nil {
				return nil, nil, fmt.Errorf("docket load (%d): %w", i, err)
			}
			json.Unmarshal(out, dst)
		}
		return first, second, nil
	}
	// The machine may be shared: each docket configuration runs twice on a
	// fresh warehouse and the faster run counts.
	best := func(workers int) (map[string]any, map[string]any, error) {
		var first, noop map[string]any
		for i := 0; i < 2; i++ {
			f, n, err := load(workers)
			if err != nil {
				return nil, nil, err
			}
			if first == nil || f["duration_ns"].(float64) < first["duration_ns"].(float64) {
				first, noop = f, n
			}
		}
		return first, noop, nil
	}
	one, noop, err := best(1)
	if err != nil {
		return err
	}
	many, _, err := best(runtime.NumCPU())
	if err != nil {
		return err
	}
	secs := func(m map[string]any) float64 { return m["duration_ns"].(float64) / 1e9 }
	pages := one["pages"].(float64)
	fmt.Printf("%d PDFs of %s; OCR off (text layer only); docket: best of 2 runs; load average %s\n", len(files), src, bench.LoadAvg())
	fmt.Printf("PyMuPDF get_text() loop, 1 process:   %6.1f pages/s (%d pages, best of 2)\n", pyRate, pyPages)
	fmt.Printf("pdftotext, 1 process:                 %6.1f pages/s\n", ptRate)
	d1 := pages / secs(one)
	fmt.Printf("docket load, 1 worker (end to end):   %6.1f pages/s (%.0f pages)  = %.2fx PyMuPDF, %.2fx pdftotext\n", d1, pages, d1/pyRate, d1/ptRate)
	dn := many["pages"].(float64) / secs(many)
	fmt.Printf("docket load, %d workers:               %6.1f pages/s              = %.2fx PyMuPDF (1 process)\n", runtime.NumCPU(), dn, dn/pyRate)
	fmt.Printf("no-op re-load: %.3fs = %.1f%% of the first load (%s)\n", secs(noop), 100*secs(noop)/secs(one), strings.TrimSpace(fmt.Sprint(noop["unchanged"], " unchanged")))
	return nil
}

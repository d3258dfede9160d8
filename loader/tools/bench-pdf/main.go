// Command bench-pdf measures text-layer PDF extraction speed: docket's
// pdf.Extract (typed elements and reading order included) against a
// PyMuPDF page.get_text() loop and pdftotext, on the same files in the
// same run, single process, single thread. It prints pages per CPU second
// (the machine may be shared, so wall time is noisy) and ratios.
//
//	go run ./loader/tools/bench-pdf -corpus ../shared/corpus
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
	"github.com/docket-dev/docket/loader/internal/extract/pdf/table"

	"github.com/docket-dev/docket/loader/tools/internal/bench"
)

const pyLoop = `
import sys, time, fitz
files = sys.argv[1:]
t = time.process_time(); n = 0
for f in files:
    d = fitz.open(f)
    for p in d:
        p.get_text(); n += 1
    d.close()
print(n, time.process_time() - t)
`

func main() {
	corpus := flag.String("corpus", filepath.Join("..", "shared", "corpus"), "corpus folder")
	python := flag.String("python", "/usr/bin/python3", "python with PyMuPDF (import fitz)")
	rounds := flag.Int("rounds", 1, "passes over the files for each tool")
	tables := flag.Bool("tables", true, "also time pdf.Extract with table detection on (vectors collected, table.New())")
	flag.Parse()
	runtime.GOMAXPROCS(1)
	dir := filepath.Join(*corpus, "pdf")
	files, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
	if len(files) == 0 {
		fmt.Println("corpus not found, skipped")
		return
	}
	sort.Strings(files)
	ctx := context.Background()
	opts := document.Options{MinCharsPerPage: 16}

	// Warm the page cache, keep only the files docket can open.
	var ok []string
	for _, f := range files {
		if _, err := pdf.Extract(ctx, f, opts); err == nil {
			ok = append(ok, f)
		}
	}
	pages := 0
	t0 := bench.SelfCPU()
	for r := 0; r < *rounds; r++ {
		for _, f := range ok {
			res, err := pdf.Extract(ctx, f, opts)
			if err == nil {
				pages += len(res.Pages)
			}
		}
	}
	dk := (bench.SelfCPU() - t0).Seconds()
	dkRate := float64(pages) / dk
	fmt.Printf("files: %d PDFs (%d skipped: encrypted/corrupt), %d pages per pass, %d pass(es); load average %s\n",
		len(ok), len(files)-len(ok), pages / *rounds, *rounds, bench.LoadAvg())
	fmt.Printf("docket pdf.Extract        %8.1f pages/cpu-s  (%.2fs)\n", dkRate, dk)

	if *tables {
		ex := pdf.Extractor{Tables: table.New()}
		tp, nt := 0, 0
		t0 = bench.SelfCPU()
		for r := 0; r < *rounds; r++ {
			for _, f := range ok {
				res, err := ex.Extract(ctx, f, opts)
				if err == nil {
					tp += len(res.Pages)
					nt += len(res.Tables)
				}
			}
		}
		tt := (bench.SelfCPU() - t0).Seconds()
		tRate := float64(tp) / tt
		fmt.Printf("docket pdf.Extract+tables %8.1f pages/cpu-s  (%.2fs)  %.2fx of no-table, %d tables per pass (budget: >= 0.75x)\n",
			tRate, tt, tRate/dkRate, nt / *rounds)
	}

	// Layout walk only (no elements), to show what typing costs.
	lp := 0
	t0 = bench.SelfCPU()
	for r := 0; r < *rounds; r++ {
		for _, f := range ok {
			d, err := pdf.Open(f)
			if err != nil {
				continue
			}
			for i := 1; i <= d.NumPages(); i++ {
				if _, err := d.Page(i, pdf.Lines); err == nil {
					lp++
				}
			}
			d.Close()
		}
	}
	lw := (bench.SelfCPU() - t0).Seconds()
	fmt.Printf("docket layout walk only   %8.1f pages/cpu-s\n", float64(lp)/lw)

	var args []string
	for r := 0; r < *rounds; r++ {
		args = append(args, ok...)
	}
	cmd := exec.Command(*python, append([]string{"-c", pyLoop}, args...)...)
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	out, err := cmd.Output()
	if err != nil {
		fmt.Printf("PyMuPDF get_text()        unavailable (%v)\n", err)
	} else {
		fs := strings.Fields(string(out))
		if len(fs) == 2 {
			n, _ := strconv.Atoi(fs[0])
			s, _ := strconv.ParseFloat(fs[1], 64)
			rate := float64(n) / s
			fmt.Printf("PyMuPDF get_text()        %8.1f pages/cpu-s  (%.2fs)  docket/PyMuPDF = %.2fx\n", rate, s, dkRate/rate)
		}
	}

	if _, err := exec.LookPath("pdftotext"); err != nil {
		fmt.Println("pdftotext                 unavailable")
		return
	}
	t0 = bench.ChildrenCPU()
	for _, f := range args {
		c := exec.Command("pdftotext", "-q", f, os.DevNull)
		_ = c.Run()
	}
	pt := (bench.ChildrenCPU() - t0).Seconds()
	ptRate := float64(pages) / pt
	fmt.Printf("pdftotext (per file)      %8.1f pages/cpu-s  (%.2fs)  docket/pdftotext = %.2fx\n", ptRate, pt, dkRate/ptRate)
}

// temporary profiling/compare helper; do not commit
package main

import (
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"time"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
	"github.com/docket-dev/docket/loader/internal/extract/pdf/table"
)

func main() {
	mode := flag.String("mode", "walk", "walk|extract|tables|dump|dumptables")
	rounds := flag.Int("rounds", 3, "")
	flag.Parse()
	var files []string
	globs := []string{"pdf/*.pdf"}
	if os.Getenv("WIDE") != "" {
		globs = []string{"pdf/*.pdf", "mixed/pdf/*.pdf", "mixed/*.pdf", "tables/icdar2013-eu/*.pdf", "scans/*.pdf"}
	}
	for _, g := range globs {
		m, _ := filepath.Glob("/work/shared/corpus/" + g)
		files = append(files, m...)
	}
	sort.Strings(files)
	ctx := context.Background()
	opts := document.Options{MinCharsPerPage: 16}
	switch *mode {
	case "dump", "dumptables":
		ex := pdf.Extractor{}
		if *mode == "dumptables" {
			ex.Tables = table.New()
		}
		for _, f := range files {
			res, err := ex.Extract(ctx, f, opts)
			if err != nil {
				fmt.Printf("%s ERR %v\n", filepath.Base(f), err)
				continue
			}
			for _, p := range res.Pages {
				fmt.Printf("%s p%d ocr=%v w=%.2f h=%.2f chars=%d text=%x\n", filepath.Base(f), p.Number, p.NeedsOCR, p.Width, p.Height, p.CharCount, sha256.Sum256([]byte(p.Text)))
			}
			for _, e := range res.Elements {
				fmt.Printf("  el %d p%d %s %q %.2f,%.2f,%.2f,%.2f %d-%d l%d t%d %q\n", e.Seq, e.Page, e.Category, e.Text, e.BBox.X0, e.BBox.Y0, e.BBox.X1, e.BBox.Y1, e.CharStart, e.CharEnd, e.Level, e.TableSeq, e.Section)
			}
			for _, t := range res.Tables {
				fmt.Printf("  tab p%d %v %q %q\n", t.Page, t.BBox, t.Header, t.Rows)
			}
			fmt.Printf("  meta %+v warn %q\n", res.Metadata, res.Warnings)
		}
		return
	}
	if pp := os.Getenv("PPROF"); pp != "" {
		f, _ := os.Create(pp)
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	n := 0
	t := time.Now()
	for r := 0; r < *rounds; r++ {
		for _, f := range files {
			switch *mode {
			case "walk":
				d, err := pdf.Open(f)
				if err != nil {
					continue
				}
				for i := 1; i <= d.NumPages(); i++ {
					d.Page(i, false)
					n++
				}
				d.Close()
			case "extract", "tables":
				ex := pdf.Extractor{}
				if *mode == "tables" {
					ex.Tables = table.New()
				}
				res, err := ex.Extract(ctx, f, opts)
				if err == nil {
					n += len(res.Pages)
				}
			}
		}
	}
	fmt.Fprintf(os.Stderr, "%s: %d pages %.2fs %.1f p/s\n", *mode, n, time.Since(t).Seconds(), float64(n)/time.Since(t).Seconds())
}

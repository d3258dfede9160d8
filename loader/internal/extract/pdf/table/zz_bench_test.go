package table

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
)

func benchFiles(b *testing.B, ex pdf.Extractor) {
	fs, _ := filepath.Glob("/work/shared/corpus/pdf/*.pdf")
	for i := 0; i < b.N; i++ {
		for _, f := range fs {
			ex.Extract(context.Background(), f, document.Options{})
		}
	}
}

func BenchmarkZZPlain(b *testing.B)  { benchFiles(b, pdf.Extractor{}) }
func BenchmarkZZTables(b *testing.B) { benchFiles(b, pdf.Extractor{Tables: New()}) }

func BenchmarkZZWalk(b *testing.B) {
	fs, _ := filepath.Glob("/work/shared/corpus/pdf/*.pdf")
	for i := 0; i < b.N; i++ {
		for _, f := range fs {
			d, err := pdf.Open(f)
			if err != nil {
				continue
			}
			for p := 1; p <= d.NumPages(); p++ {
				d.Page(p, false)
			}
			d.Close()
		}
	}
}

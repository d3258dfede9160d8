package table

import (
	"path/filepath"
	"testing"

	"github.com/docket-dev/docket/loader/internal/extract/pdf"
)

func BenchmarkZZDetect(b *testing.B) {
	files, _ := filepath.Glob("/work/shared/corpus/pdf/*.pdf")
	var lays []*pdf.Layout
	for _, f := range files {
		d, err := pdf.Open(f)
		if err != nil {
			continue
		}
		for p := 1; p <= d.NumPages(); p++ {
			if lay, err := d.PageWith(p, pdf.Words, true); err == nil {
				lays = append(lays, lay)
			}
		}
		d.Close()
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, lay := range lays {
			New().DetectTables(lay)
		}
	}
}

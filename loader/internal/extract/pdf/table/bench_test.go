package table

import (
	"path/filepath"
	"testing"

	"github.com/docket-dev/docket/loader/internal/extract/pdf"
)

// BenchmarkDetect times table detection alone over every page of
// corpus/pdf (the layouts are read once, before the timer starts), so a
// change to the detector can be compared with the one before it:
//
//	go test ./loader/internal/extract/pdf/table -run X -bench Detect -benchtime 20x
func BenchmarkDetect(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "..", "..", "..", "shared", "corpus", "pdf", "*.pdf"))
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
	if len(lays) == 0 {
		b.Skip("corpus not found")
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, lay := range lays {
			New().DetectTables(lay)
		}
	}
	b.ReportMetric(float64(b.N*len(lays))/b.Elapsed().Seconds(), "pages/s")
}

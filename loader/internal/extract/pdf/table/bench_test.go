package table

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/extract/pdf"
)

// BenchmarkDetect times table detection alone over every page of
// corpus/pdf (the layouts are read once, before the timer starts), so a
// change to the detector can be compared with the one before it:
//
//	go test ./loader/internal/extract/pdf/table -run X -bench Detect -benchtime 20x
func BenchmarkDetect(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(benchCorpus, "pdf", "*.pdf"))
	benchDetect(b, files)
}

// BenchmarkDetectCorpus is BenchmarkDetect over every PDF bench-load
// reads (pdf/, mixed/, tables/icdar2013-eu, tables/tabula; not the
// icdar2013 us- files), 1,565 pages.
func BenchmarkDetectCorpus(b *testing.B) {
	var files []string
	for _, g := range []string{"pdf/*.pdf", "mixed/*.pdf", "mixed/*/*.pdf", "tables/icdar2013-eu/*.pdf", "tables/tabula/*.pdf"} {
		m, _ := filepath.Glob(filepath.Join(benchCorpus, g))
		files = append(files, m...)
	}
	benchDetect(b, files)
}

var benchCorpus = filepath.Join("..", "..", "..", "..", "..", "..", "shared", "corpus")

func benchDetect(b *testing.B, files []string) {
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
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, lay := range lays {
			New().DetectTables(lay)
		}
	}
	b.ReportMetric(float64(b.N*len(lays))/b.Elapsed().Seconds(), "pages/s")
}

// corpusPDFs lists every PDF under the shared corpus (benchCorpus), the
// extension in any case; none when the corpus is not there.
func corpusPDFs() []string {
	var files []string
	_ = filepath.WalkDir(benchCorpus, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.EqualFold(filepath.Ext(p), ".pdf") {
			files = append(files, p)
		}
		return nil
	})
	return files
}

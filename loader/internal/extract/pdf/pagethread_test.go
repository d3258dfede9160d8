package pdf

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf/pdftest"
)

// TestPageThreadReadsTheSameDocuments: with UsePageThread the pages are
// read on the page thread (its count of pages grows by the pages read)
// and every result is the one read on the calling thread, byte for byte
// as JSON: generated documents (one whose messages pass the log's cap,
// classified by a call back into Go from the page thread), and the
// corpus's PDFs of pdf/ when the corpus is here (tables, vectors,
// images, fonts, damaged files).
func TestPageThreadReadsTheSameDocuments(t *testing.T) {
	files := []string{filepath.Join(t.TempDir(), "gen.pdf")}
	if err := os.WriteFile(files[0], reusePDF(3), 0o644); err != nil {
		t.Fatal(err)
	}
	// A page whose MuPDF messages run past walk.c's log cap: log.c calls
	// back into Go (dkDamageClass) from the page thread, a thread Go did
	// not start.
	corrupt := flateStream("BT /F1 12 Tf 72 600 Td (Second page second part.) Tj ET\n", func(b []byte) {
		for i := 2; i < len(b); i++ {
			b[i] = byte(i * 7)
		}
	})
	files = append(files, pdftest.WriteBytes(t, "damaged.pdf", twoParts(junk(70)+"BT /F1 12 Tf 72 700 Td (Second page text here.) Tj ET", corrupt)))
	corpus := filepath.Join("..", "..", "..", "..", "..", "shared", "corpus", "pdf")
	if m, _ := filepath.Glob(filepath.Join(corpus, "*.pdf")); !testing.Short() {
		files = append(files, m...)
	}
	opts := document.Options{MinCharsPerPage: 16, MaxPageTokens: 1_000_000}
	read := func(f string) (string, int) {
		res, err := Extract(t.Context(), f, opts)
		if err != nil {
			b, _ := json.Marshal(err)
			return "error: " + err.Error() + string(b), 0
		}
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		return string(b), len(res.Pages)
	}
	defer pageThread.on.Store(false)
	pages := 0
	for _, f := range files {
		pageThread.on.Store(false)
		want, _ := read(f)
		pageThread.on.Store(true)
		before := pageThread.pages.Load()
		got, n := read(f)
		if got != want {
			t.Errorf("%s: read on the page thread differs from the calling thread's", filepath.Base(f))
		}
		pages += n
		if d := pageThread.pages.Load() - before; d < int64(n) {
			t.Errorf("%s: %d pages, %d read on the page thread", filepath.Base(f), n, d)
		}
	}
	if pages == 0 {
		t.Fatal("no page read")
	}
}

package pdf

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// corpusDir is ../shared/corpus seen from the repository root.
func corpusDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "..", "..", "shared", "corpus")
	if d := os.Getenv("DOCKET_CORPUS"); d != "" {
		dir = d
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skip("corpus not found, skipped")
	}
	return dir
}

// TestCorpusSweep opens every PDF of the shared corpus: no panic, a
// *document.Error for bad files, and the scans flagged as expected.
func TestCorpusSweep(t *testing.T) {
	dir := corpusDir(t)
	if testing.Short() {
		t.Skip("long")
	}
	var files []string
	for _, pat := range []string{"pdf/*.pdf", "mixed/pdf/*.pdf", "mixed/*.pdf", "tables/icdar2013-eu/*.pdf", "scans/*.pdf"} {
		m, _ := filepath.Glob(filepath.Join(dir, pat))
		files = append(files, m...)
	}
	pages, ocr, failed := 0, 0, 0
	for _, f := range files {
		res, err := Extract(t.Context(), f, document.Options{MinCharsPerPage: 16})
		if err != nil {
			var de *document.Error
			if !errors.As(err, &de) {
				t.Errorf("%s: not a document.Error: %v", f, err)
			}
			failed++
			t.Logf("quarantine %s: %v", filepath.Base(f), err)
			continue
		}
		var flagged []int
		for _, p := range res.Pages {
			pages++
			if p.NeedsOCR {
				ocr++
				flagged = append(flagged, p.Number)
			}
		}
		checkOffsets(t, f, res)
		if len(flagged) > 0 {
			t.Logf("needs_ocr %s: pages %v of %d", filepath.Base(f), flagged, len(res.Pages))
		}
		switch {
		case strings.HasSuffix(f, "scans/mixed.pdf"):
			if len(flagged) != 1 || flagged[0] != 2 {
				t.Errorf("mixed.pdf: needs_ocr pages %v, want [2]", flagged)
			}
		case strings.HasSuffix(f, "scans/scanned.pdf"):
			if len(flagged) != len(res.Pages) {
				t.Errorf("scanned.pdf: needs_ocr pages %v of %d", flagged, len(res.Pages))
			}
		}
	}
	t.Logf("%d files, %d pages, %d needs_ocr, %d quarantined", len(files), pages, ocr, failed)
}

// checkOffsets asserts the provenance contract: every element's text is at
// its offsets in the page text.
func checkOffsets(t *testing.T, name string, res *document.Result) {
	t.Helper()
	texts := map[int][]rune{}
	for _, p := range res.Pages {
		texts[p.Number] = []rune(p.Text)
	}
	for _, e := range res.Elements {
		r := texts[e.Page]
		if e.CharStart < 0 || e.CharEnd > len(r) || e.CharStart > e.CharEnd {
			t.Errorf("%s: element %d offsets %d-%d outside page %d text (%d)", name, e.Seq, e.CharStart, e.CharEnd, e.Page, len(r))
			continue
		}
		if got := string(r[e.CharStart:e.CharEnd]); got != e.Text {
			t.Errorf("%s: element %d text %q != page text %q", name, e.Seq, e.Text, got)
		}
	}
}

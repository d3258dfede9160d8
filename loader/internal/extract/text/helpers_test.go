package text

import (
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// checkOffsets asserts that every element's text is the page text between
// its code point offsets.
func checkOffsets(t *testing.T, name string, res *document.Result) {
	t.Helper()
	if len(res.Pages) != 1 {
		t.Fatalf("%s: %d pages", name, len(res.Pages))
	}
	page := []rune(res.Pages[0].Text)
	for i, e := range res.Elements {
		if e.Seq != i {
			t.Errorf("%s: element %d has Seq %d", name, i, e.Seq)
		}
		if e.CharStart < 0 || e.CharEnd > len(page) || e.CharStart >= e.CharEnd {
			t.Errorf("%s: element %d offsets %d..%d out of page (%d)", name, i, e.CharStart, e.CharEnd, len(page))
			continue
		}
		if got := string(page[e.CharStart:e.CharEnd]); got != e.Text {
			t.Errorf("%s: element %d text %q != page[%d:%d] %q", name, i, e.Text, e.CharStart, e.CharEnd, got)
		}
		if i > 0 && e.CharStart < res.Elements[i-1].CharEnd {
			t.Errorf("%s: element %d overlaps the previous one", name, i)
		}
	}
}

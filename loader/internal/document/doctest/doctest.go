// Package doctest holds the invariants every extraction result keeps, for
// the fuzz targets of the parser packages: it takes a Result and reports
// what is broken.
package doctest

import (
	"fmt"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/document"
)

// Check returns the first broken invariant of res: pages numbered from 1
// in order, texts valid UTF-8, each element on an existing page with
// offsets inside its text, tables referenced by elements that exist.
func Check(res *document.Result) error {
	if res == nil {
		return fmt.Errorf("nil result without an error")
	}
	runes := map[int]int{}
	for i, p := range res.Pages {
		if p.Number != i+1 {
			return fmt.Errorf("page %d numbered %d", i+1, p.Number)
		}
		if !utf8.ValidString(p.Text) {
			return fmt.Errorf("page %d text is not valid UTF-8", p.Number)
		}
		runes[p.Number] = utf8.RuneCountInString(p.Text)
	}
	for _, e := range res.Elements {
		n, ok := runes[e.Page]
		if !ok {
			return fmt.Errorf("element %d on page %d, which does not exist", e.Seq, e.Page)
		}
		if e.CharStart < 0 || e.CharStart > e.CharEnd || e.CharEnd > n {
			return fmt.Errorf("element %d offsets %d-%d outside page %d (%d characters)", e.Seq, e.CharStart, e.CharEnd, e.Page, n)
		}
		if !utf8.ValidString(e.Text) {
			return fmt.Errorf("element %d text is not valid UTF-8", e.Seq)
		}
		if e.Category == document.TableCat && e.TableSeq >= len(res.Tables) {
			return fmt.Errorf("element %d points to table %d of %d", e.Seq, e.TableSeq, len(res.Tables))
		}
	}
	return nil
}

package pdf

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// rowsTables is a TableDetector returning, on every page, one table over
// the page's rows (the page's lines from y 40 to 760), cells as the rows'
// text items.
type rowsTables struct{ rows map[int][][]string }

func (d rowsTables) DetectTables(lay *Layout) []document.Table {
	return []document.Table{{BBox: document.BBox{X0: 60, Y0: 35, X1: 560, Y1: 772}, Rows: d.rows[lay.Number]}}
}

// TestTableRowsInTheMarginsAreTheTables: a long table filling its pages
// (the WARN report) has rows in the top and bottom margins whose dates
// and counts, alike up to their digits, stand at the same place on every
// page. Those rows are the table's, not a Header or Footer element (their
// text told twice, once out of its row).
func TestTableRowsInTheMarginsAreTheTables(t *testing.T) {
	det := rowsTables{rows: map[int][][]string{}}
	var pages []pg
	for p := 1; p <= 3; p++ {
		var items []txt
		for i, y := range []float64{40, 120, 200, 300, 400, 500, 600, 700, 760} {
			date := []string{"07/13/2015", "09/18/2015", "10/23/2015"}[(p+i)%3]
			name := []string{"Boeing Company", "Maxim Integrated", "Hilton Union Square", "American Management"}[(p*3+i)%4]
			count := []string{"56", "113", "78", "38"}[(p+i)%4]
			items = append(items, txt{X: 72, Y: y, Size: 9, S: date}, txt{X: 250, Y: y, Size: 9, S: name}, txt{X: 500, Y: y, Size: 9, S: count})
			det.rows[p] = append(det.rows[p], []string{date, name, count})
		}
		pages = append(pages, pg{Items: items})
	}
	res, err := Extractor{Tables: det}.Extract(t.Context(), writePDF(t, pages), opts)
	if err != nil {
		t.Fatal(err)
	}
	checkOffsets(t, t.Name(), res)
	if len(res.Tables) != 3 {
		t.Fatalf("%d tables, want 3", len(res.Tables))
	}
	for _, e := range res.Elements {
		if e.Category != document.TableCat {
			t.Errorf("p%d %s %q: want the table's row", e.Page, e.Category, e.Text)
		}
	}
	for _, p := range res.Pages {
		if n := strings.Count(p.Text, "07/13/2015"); n != strings.Count(tableTextOf(res, p.Number), "07/13/2015") {
			t.Errorf("p%d: %q told %d times", p.Number, "07/13/2015", n)
		}
	}
}

func tableTextOf(res *document.Result, page int) string {
	for _, t := range res.Tables {
		if t.Page == page {
			return tableText(t)
		}
	}
	return ""
}

package table

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestShadedHeaderOverUnruledBody: a header on a grey background (a
// filled box, no other rules; three or four lines) over an unruled body
// is one table, the header its first rows; not the header alone as a
// table and the body as another.
func TestShadedHeaderOverUnruledBody(t *testing.T) {
	cols := []col{{72, false}, {250, true}, {320, true}, {400, true}}
	head := []txt{
		{X: 222, Y: 128, Size: 10, Bold: true, S: "Total"},
		{X: 212, Y: 140, Size: 10, Bold: true, S: "Number"},
		{X: 72, Y: 152, Size: 10, Bold: true, S: "Industry"},
		{X: 210, Y: 152, Size: 10, Bold: true, S: "of persons"},
		{X: 276, Y: 152, Size: 10, Bold: true, S: "Percent"},
		{X: 356, Y: 152, Size: 10, Bold: true, S: "Change"},
	}
	rows := [][]string{
		{"Construction", "2,516", "21.0", "1.2"},
		{"Transport and storage", "2,620", "18.4", "-0.4"},
		{"Manufacturing", "9,148", "30.1", "2.5"},
		{"Public administration", "2,150", "24.2", "0.9"},
		{"Education", "7,576", "6.3", "1.1"},
	}
	for _, lines := range []int{3, 4} {
		t.Run(fmt.Sprint(lines, " lines"), func(t *testing.T) {
			pg := page{}
			pg.Items = append(pg.Items, prose(72, 90, "Persons employed by industry, number in thousands and percent of the total.")...)
			pg.Items = append(pg.Items, head...)
			top := 116.0
			if lines == 4 {
				pg.Items = append(pg.Items, txt{X: 350, Y: 116, Size: 10, Bold: true, S: "Annual"})
				top = 104
			}
			pg.Items = append(pg.Items, tableRows(172, 20, cols, rows, false)...)
			pg.Draw = append(pg.Draw, fmt.Sprintf("0.82 g 68 %g 338 %g re f 0 g", 792.0-160, 160-top))
			pg.Items = append(pg.Items, prose(72, 290, "Figures for the latest year are provisional and may be revised.")...)
			ts := detect(t, pg)
			if len(ts) != 1 {
				t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
			}
			// the header lines are the table's first rows, over the body
			// (how the head's lines group into rows is not this test's
			// concern: TestHeadsWrappedBottomAligned)
			got := cellsOf(ts[0])
			n := len(got) - len(rows)
			if n < 1 {
				t.Fatalf("want the header's rows over the body: %s", dump(ts))
			}
			var words []string
			for _, r := range got[:n] {
				for _, c := range r {
					words = append(words, strings.Fields(c)...)
				}
			}
			for _, h := range head {
				for _, w := range strings.Fields(h.S) {
					if !slices.Contains(words, w) {
						t.Errorf("head word %q not in the header rows %q", w, got[:n])
					}
				}
			}
			wantCells(t, document.Table{Rows: got[n:]}, rows)
		})
	}
}

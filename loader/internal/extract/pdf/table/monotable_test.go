package table

import (
	"fmt"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/extract/pdf/pdftest"
)

// monoTablePDF is a data table set in font (review32's probe): rules
// under the head and between rows, its sides ruled when sides, no rule
// between columns, under a paragraph in Helvetica.
func monoTablePDF(sides bool, font string) []byte {
	var c strings.Builder
	rows := [][]string{
		{"Region", "2022", "2023", "Change"},
		{"North", "1,204", "1,318", "+9.5%"},
		{"South", "877", "902", "+2.9%"},
		{"East", "2,310", "2,115", "-8.4%"},
		{"West", "654", "701", "+7.2%"},
		{"Total", "5,045", "5,036", "-0.2%"},
	}
	xs := []float64{135, 230, 310, 390}
	top := 300.0
	for i := 0; i <= len(rows); i++ {
		y := 792 - (top + float64(i)*14)
		fmt.Fprintf(&c, "0.5 w 130 %g m 460 %g l S\n", y, y)
	}
	if sides {
		fmt.Fprintf(&c, "0.5 w 130 %g m 130 %g l S\n", 792-top, 792-top-14*float64(len(rows)))
		fmt.Fprintf(&c, "0.5 w 460 %g m 460 %g l S\n", 792-top, 792-top-14*float64(len(rows)))
	}
	for i, r := range rows {
		y := 792 - (top + float64(i)*14 + 10)
		for j, cell := range r {
			fmt.Fprintf(&c, "BT /F2 9 Tf %g %g Td (%s) Tj ET\n", xs[j], y, pdftest.Esc(cell))
		}
	}
	for i, l := range []string{
		"Table 3 gives the sales of each region in the last two years, in",
		"thousands of units, with the change from one year to the next.",
	} {
		fmt.Fprintf(&c, "BT /F1 10 Tf 130 %g Td (%s) Tj ET\n", 792-(250+float64(i)*13), pdftest.Esc(l))
	}
	return twoFontPDF(c.String(), font)
}

// A data table in a typewriter font, boxed and ruled between its rows
// with no rule between columns (statistics packages' and mainframes'
// output), is a table, not a code listing: its columns are spaces apart
// in every line.
func TestBoxedTypewriterTableIsTable(t *testing.T) {
	for _, font := range []string{"Courier", "Helvetica"} {
		for _, sides := range []bool{true, false} {
			tabs := detectFile(t, pdftest.WriteBytes(t, "mono.pdf", monoTablePDF(sides, font)))
			if len(tabs) != 1 {
				t.Errorf("%s, sides ruled %v: %d tables, want 1", font, sides, len(tabs))
				continue
			}
			got := cellsOf(tabs[0])
			if len(got) != 6 || len(got[0]) != 4 || got[1][0] != "North" || got[1][3] != "+9.5%" || got[5][2] != "5,036" {
				t.Errorf("%s, sides ruled %v: cells %q", font, sides, got)
			}
		}
	}
}

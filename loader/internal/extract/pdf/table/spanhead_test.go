package table

import (
	"slices"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestGroupHeadUnderCaption: a group head centred over some columns,
// right under a one-line caption (as close to it as a caption's wrapped
// line), is a header row of the table, not the caption's second line;
// the column heads under it (the stub head on their last line) are the
// header's too, so the first body label, wrapped above its numbers,
// stays out of the stub head. Before, the group head was read as the
// caption's wrapped line and dropped; kept, the stub head took the
// first label's lines.
func TestGroupHeadUnderCaption(t *testing.T) {
	const size = 10
	at := func(x, y float64, s string) txt { return txt{X: x, Y: y, Size: size, S: s} }
	right := func(x, y float64, s string) txt { return at(x-helvWidth(s), y, s) }
	pg := page{Items: prose(56, 80,
		"Estimates for the latest year are provisional and may be revised when final data become available.",
		"Differences between totals and the sum of components are due to rounding.")}
	pg.Items = append(pg.Items,
		txt{X: 56, Y: 116, Size: size, Bold: true, S: "Table 1. Income by activity"},
		at(367, 130, "Share of total"))
	pg.Items = append(pg.Items,
		at(166, 142, "Annual sold"), at(324, 142, "Amount"), at(416, 142, "Income"),
		at(60, 154, "Age group"), at(182, 154, "Price"), at(250, 154, "Founded"), at(324, 154, "Difference"), at(416, 154, "Budget"))
	body := [][]string{
		{"Capital storage", "", "", "", ""},
		{"Southern", "$348", "2016", "-", "$61,717,569"},
		{"Region Exports", "$799", "2017", "5744.2", "$41,653,853"},
		{"Total", "$449", "2013", "8292.7", "n/a"},
		{"Costs Operating", "$235", "2001", "8539.7", "$29,341,392"},
		{"Wholesale", "$664", "2019", "5023.2", "$53,655,304"},
	}
	for i, r := range body {
		y := 171 + 12*float64(i)
		pg.Items = append(pg.Items, at(60, y, r[0]))
		for j, x := range []float64{221, 291, 375, 463} {
			if r[j+1] != "" {
				pg.Items = append(pg.Items, right(x, y, r[j+1]))
			}
		}
	}
	pg.Items = append(pg.Items, prose(56, 260, "Figures for the latest year are provisional and may be revised.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	// the first label's two lines one cell, beside the numbers of its
	// second line
	first := append([]string{"Capital storage Southern"}, body[1][1:]...)
	wantCells(t, ts[0], append([][]string{
		{"", "", "", "Share of total", ""},
		{"Age group", "Annual sold Price", "Founded", "Amount Difference", "Income Budget"},
		first,
	}, body[2:]...))
	if want := (document.CellSpan{Row: 0, Col: 3, Rows: 1, Cols: 2}); !slices.Contains(ts[0].Spans, want) {
		t.Errorf("spans %+v, want %+v among them", ts[0].Spans, want)
	}
}

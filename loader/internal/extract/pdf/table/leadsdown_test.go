package table

import (
	"fmt"
	"strings"
	"testing"
)

// TestLabelCloserToItsNumbers: rows set apart, one label wrapped over
// two capitalised lines at the font's leading with the row's numbers on
// its last line, under the widest label of the table (so the width test
// alone reads the line as that label wrapping). With a single wrapped
// row the band shows no numbers-last pattern; the line's own spacing
// says whose it is: it stands closer to the line under it than to the
// one above (by 3.5pt at 10pt, 2.5pt with a text cell, 1.5pt: a browser's
// cell padding of 1px over and under each row). Also with a text cell set
// top-aligned beside the label's first line. Set at the rows' pitch
// (nothing to tell), or within 0.8pt of it (0.08 of the size: no padding
// a reader sees), it stays with the row above, as before (in a table
// whose numbers sit on the label's first line, that is its wrap).
func TestLabelCloserToItsNumbers(t *testing.T) {
	for _, c := range []struct {
		leading float64
		status  bool
		closer  bool
	}{
		{10.5, false, true},
		{11.5, true, true},
		{12.5, false, true},
		{13.2, false, false},
		{14, false, false},
	} {
		t.Run(fmt.Sprintf("leading %g status %v", c.leading, c.status), func(t *testing.T) {
			pg, want := closerPage(c.leading, c.status, c.closer)
			wantTable(t, pg, want)
		})
	}
}

// closerPage sets the table of TestLabelCloserToItsNumbers, its wrapped
// label's lines a leading apart, rows 14pt apart, with a Status column
// of text cells when status; want is the table read by spacing when
// closer, else with the label's first line on the row above.
func closerPage(leading float64, status, closer bool) (pg page, want [][]string) {
	type row struct {
		label    []string
		state, a string
	}
	rows := []row{
		{[]string{"Forestry and logging"}, "approved", "63.5%"},
		{[]string{"Water supply"}, "pending", "40.0%"},
		{[]string{"Water transport and fishing areas"}, "approved", "61.3%"},
		{[]string{"Northern electricity", "Imports"}, "under review", "15.6%"},
		{[]string{"Trade and hotels"}, "pending", "57.3%"},
		{[]string{"Wholesale"}, "approved", "0.7%"},
	}
	cell := func(cs ...string) []string {
		if status {
			return cs
		}
		return []string{cs[0], cs[2]}
	}
	pg = page{Items: prose(72, 80, "The share of each industry in the region's output at the end of the year, as reported.")}
	y := 130.0
	pg.Items = append(pg.Items, txt{X: 72, Y: y, Size: 10, Bold: true, S: "Industry"},
		txt{X: 360 - helvWidth("2021"), Y: y, Size: 10, Bold: true, S: "2021"})
	if status {
		pg.Items = append(pg.Items, txt{X: 230, Y: y, Size: 10, Bold: true, S: "Status"})
	}
	want = [][]string{cell("Industry", "Status", "2021")}
	y += 18
	for _, r := range rows {
		if status {
			pg.Items = append(pg.Items, txt{X: 230, Y: y, Size: 10, S: r.state})
		}
		for i, l := range r.label {
			pg.Items = append(pg.Items, txt{X: 72, Y: y, Size: 10, S: l})
			if i < len(r.label)-1 {
				y += leading
			}
		}
		pg.Items = append(pg.Items, txt{X: 360 - helvWidth(r.a), Y: y, Size: 10, S: r.a})
		want = append(want, cell(strings.Join(r.label, " "), r.state, r.a))
		y += 14
	}
	if !closer {
		want[3] = cell(rows[2].label[0]+" "+rows[3].label[0], rows[2].state+" "+rows[3].state, rows[2].a)
		want[4] = cell(rows[3].label[1], "", rows[3].a)
	}
	pg.Items = append(pg.Items, prose(72, y+20, "Figures for the latest year are provisional and may be revised.")...)
	return pg, want
}

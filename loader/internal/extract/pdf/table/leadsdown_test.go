package table

import (
	"strings"
	"testing"
)

// TestLabelCloserToItsNumbers: rows set apart, one label wrapped over
// two capitalised lines at the font's leading with the row's numbers on
// its last line, under the widest label of the table (so the width test
// alone reads the line as that label wrapping). With a single wrapped
// row the band shows no numbers-last pattern; the line's own spacing
// says whose it is: it stands closer to the line under it than to the
// one above. Set at the rows' pitch (nothing to tell), it stays with the
// row above, as before.
func TestLabelCloserToItsNumbers(t *testing.T) {
	type row struct {
		label []string
		a     string
	}
	rows := []row{
		{[]string{"Forestry and logging"}, "63.5%"},
		{[]string{"Water supply"}, "40.0%"},
		{[]string{"Water transport and fishing areas"}, "61.3%"},
		{[]string{"Northern electricity", "Imports"}, "15.6%"},
		{[]string{"Trade and hotels"}, "57.3%"},
		{[]string{"Wholesale"}, "0.7%"},
	}
	for _, c := range []struct {
		name    string
		leading float64
		want    [][]string
	}{
		{"closer to its numbers", 10.5, nil},
		{"at the rows' pitch", 14, [][]string{
			{"Water transport and fishing areas Northern electricity", "61.3%"},
			{"Imports", "15.6%"},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			pg := page{Items: prose(72, 80, "The share of each industry in the region's output at the end of the year, as reported.")}
			y := 130.0
			pg.Items = append(pg.Items, txt{X: 72, Y: y, Size: 10, Bold: true, S: "Industry"},
				txt{X: 300 - helvWidth("2021"), Y: y, Size: 10, Bold: true, S: "2021"})
			want := [][]string{{"Industry", "2021"}}
			y += 18
			for _, r := range rows {
				for i, l := range r.label {
					pg.Items = append(pg.Items, txt{X: 72, Y: y, Size: 10, S: l})
					if i < len(r.label)-1 {
						y += c.leading
					}
				}
				pg.Items = append(pg.Items, txt{X: 300 - helvWidth(r.a), Y: y, Size: 10, S: r.a})
				want = append(want, []string{strings.Join(r.label, " "), r.a})
				y += 14
			}
			if c.want != nil {
				want = append(append(append([][]string{}, want[:3]...), c.want...), want[5:]...)
			}
			pg.Items = append(pg.Items, prose(72, y+20, "Figures for the latest year are provisional and may be revised.")...)
			wantTable(t, pg, want)
		})
	}
}

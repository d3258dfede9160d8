package table

import (
	"fmt"
	"reflect"
	"testing"
)

// A rate sheet drawn as boxes one under the other, 3 pt of white between
// them (pr-138 p1): the head, then each section, a shaded band row
// ("Fixed", "Variable") over its rows. The boxes share their column rules:
// one table, the bands its section rows, not four tables.
func TestStackedGridsAreOneTable(t *testing.T) {
	xs := []float64{72, 200, 330, 460}
	var pg page
	part := func(y0 float64, band string, rows [][]string) float64 {
		ys := []float64{y0}
		if band != "" {
			pg.Draw = append(pg.Draw, fmt.Sprintf("0.85 g %g %g %g 14 re f 0 g", xs[0], 792-y0-14, xs[3]-xs[0]))
			pg.Items = append(pg.Items, txt{X: xs[0] + 4, Y: y0 + 11, Size: 9, Bold: true, S: band})
			ys = append(ys, y0+14)
		}
		top := ys[len(ys)-1]
		for i, r := range rows {
			y := top + 20*float64(i)
			for j, c := range r {
				pg.Items = append(pg.Items, txt{X: xs[j] + 4, Y: y + 14, Size: 10, Bold: band == "", S: c})
			}
			ys = append(ys, y+20)
		}
		for _, y := range ys {
			pg.Draw = append(pg.Draw, hline(xs[0], xs[3], y))
		}
		bottom := ys[len(ys)-1]
		for i, x := range xs {
			if i == 0 || i == len(xs)-1 {
				pg.Draw = append(pg.Draw, vline(x, y0, bottom))
			} else {
				pg.Draw = append(pg.Draw, vline(x, top, bottom))
			}
		}
		return bottom + 3
	}
	y := part(100, "", [][]string{{"Loan", "Rate", "Comparison"}})
	y = part(y, "Fixed", [][]string{{"1 year", "4.04%", "5.38%"}, {"2 years", "3.94%", "5.25%"}})
	part(y, "Variable", [][]string{{"Standard", "5.37%", "5.51%"}, {"Basic", "4.87%", "5.27%"}})
	got := New().DetectTables(firstLayout(t, writePDF(t, []page{pg})))
	want := [][]string{
		{"Loan", "Rate", "Comparison"},
		{"Fixed", "", ""},
		{"1 year", "4.04%", "5.38%"},
		{"2 years", "3.94%", "5.25%"},
		{"Variable", "", ""},
		{"Standard", "5.37%", "5.51%"},
		{"Basic", "4.87%", "5.27%"},
	}
	if len(got) != 1 {
		for _, tb := range got {
			t.Logf("%v %q", tb.BBox, cellsOf(tb))
		}
		t.Fatalf("%d tables, want 1", len(got))
	}
	if c := cellsOf(got[0]); !reflect.DeepEqual(c, want) {
		t.Errorf("cells %q, want %q", c, want)
	}
}

package table

import (
	"fmt"
	"testing"
)

// TestValueOverItsMargin: a survey table sets each value's margin of
// error on a second line under it, "9,112" over "(+/-7.6)", the label and
// a year on the first line only. The margins are more of the value's
// cell, not a row of numbers without a label, with "+/-" or without, the
// rows set a leading apart or with a gap between them.
func TestValueOverItsMargin(t *testing.T) {
	for _, c := range []struct {
		sign   string
		rowGap float64
	}{{"+/-", 0}, {"+/-", 5}, {"", 0}} {
		t.Run(fmt.Sprintf("sign %q gap %g", c.sign, c.rowGap), func(t *testing.T) {
			pg, want := marginPage(c.sign, c.rowGap)
			wantTable(t, pg, want)
		})
	}
}

// marginPage sets TestValueOverItsMargin's table, each value's margin
// (after sign) on the line under it, rows rowGap apart beyond the
// leading; want is the table with each value and its margin one cell.
func marginPage(sign string, rowGap float64) (pg page, want [][]string) {
	rows := [][]string{
		{"Northern region", "2014", "9,112", "7.6", "90.7", "4.7"},
		{"Southern region", "2008", "47,983", "5.6", "34.9", "0.8"},
		{"Eastern areas", "2014", "31,287", "8.8", "8.2", "9.1"},
		{"Western areas", "2011", "41,541", "1.4", "66.2", "7.8"},
		{"Central", "2019", "7,543", "2.2", "55.3", "3.0"},
	}
	right := func(s string, x, y float64) txt { return txt{X: x - helvWidth(s)*0.9, Y: y, Size: 9, S: s} }
	pg = page{Items: prose(72, 80, "Households by region and the year of the last census, with margins of error.")}
	y := 130.0
	pg.Items = append(pg.Items, txt{X: 72, Y: y, Size: 9, Bold: true, S: "Area"}, txt{X: 200, Y: y, Size: 9, Bold: true, S: "Census"},
		txt{X: 280, Y: y, Size: 9, Bold: true, S: "Households"}, txt{X: 360, Y: y, Size: 9, Bold: true, S: "Share"})
	want = [][]string{{"Area", "Census", "Households", "Share"}}
	y += 16
	for _, r := range rows {
		pg.Items = append(pg.Items, txt{X: 72, Y: y, Size: 9, S: r[0]}, txt{X: 200, Y: y, Size: 9, S: r[1]},
			right(r[2], 330, y), right(r[4], 390, y))
		m1, m2 := "("+sign+r[3]+")", "("+sign+r[5]+")"
		pg.Items = append(pg.Items, right(m1, 330, y+10.5), right(m2, 390, y+10.5))
		want = append(want, []string{r[0], r[1], r[2] + " " + m1, r[4] + " " + m2})
		y += 21 + rowGap
	}
	pg.Items = append(pg.Items, prose(72, y+20, "Figures for the latest year are provisional and may be revised.")...)
	return pg, want
}

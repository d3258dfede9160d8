package table

import (
	"fmt"
	"testing"
)

// TestStackedHeadWiderThanItsNumbers: a column head wrapped over three
// lines, centred over a column of short right-aligned numbers and wider
// than them, in a long table (the body's lines alone decide where the
// column gaps are, so the gap between the two number columns reaches
// under the head): the head is its column's, not a cell spanning it
// with the column left of it. Before, the boundary went in the gap's
// middle, the head's widest line ("persons") crossed it, and the heads
// of both columns became one cell.
func TestStackedHeadWiderThanItsNumbers(t *testing.T) {
	const size = 10
	at := func(x, y float64, s string) txt { return txt{X: x, Y: y, Size: size, S: s} }
	centred := func(c, y float64, s string) txt { return at(c-helvWidth(s)/2, y, s) }
	right := func(x, y float64, s string) txt { return at(x-helvWidth(s), y, s) }
	pg := page{Items: prose(72, 80, "The number of persons in each sector at the end of the year, as reported by the ministry.")}
	pg.Items = append(pg.Items,
		centred(233, 120, "Units"), centred(233, 131, "persons"),
		at(76, 142, "Sector"), right(186, 142, "Number"), centred(233, 142, "Total"))
	want := [][]string{{"Sector", "Number", "Units persons Total"}}
	names := []string{"Hungary", "Italy", "Greece", "Spain", "Portugal", "Ireland", "Germany", "Denmark", "Norway", "Austria", "Poland"}
	for i := 0; i < 22; i++ {
		y := 162 + 11.5*float64(i)
		row := []string{names[i%len(names)], fmt.Sprint(100 + 37*i), fmt.Sprint(10 + 3*i)}
		pg.Items = append(pg.Items, at(76, y, row[0]), right(186, y, row[1]), right(258, y, row[2]))
		want = append(want, row)
	}
	pg.Items = append(pg.Items, prose(72, 440, "Figures for the latest year are provisional and may be revised.")...)
	wantTable(t, pg, want)
}

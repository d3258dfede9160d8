package table

import (
	"fmt"
	"testing"
)

// zebraSpanPage is a page of a small zebra table in 9pt, its rows pitch
// apart, between two paragraphs: its heads unshaded, then every other
// row shaded from the first body row on, each cell's background a
// rectangle of its own (as a browser paints a tr:nth-child rule, the
// text's box centred in its row's band), and a
// cell spanning two rows (a blank stub under it) shaded with its first
// row, so the stripes of the first two body rows touch. The rows under
// the last stripe are unshaded.
func zebraSpanPage(rows [][]string, span int, pitch float64) page {
	const size = 9.0
	drop := (pitch - 7) / 2 // 9pt Helvetica's box: 9.7 over the baseline, 2.7 under
	cells := []float64{42, 130, 200, 260}
	pg := page{Items: prose(42, 80, "Parts ordered for the plant this quarter, with the supplier's code and the unit price paid for them.")}
	y := 80 + 13 + pitch
	for i, r := range rows {
		if i > 0 && i%2 == 1 {
			for k := 0; k+1 < len(cells); k++ {
				h := pitch
				if k == 0 && i == span {
					h = 2 * pitch // the spanning stub cell, shaded with its row
				}
				pg.Draw = append(pg.Draw, fmt.Sprintf("0.9 g %g %g %g %g re f 0 g", cells[k], 792-y-drop-(h-pitch), cells[k+1]-cells[k], h))
			}
		}
		for j, c := range r {
			if c == "" {
				continue
			}
			yy := y
			if j == 0 && i == span {
				yy += pitch / 2 // a spanning cell's text is centred on its rows
			}
			pg.Items = append(pg.Items, txt{X: cells[j] + 4, Y: yy, Size: size, S: c})
		}
		y += pitch
	}
	pg.Items = append(pg.Items, prose(42, y+4, "Prices are in euros and exclude value added tax; the codes are the supplier's own.")...)
	return pg
}

// zebraSpanRows: heads, a stub label spanning two rows, two rows more.
var zebraSpanRows = [][]string{
	{"Part", "Code", "Price"},
	{"Hex bolt M8", "RL-9147", "227.28"},
	{"", "DB-3903", "107.07"},
	{"Drive belt", "RL-8159", "282.60"},
	{"Bearing 6204", "BR-0482", "244.54"},
}

// TestZebraSpanHeadsAndLastRow: a zebra table whose first body row
// holds a stub cell spanning two rows (kd-3158's and kd-5072's form on
// the hard and surround tune halves): the touching stripes make a grid
// of fills, which the ruled reader read alone, losing the unshaded heads
// over its top and the unshaded last row under its bottom. Both are the
// table's: no line is drawn there, and their phrases stand in the grid's
// columns.
func TestZebraSpanHeadsAndLastRow(t *testing.T) {
	rows := zebraSpanRows
	for _, pitch := range []float64{12.75, 13.5, 15} {
		t.Run(fmt.Sprint(pitch), func(t *testing.T) {
			wantTable(t, zebraSpanPage(rows, 1, pitch), rows)
		})
	}
}

// TestZebraSpanNoHeads: the same table with no head row, its first body
// row unshaded over the stripes (kd-3158): the first row and the last
// are the table's, the paragraphs around it are not.
func TestZebraSpanNoHeads(t *testing.T) {
	rows := [][]string{
		{"Drive belt", "BR-7576", "122.65"},
		{"Hex bolt M8", "RL-9147", "227.28"},
		{"", "DB-3903", "107.07"},
		{"Hex bolt M8", "RL-8159", "282.60"},
		{"Bearing 6204", "BR-0482", "244.54"},
	}
	wantTable(t, zebraSpanPage(rows, 1, 13.5), rows)
}

// TestZebraSpanParagraphTail: the same table right under a paragraph in
// the table's size whose last line is short ("them all.", inside the
// table's extent, a row's pitch over the heads): the heads are the
// table's, the paragraph's last line is not (it starts at the text's
// margin, not where a cell's text does).
func TestZebraSpanParagraphTail(t *testing.T) {
	rows := zebraSpanRows
	for _, pitch := range []float64{12.75, 13.5} {
		t.Run(fmt.Sprint(pitch), func(t *testing.T) {
			pg := zebraSpanPage(rows, 1, pitch)
			y := 80 + 13 + pitch // the heads' baseline
			pg.Items = append(pg.Items[1:],
				txt{X: 42, Y: y - 2*pitch, Size: 9, S: "Parts ordered for the plant this quarter, with the supplier's code and the unit price paid for"},
				txt{X: 42, Y: y - pitch, Size: 9, S: "them all."})
			wantTable(t, pg, rows)
		})
	}
}

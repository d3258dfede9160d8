package table

import (
	"strings"
	"testing"
)

// TestSideBySideOneEndsFirst: two tables side by side, tops level, in the
// same size and leading and with the same column gap, a gutter half as
// wide again between them; their shapes differ (a label and a number, a
// label, a text and a number) and the left one runs on four rows after
// the right one ends: two tables, not one with the right one's columns
// empty at the bottom.
func TestSideBySideOneEndsFirst(t *testing.T) {
	left := [][]string{
		{"Region", "Households"},
		{"Northern", "12,345"}, {"Southern", "8,210"}, {"Eastern", "17,902"}, {"Western", "5,377"},
		{"Central", "9,040"}, {"Coastal", "3,118"}, {"Islands", "1,260"}, {"Upland", "2,904"},
	}
	right := [][]string{
		{"Programme", "Stage", "Budget"},
		{"Schools", "approved", "$1,200"}, {"Transport", "pending", "$950"}, {"Housing", "planned", "$2,310"}, {"Water", "review", "$610"},
	}
	wantBeside(t, left, right, 20)
}

// wantBeside: the left table beside the right one (9pt, column gaps of
// 20pt on the left, rightGap on the right, a gutter of 32pt), a paragraph
// over and under them, are two tables of their shapes.
func wantBeside(t *testing.T, left, right [][]string, rightGap float64) {
	t.Helper()
	besideTables(t, left, right, 20, rightGap, 32)
}

// besideTables: the left table (column gaps of gap) and, gutter to its
// right, the right one (column gaps of rightGap), a paragraph over and
// under them, are two tables of their shapes.
func besideTables(t *testing.T, left, right [][]string, gap, rightGap, gutter float64) {
	t.Helper()
	pg := page{Items: prose(72, 80, "The region's households and its programmes, as reported at the end of the year.")}
	items, x1 := setTable(left, 72, 130, gap)
	pg.Items = append(pg.Items, items...)
	items, _ = setTable(right, x1+gutter, 130, rightGap)
	pg.Items = append(pg.Items, items...)
	pg.Items = append(pg.Items, prose(72, 130+12*float64(max(len(left), len(right)))+20, "Figures for the latest year are provisional.")...)
	ts := detect(t, pg)
	if len(ts) != 2 {
		t.Fatalf("want 2 tables, got %d: %s", len(ts), dump(ts))
	}
	for i, want := range [][][]string{left, right} {
		if got := cellsOf(ts[i]); len(got) != len(want) || len(got[0]) != len(want[0]) {
			t.Errorf("table %d: %d rows of %d, want %d of %d: %s", i, len(got), len(got[0]), len(want), len(want[0]), dump(ts))
		}
	}
}

// setTable sets rows at (x, y) in 9pt Helvetica, 12pt apart, a column gap
// apart (numbers right-aligned in their column), and returns the items and
// the table's right edge.
func setTable(rows [][]string, x, y, gap float64) ([]txt, float64) {
	width := func(s string) float64 { return helvWidth(s) * 0.9 }
	var items []txt
	for j := range rows[0] {
		w := 0.0
		for _, r := range rows {
			w = max(w, width(r[j]))
		}
		for i, r := range rows {
			cx := x
			if i > 0 && strings.ContainsAny(r[j][:1], "$0123456789") {
				cx = x + w - width(r[j])
			}
			items = append(items, txt{X: cx, Y: y + 12*float64(i), Size: 9, S: r[j]})
		}
		x += w + gap
	}
	return items, x - gap
}

// TestSideBySideRightGapWider: TestSideBySideOneEndsFirst's left table
// and, a gutter 1.6 column gaps wide beside it, a table of labels and
// numbers set farther off than that gutter (its own column gap 2.5 of the
// left table's): two tables. The gutter had to be a third wider than
// every other column gap, the right table's own too, so the two read as
// one. Also tablegen's sidetight page of tune seed 160.
func TestSideBySideRightGapWider(t *testing.T) {
	left := [][]string{
		{"Region", "Households"},
		{"Northern", "12,345"}, {"Southern", "8,210"}, {"Eastern", "17,902"}, {"Western", "5,377"},
		{"Central", "9,040"}, {"Coastal", "3,118"}, {"Islands", "1,260"}, {"Upland", "2,904"},
	}
	right := [][]string{
		{"Programme", "Budget"},
		{"Schools", "$1,200"}, {"Transport", "$950"}, {"Housing", "$2,310"}, {"Water", "$610"},
	}
	wantBeside(t, left, right, 50)
	doc, ts := detectGenerated(t, 160, "sidetight")
	if len(ts) != 2 {
		t.Fatalf("seed 160: want 2 tables, got %d: %s", len(ts), dump(ts))
	}
	for i, tb := range doc.Tables {
		if got := len(cellsOf(ts[i])); got != truthRows(tb) {
			t.Errorf("seed 160 table %d: %d rows, want %d: %s", i, got, truthRows(tb), dump(ts))
		}
	}
}

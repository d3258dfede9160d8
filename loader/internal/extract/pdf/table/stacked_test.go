package table

import (
	"strings"
	"testing"
)

// rowRuled lays out a text-only table with a rule under its header and
// under every row (cells may wrap: a cell is lines of text), columns
// left-aligned at xs, the rules from x0 to x1; it returns the page items
// and rules, and the y under the last rule.
func rowRuled(x0, x1, y float64, xs []float64, rows [][][]string) ([]txt, []string, float64) {
	var items []txt
	var draw []string
	for i, r := range rows {
		h := 1
		for j, cell := range r {
			h = max(h, len(cell))
			for k, line := range cell {
				items = append(items, txt{X: xs[j], Y: y + 12 + float64(k)*12, Size: 10, S: line})
			}
		}
		y += float64(h)*12 + 6
		if i == 0 {
			draw = append(draw, hline(x0, x1, y-2))
		} else {
			draw = append(draw, hline(x0, x1, y))
		}
	}
	return items, draw, y
}

// TestRowRuledTextTable: tables of text only with a rule between every
// two rows and none between columns (no grid, no numbers) are found, side
// by side, and a cell wrapped over several lines (capitalized or not)
// stays one cell; the paragraph under them stays out.
func TestRowRuledTextTable(t *testing.T) {
	left := [][][]string{
		{{"Animal"}, {"Action"}, {"Result"}},
		{{"Cat"}, {"Says"}, {"Meow"}},
		{{"Parastratiosph", "ecomyiastratio", "sphecomyioid"}, {"Says"}, {"bzzzzzzz"}},
		{{"Fox"}, {"Says"}, {"Ring-", "dingdingding", "Gering-", "dingdingding"}},
	}
	right := [][][]string{
		{{"Animal"}, {"Action"}, {"Result"}},
		{{"Dogs/wolves/", "More dogs"}, {"Says"}, {"Bow-wow/", "Ruff-ruff"}},
		{{"Donkey"}, {"Says"}, {"Hee-Haw Hee-", "Haw"}},
		{{"Fox"}, {"Says"}, {"Wa-pa-pa-pa-", "Pa-pow"}},
	}
	var pg page
	items, draw, y1 := rowRuled(57, 299, 80, []float64{60, 140, 220}, left)
	pg.Items, pg.Draw = append(pg.Items, items...), append(pg.Draw, draw...)
	items, draw, _ = rowRuled(313, 555, 80, []float64{316, 396, 476}, right)
	pg.Items, pg.Draw = append(pg.Items, items...), append(pg.Draw, draw...)
	pg.Items = append(pg.Items, prose(57, y1+30, "The sounds are those a child would give when asked what each animal says,",
		"and the table is only an example of cells that wrap in a table with rules.")...)
	ts := detect(t, pg)
	if len(ts) != 2 {
		t.Fatalf("want 2 tables, got %d: %s", len(ts), dump(ts))
	}
	if ts[0].BBox.X0 > ts[1].BBox.X0 {
		ts[0], ts[1] = ts[1], ts[0]
	}
	join := func(rows [][][]string) [][]string {
		var out [][]string
		for _, r := range rows {
			var row []string
			for _, c := range r {
				row = append(row, strings.Join(c, " "))
			}
			out = append(out, row)
		}
		return out
	}
	wantCells(t, ts[0], join(left))
	wantCells(t, ts[1], join(right))
}

// TestSectionRulesNoTable: headings each underlined by a rule of the same
// width, with lines of two phrases under them (a CV's sections), are no
// table: the rules stand between sections, not between rows.
func TestSectionRulesNoTable(t *testing.T) {
	var pg page
	y := 80.0
	for _, sec := range []struct {
		head  string
		items [][2]string
	}{
		{"Certificates", [][2]string{{"Network engineer", "May 2019"}, {"Cloud architect", "Nov 2019"}, {"Databases", "Dec 2019"}}},
		{"Languages", [][2]string{{"English", "fluent"}, {"Italian", "reading"}}},
		{"Skills", [][2]string{{"Go", "five years"}, {"SQL", "ten years"}}},
	} {
		pg.Items = append(pg.Items, txt{X: 200, Y: y, Size: 10, S: sec.head})
		pg.Draw = append(pg.Draw, hline(200, 500, y+5))
		y += 22
		for _, it := range sec.items {
			pg.Items = append(pg.Items, txt{X: 200, Y: y, Size: 10, S: it[0]}, txt{X: 500 - helvWidth(it[1]), Y: y, Size: 10, S: it[1]})
			y += 16
		}
		y += 14
	}
	if ts := detect(t, pg); len(ts) != 0 {
		t.Fatalf("want no table, got %d: %s", len(ts), dump(ts))
	}
}

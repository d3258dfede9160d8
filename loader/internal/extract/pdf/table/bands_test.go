package table

import (
	"fmt"
	"testing"
)

// TestRuledBandOfRows: a ruled table with rules only under the header and
// over the total row keeps the body lines between them as rows, also when
// the header cells have inset backgrounds whose edges lie left of the
// labels (an empty column in front of the first one).
func TestRuledBandOfRows(t *testing.T) {
	rows := [][]string{
		{"Country", "Fund", "Total"},
		{"Bulgaria", "2.3", "5.5"},
		{"Cyprus", "0.21", "0.21"},
		{"Czech Republic", "8.8", "22.2"},
		{"Estonia", "1.1", "3.0"},
		{"Hungary", "8.6", "19.8"},
		{"TOTAL", "21.01", "50.71"},
	}
	xs := []float64{100, 200, 300, 400}
	var pg page
	for _, y := range []float64{140, 157, 224, 238} {
		pg.Draw = append(pg.Draw, hline(100, 400, y))
	}
	for _, x := range xs {
		pg.Draw = append(pg.Draw, vline(x, 140, 238))
	}
	for k := 0; k+1 < len(xs); k++ { // header cell backgrounds, inset 7pt, down to the header rule
		pg.Draw = append(pg.Draw, fmt.Sprintf("0.9 g %g %g %g 12 re f 0 g", xs[k]+7, 792-157.0, xs[k+1]-xs[k]-14))
	}
	ys := []float64{152, 169, 182, 195, 208, 221, 235}
	for i, r := range rows {
		for j, c := range r {
			pg.Items = append(pg.Items, txt{X: xs[j] + 8, Y: ys[i], Size: 10, S: c})
		}
	}
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], rows)
}

// TestLongLabelBesideNumbers: one label much longer than the others
// reaches past the middle of the gap before the first number column; its
// own row has a number there, so the column boundary moves beside it
// instead of vanishing (which merged labels and means into one column).
func TestLongLabelBesideNumbers(t *testing.T) {
	rows := [][]string{
		{"Variable", "Mean", "Min", "Max"},
		{"Age", "50.8", "21", "90"},
		{"Men", "0.47", "0", "1"},
		{"East", "0.28", "0", "1"},
		{"Rural", "0.15", "0", "1"},
		{"Married", "0.57", "0", "1"},
		{"Single", "0.21", "0", "1"},
		{"Employed", "0.55", "0", "1"},
		{"Retired", "0.28", "0", "1"},
		{"Household size", "2.43", "1", "9"},
		{"Other education", "0.03", "0", "1"},
		{"Gross financial wealth at the end of 2007", "38,855", "0", "2,870,000"},
	}
	pg := page{}
	pg.Items = append(pg.Items, tableRows(130, 12, []col{{72, false}, {320, true}, {380, true}, {460, true}}, rows, false)...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], rows)
}

// TestDotLeaders: labels run into dot leaders up to the numbers; a label
// wrapped over two lines (numbers on its last) after a short one stays
// apart from it: the leaders do not count as text that filled the line.
func TestDotLeaders(t *testing.T) {
	dots := func(s string, n int) string {
		for i := 0; i < n; i++ {
			s += " ."
		}
		return s
	}
	rows := [][]string{
		{"Offense", "Total", "Male"},
		{dots("Fraud", 24), "173.7", "98.4"},
		{dots("Gambling", 20), "8.2", "7.2"},
		{"Offenses against the family and", "", ""},
		{dots("children", 20), "92.4", "68.9"},
		{dots("Vagrancy", 20), "26.6", "20.9"},
		{dots("Suspicion", 19), "1.6", "1.2"},
	}
	pg := page{}
	pg.Items = append(pg.Items, tableRows(130, 12, []col{{72, false}, {300, true}, {360, true}}, rows, false)...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], [][]string{
		{"Offense", "Total", "Male"},
		{"Fraud", "173.7", "98.4"},
		{"Gambling", "8.2", "7.2"},
		{"Offenses against the family and children", "92.4", "68.9"},
		{"Vagrancy", "26.6", "20.9"},
		{"Suspicion", "1.6", "1.2"},
	})
}

// TestBooktabsTwoRows: a small text-only table with rules above, under
// its header and under its last row, and two body rows between the last
// two rules, is found with both rows apart; the heading above it stays
// out.
func TestBooktabsTwoRows(t *testing.T) {
	pg := page{Draw: []string{hline(57, 555, 136), hline(57, 555, 151), hline(57, 555, 180)}}
	pg.Items = append(pg.Items, prose(57, 90, "The two things and their counterparts are listed below for reference.")...)
	pg.Items = append(pg.Items, txt{X: 57, Y: 125, Size: 13, Bold: true, S: "Tableau"})
	rows := [][]string{{"Chose", "Truc"}, {"Chose 1", "Truc 1"}, {"Chose 2", "Truc 2"}}
	pg.Items = append(pg.Items, tableRows(147, 14, []col{{57, false}, {306, false}}, rows[:1], false)...)
	pg.Items = append(pg.Items, tableRows(163, 13, []col{{57, false}, {306, false}}, rows[1:], false)...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], rows)
}

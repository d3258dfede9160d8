package table

import (
	"reflect"
	"testing"
)

// TestRowsInGroupsBetweenRules: a generated booktabs table (tablegen seed
// 24 in the groups layout, a tune page) whose body rows come in groups of
// two or three between group rules, each group's label centred on its
// rows: every line of values is a row (each group was read as one row of
// two or three lines), and the rule between two groups does not cut the
// table in two.
func TestRowsInGroupsBetweenRules(t *testing.T) {
	doc, ts := detectGenerated(t, 24, "groups")
	rows := truthRows(doc.Tables[0])
	if len(ts) != 1 || len(cellsOf(ts[0])) != rows {
		t.Fatalf("want 1 table of %d rows, got %d: %s", rows, len(ts), dump(ts))
	}
	labels := 0
	for _, r := range cellsOf(ts[0])[1:] {
		if r[0] != "" {
			labels++
		}
	}
	if labels != 3 {
		t.Errorf("%d rows with a group label, want 3 (one a group): %s", labels, dump(ts))
	}
}

// In a table ruled between every column, a band whose lines each hold a
// label and a number in every column (issue-53-example.pdf: "FY2013"
// over "FY2014", their figures level beside them, one ruled cell each)
// is a row per line; a band whose label wraps over a line without values
// stays one row.
func TestLinesOfNumbersInAGridCellAreRows(t *testing.T) {
	xs := []float64{72, 160, 240, 320, 400}
	ys := []float64{100, 120, 146, 166, 192}
	var pg page
	for _, y := range ys {
		pg.Draw = append(pg.Draw, hline(xs[0], xs[4], y))
	}
	for _, x := range xs {
		pg.Draw = append(pg.Draw, vline(x, ys[0], ys[4]))
	}
	line := func(y float64, cells ...string) {
		for j, c := range cells {
			if c != "" {
				pg.Items = append(pg.Items, txt{X: xs[j] + 4, Y: y, Size: 10, S: c})
			}
		}
	}
	line(114, "Year", "Pax", "RPK", "L/F(%)")
	line(132, "FY2013", "7,723,293", "35,390,384", "76.5")
	line(143, "FY2014", "7,793,704", "36,109,588", "75.7")
	line(160, "Apr-2015", "653,278", "2,958,643", "74.9")
	line(178, "Total of the", "2,007,367", "9,358,245", "77.9")
	line(189, "first quarter", "", "", "")
	want := [][]string{
		{"Year", "Pax", "RPK", "L/F(%)"},
		{"FY2013", "7,723,293", "35,390,384", "76.5"},
		{"FY2014", "7,793,704", "36,109,588", "75.7"},
		{"Apr-2015", "653,278", "2,958,643", "74.9"},
		{"Total of the first quarter", "2,007,367", "9,358,245", "77.9"},
	}
	ts := detect(t, pg)
	if len(ts) != 1 || !reflect.DeepEqual(cellsOf(ts[0]), want) {
		t.Errorf("tables %q, want one with %q", tablesCells(ts), want)
	}
}

package table

import (
	"fmt"
	"path/filepath"
	"testing"
)

// A table right under a bar chart keeps the chart's axis labels out: the
// labels under the x axis and left of the y axis are the chart's, though
// they lie outside the box of its rules. The page is the surround set's
// kd-5154 (generator v1, a tune page, Chromium-printed): an SVG bar chart
// (axis values 0..., categories Q2, Q3, Q4, 2021, 2022) right over a 6x3
// table. On main the labels were the table's first two rows.
func TestChartLabelsStayOutOfTheTableUnder(t *testing.T) {
	ts := detectFile(t, filepath.Join("testdata", "surround-5154.pdf"))
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	got := cellsOf(ts[0])
	if len(got) != 6 || fmt.Sprint(got[0]) != fmt.Sprint([]string{"Session", "Speaker", "Time"}) {
		t.Errorf("want 6 rows under the head Session / Speaker / Time: %s", dump(ts))
	}
}

// The y axis's values stand left of the chart's box: a table in the
// column under a chart (kd-5092, a tune page: a chart in the left column
// of two-column text, the table under it) is found without them; with
// the labels under the axis alone counted as the chart's, the values
// left of it broke the table's run and no table was found.
func TestChartValuesLeftOfTheAxisAreTheCharts(t *testing.T) {
	ts := detectFile(t, filepath.Join("testdata", "surround-5092.pdf"))
	want := [][]string{{"Component", "Qty", "Price"}, {"Fuse 10 A", "29", "351.95"}, {"", "38", "258.93"}, {"Bearing 6204", "30", "42.37"}}
	if !hasTable(ts, want) {
		t.Errorf("want a table %q: %s", want, dump(ts))
	}
}

// A chart of three bars has six bar edges and its axis: seven vertical
// rules, under the eight bars() wanted before, so its box was no chart and
// its axis labels ran into the table under it (kd-5048, a tune page: a
// table, a three-bar chart, a table; on main the second table took the
// chart's labels, checked). Six rules are enough with the rest of the
// test (four isolated pieces, half of all, in three bands) unchanged.
func TestThreeBarsAreAChart(t *testing.T) {
	ts := detectFile(t, filepath.Join("testdata", "surround-5048.pdf"))
	want := [][]string{{"Component", "Part no.", "Qty"}, {"Seal kit", "SK-3485", "2"}, {"Washer", "BR-2995", "44"}, {"Hex bolt M8", "DB-6676", "14"}}
	if !hasTable(ts, want) {
		t.Errorf("want a table %q: %s", want, dump(ts))
	}
}

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

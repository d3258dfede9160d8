package table

import (
	"path/filepath"
	"strings"
	"testing"
)

// A table with heads over four rows, and under it, a few points further
// down and set in from the page's text, a second table of three columns
// with no heads (the kinds set's tune page of seed 1154, and a Chromium
// fixture of the same in Liberation Sans): two tables, the lower one's
// rows whole. Before, the kinds page read as one table whose last five
// rows had an empty first cell, and the fixture as none at all.
func TestIndentedSecondTable(t *testing.T) {
	for _, c := range []struct {
		file       string
		upper, low []string // each table's first row
		lowRows    int
	}{
		{"kinds-1154.pdf", []string{"Grade", "Score", "Students", "Share"}, []string{"Vietnam", "Ottawa", "11.7"}, 5},
		{"indenttail-lbs.pdf", []string{"Office", "Visits", "Staff", "Budget"}, []string{"Lisbon", "Portugal", "11.7"}, 5},
	} {
		ts := detectFile(t, filepath.Join("testdata", c.file))
		if len(ts) != 2 {
			t.Errorf("%s: want 2 tables, got %d: %s", c.file, len(ts), dump(ts))
			continue
		}
		up, low := cellsOf(ts[0]), cellsOf(ts[1])
		if !equalRow(up[0], c.upper) || len(up) != 5 {
			t.Errorf("%s: want the upper table %q and 4 rows: %s", c.file, c.upper, dump(ts))
		}
		if len(low) != c.lowRows || !equalRow(low[0], c.low) {
			t.Errorf("%s: want the lower table's %d rows from %q: %s", c.file, c.lowRows, c.low, dump(ts))
		}
	}
}

// One table whose last three rows are sub-rows, their labels indented
// and a few points further down, their last cell empty, and their
// figures set under the upper rows' (Chromium fixture, Liberation Sans):
// the figures line up with the upper rows' columns, so it stays one
// table of seven rows.
func TestIndentedSubRowsStayOneTable(t *testing.T) {
	ts := detectFile(t, filepath.Join("testdata", "indentsub8-lbs.pdf"))
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	got := cellsOf(ts[0])
	if len(got) != 7 || strings.Join(got[4], "|") != "Air|41|52|" {
		t.Errorf("want 7 rows, the fifth Air's: %s", dump(ts))
	}
}

package table

import (
	"path/filepath"
	"testing"
)

// Two zebra tables (every other row shaded) of other widths, one right
// under the other, the upper one's last row unshaded right over the
// lower one's heads, neither bold (the hard set's tune page of seed 3096,
// generator v3, and a Chromium fixture of the same in Liberation Sans):
// the shadings' extent changes there (their right ends at x 202 and 163),
// so they are two tables, each with all its rows. Before, one table was
// read of both, the upper one's last row merged with the lower one's
// heads ("Workshop A Score Students").
func TestStackedZebraTablesOfOtherWidths(t *testing.T) {
	for _, c := range []struct {
		file       string
		upperLast  []string
		lowerFirst []string
	}{
		{"hard-3096.pdf", []string{"Workshop A", "Dr Silva"}, []string{"Score", "Students", "Share"}},
		{"zebrastack-lbs.pdf", []string{"Closing remarks", "Mr Okafor"}, []string{"Grade", "Pupils", "Share"}},
	} {
		ts := detectFile(t, filepath.Join("testdata", c.file))
		if len(ts) != 2 {
			t.Errorf("%s: want 2 tables, got %d: %s", c.file, len(ts), dump(ts))
			continue
		}
		up, low := cellsOf(ts[0]), cellsOf(ts[1])
		if len(up) != 5 || !equalRow(up[4], c.upperLast) || len(low) != 5 || !equalRow(low[0], c.lowerFirst) {
			t.Errorf("%s: want 5 rows each, the upper ending %q, the lower starting %q: %s", c.file, c.upperLast, c.lowerFirst, dump(ts))
		}
	}
}

// One zebra table whose last rows are shaded on their first two cells
// only (a Chromium fixture): the shadings change extent, but the rows
// under the narrower ones reach past them (their third cells), so it
// stays one table of nine rows.
func TestZebraPartShadedStaysOneTable(t *testing.T) {
	ts := detectFile(t, filepath.Join("testdata", "zebrapart-lbs.pdf"))
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	got := cellsOf(ts[0])
	if len(got) != 9 || got[5][0] != "Station yard" || got[8][0] != "South gate" {
		t.Errorf("want 9 rows, Station yard's the sixth: %s", dump(ts))
	}
}

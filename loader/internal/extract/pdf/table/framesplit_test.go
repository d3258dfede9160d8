package table

import (
	"path/filepath"
	"testing"
)

// Two framed tables one right under the other, as a browser prints two
// bordered tables with no margin between them (styles tune kd-7060,
// kd-7034): the upper frame's bottom rule and the lower one's top rule
// touch, or stand a point apart, and the left sides are one line. Each
// is a table of its own: before, one grid was read of both, the lower
// table's text in one cell (border) or the upper table's columns
// merged under the lower one's (grid).
func TestFramedTablesStackedApart(t *testing.T) {
	for _, c := range []struct {
		file   string
		tables [][][]string
	}{
		{"framestack-border.pdf", [][][]string{
			{{"District", "2024", "2023", "Change"}, {"Harbour", "1,204.6", "1,187.2", "1.5"}, {"Old Town", "842.0", "861.9", "-2.3"},
				{"Riverside", "415.3", "398.8", "4.1"}, {"Mill Lane", "127.9", "131.0", "-2.4"}, {"Station Quarter", "968.5", "920.7", "5.2"}},
			{{"Pump", "Hours", "Faults"}, {"North inlet", "7,812", "3"}, {"South inlet", "6,940", "5"}, {"Reservoir", "8,101", "0"},
				{"Booster 2", "2,455", "11"}},
		}},
		{"framestack-grid.pdf", [][][]string{
			{{"Office", "Received", "Decided"}, {"Leeds", "4,215", "3,980"}, {"Bristol", "2,874", "2,901"}, {"Norwich", "1,106", "1,044"},
				{"Carlisle", "658", "612"}, {"Exeter", "1,937", "1,850"}},
			{{"No.", "Finding", "Due"},
				{"1.4", "Visitors sign in at the front desk and wear a badge while on the premises at all times.", "31/03/2027"},
				{"2.1", "Backups of the case files are restored once a quarter to prove that they can be read.", "30/06/2027"},
				{"3.6", "Keys to the archive room are issued against a signature and returned the same day.", "15/01/2027"}},
		}},
	} {
		ts := detectFile(t, filepath.Join("testdata", c.file))
		if len(ts) != len(c.tables) {
			for _, tb := range ts {
				t.Logf("%s: %q", c.file, cellsOf(tb))
			}
			t.Fatalf("%s: %d tables, want %d", c.file, len(ts), len(c.tables))
		}
		for i, want := range c.tables {
			got := cellsOf(ts[i])
			if len(got) != len(want) {
				t.Errorf("%s table %d: rows %q", c.file, i, got)
				continue
			}
			for r := range want {
				if !equalRow(got[r], want[r]) {
					t.Errorf("%s table %d row %d: got %q, want %q", c.file, i, r, got[r], want[r])
				}
			}
		}
	}
}

// A head cell framed over some of the body's columns (its sides on the
// body's column rules) is the table's own: no cut where the frame
// changes there.
func TestFramedHeadOverColumnsStaysOneTable(t *testing.T) {
	// the body: a frame at 50..450 with column rules at 200 and 320; a
	// head box over the two value columns only, 200..450, right on it
	var hs, vs []rule
	for _, y := range []float64{100, 120, 140, 160, 180} {
		hs = append(hs, rule{y, 50, 450})
	}
	hs = append(hs, rule{80, 200, 450})
	vs = append(vs, rule{50, 100, 180}, rule{450, 80, 180}, rule{200, 80, 180}, rule{320, 100, 180})
	gs := splitGrids(grids(mergeRules(hs), mergeRules(vs)))
	if len(gs) != 1 {
		t.Fatalf("%d grids, want 1: %+v", len(gs), gs)
	}
}

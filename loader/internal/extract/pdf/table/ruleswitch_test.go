package table

import (
	"path/filepath"
	"testing"
)

// A statement ruled under each row at the page's width, and right under
// it a register ruled under its bold heads and each entry, narrower,
// its cells wrapped (styles tune kd-7050): no wider gap and no column
// of one right of the other's text parts them, their rules do. Before,
// the register's heads and rows were the statement's last rows, their
// cells run together in its columns.
func TestRuledTablesStackedApartByRules(t *testing.T) {
	ts := detectFile(t, filepath.Join("testdata", "ruleswitch.pdf"))
	want := [][][]string{
		{{"Item", "2025", "2024"}, {"Opening balance", "$ 412,880.10", "$ 390,114.75"},
			{"Transfers from operating surplus", "$ 58,200", "$ 41,950"}, {"Interest earned on deposits", "$ 9,114.62", "$ 7,830.40"},
			{"Drawn for building repairs", "$ (31,407)", "$ (27,015)"}, {"Closing balance", "$ 448,787.72", "$ 412,880.15"}},
		{{"Ref.", "Action", "Budget", "Owner"},
			{"A.3", "Tender the roof works in two lots so that smaller local firms can bid for them.", "120,000", "Estates office with the site manager"},
			{"B.1", "Move the reserve's deposits to the bank offering the best notice rate this year.", "2,500", "Treasurer once the board has agreed"},
			{"C.7", "Report the reserve's balance to every meeting of the committee from now on.", "0", "Finance clerk in every quarter"}},
	}
	if len(ts) != len(want) {
		for _, tb := range ts {
			t.Logf("%q", cellsOf(tb))
		}
		t.Fatalf("%d tables, want %d", len(ts), len(want))
	}
	for i, w := range want {
		got := cellsOf(ts[i])
		if len(got) != len(w) {
			t.Errorf("table %d: rows %q", i, got)
			continue
		}
		for r := range w {
			if !equalRow(got[r], w[r]) {
				t.Errorf("table %d row %d: got %q, want %q", i, r, got[r], w[r])
			}
		}
	}
}

package table

import (
	"path/filepath"
	"testing"
)

// Two tables back to back, no rule and no wider gap between them, the
// second's head line starting with the first's heads (the hard set's
// tune page of seed 3174: "Country Capital" over two rows, then "Country
// Capital Population (m) Area (km²)" over two): the repeated heads start
// a table of their own. Before, one table of six rows was read of both,
// the upper one's rows with two empty cells (its second row one cell).
func TestRepeatedHeadStartsTable(t *testing.T) {
	ts := detectFile(t, filepath.Join("testdata", "hard-3174.pdf"))
	want := [][]string{{"Country", "Capital", "Population (m)", "Area (km²)"}, {"Vietnam", "Lisbon", "47.3", "237,554"},
		{"Finland", "Lisbon", "65.5", "228,437"}}
	found := false
	for _, tb := range ts {
		got := cellsOf(tb)
		t.Logf("%q", got)
		if len(got) != len(want) {
			continue
		}
		same := true
		for r := range want {
			same = same && equalRow(got[r], want[r])
		}
		found = found || same
	}
	if !found {
		t.Errorf("hard-3174: no table %q", want)
	}
}

// The same with tables a head line apart that splitRun already cut
// (Chromium fixtures: the lower table with two more columns, or the same
// two heads again): still two tables, each with its own head.
func TestRepeatedHeadTablesStayTwo(t *testing.T) {
	for _, c := range []struct {
		file  string
		lower []string
	}{
		{"repeathead-lbs.pdf", []string{"District", "Visits", "Cost (£)", "Staff"}},
		{"repeathead-same-djs.pdf", []string{"District", "Visits"}},
	} {
		ts := detectFile(t, filepath.Join("testdata", c.file))
		if len(ts) != 2 {
			t.Errorf("%s: %d tables, want 2", c.file, len(ts))
			continue
		}
		if up := cellsOf(ts[0]); len(up) != 4 || !equalRow(up[0], []string{"District", "Visits"}) {
			t.Errorf("%s: upper table %q", c.file, up)
		}
		if low := cellsOf(ts[1]); len(low) != 4 || !equalRow(low[0], c.lower) {
			t.Errorf("%s: lower table %q", c.file, low)
		}
	}
}

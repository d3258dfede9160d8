package table

import (
	"fmt"
	"path/filepath"
	"testing"
)

// Two tables a rule apart: between the last row of one and the heads of
// the next lie that table's bottom rule and this one's top rule (and a
// page-wide rule between, kd-5090; two booktabs tables stacked, hard
// kd-3072), where a table's own rules stand one to a gap. On main
// (checked) kd-5090 read as one table of both and kd-3072 as none (the
// run of both made no table): now the first table is whole and the
// second is a table of its own.
func TestTwoRulesApartEndATable(t *testing.T) {
	for _, c := range []struct {
		file        string
		first, next []string
	}{
		{"surround-5090.pdf", []string{"Name", "Role", "Extension", "Room"}, []string{"Extension", "Room"}},
		{"hard2-3072.pdf", []string{"Grade", "Score", "Students", "Share"}, nil},
	} {
		ts := detectFile(t, filepath.Join("testdata", c.file))
		if len(ts) != 2 {
			t.Errorf("%s: want 2 tables, got %d: %s", c.file, len(ts), dump(ts))
			continue
		}
		if got := cellsOf(ts[0]); fmt.Sprint(got[0]) != fmt.Sprint(c.first) || len(got) != 6 && c.next != nil || len(got) != 5 && c.next == nil {
			t.Errorf("%s: first table %q", c.file, got)
		}
		if got := cellsOf(ts[1]); c.next != nil && fmt.Sprint(got[0]) != fmt.Sprint(c.next) {
			t.Errorf("%s: second table %q, want heads %q", c.file, got, c.next)
		}
	}
}

// joinSplit joined two unruled tables a rule apart back into one (kd-5172,
// a tune page: "Visitors Events" over four rows, a page-wide rule, then
// "Component Part no."; splitRun had cut them, checked on main): two rules
// apart between them are each table's own, so they stay two.
func TestTwoRulesApartKeepSplitTablesApart(t *testing.T) {
	ts := detectFile(t, filepath.Join("testdata", "surround-5172.pdf"))
	want := [][]string{{"Visitors", "Events"}, {"34,533", "12"}, {"2,998", "71"}, {"73,710", "50"}, {"5,141", "42"}}
	if !hasTable(ts, want) {
		t.Errorf("want a table %q: %s", want, dump(ts))
	}
}

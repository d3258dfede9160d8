package table

import "testing"

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

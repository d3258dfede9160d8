package table

import (
	"path/filepath"
	"testing"
)

// A bold line of one phrase starting where the column heads start, over
// heads with no bold word, is the table's title, not a head row
// (boldTitle). Tune page: surround kd-5018 ("Market period" over
// "Component Part no. Qty Price Comment") took the title in as its first
// row on main (checked).
func TestBoldTitleIsNoHead(t *testing.T) {
	want := [][]string{
		{"Component", "Part no.", "Qty", "Price", "Comment"},
		{"Fuse 10 A", "SK-3095", "3", "252.78", ""},
		{"Hose clamp", "BR-3509", "37", "322.68", ""},
	}
	ts := detectFile(t, filepath.Join("testdata", "surround-5018.pdf"))
	if !hasTable(ts, want) {
		t.Errorf("want a table %q: %s", want, dump(ts))
	}
}

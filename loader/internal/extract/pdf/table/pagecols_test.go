package table

import (
	"fmt"
	"path/filepath"
	"testing"
)

// A page-wide table between two-column body text: the lines of the two
// columns side by side are no table rows, so the table's run starts at
// its head and ends at its last row. The page is the surround set's
// kd-5006 (generator v1, a tune page, Chromium-printed): two-column text
// under a 5x4 table, the same font and leading throughout. Before
// pageColumns the run began in the columns' lines and no table was found.
func TestTableOverTwoColumnText(t *testing.T) {
	ts := detectFile(t, filepath.Join("testdata", "surround-5006.pdf"))
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	want := [][]string{{"Parameter", "Symbol", "Value", "Unit"}, {"Switching frequency", "V", "40.0", ""},
		{"Operating temperature", "I", "239.7", "°C"}, {"Weight", "f", "132.7", "%"}, {"Weight", "L", "77.1", "kHz"}}
	if got := cellsOf(ts[0]); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("want %q: %s", want, dump(ts))
	}
}

// A table in the left column of two-column text keeps the right
// column's lines out, though they share its rows' lines (the surround
// set's kd-5086, a tune page: a caption over the table, the right
// column's paragraph beside it). Before pageColumns the right column's
// text was the table's last column and the caption its first row.
func TestTableInAColumnKeepsTheOtherColumnOut(t *testing.T) {
	ts := detectFile(t, filepath.Join("testdata", "surround-5086.pdf"))
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	want := [][]string{{"Name", "Role", "Extension", "Room", "Notes"}, {"K. Mensah", "Treasurer", "2113", "A-418", "see note 3"},
		{"L. Rossi", "Chair", "6107", "A-402", "see note 3"}}
	if got := cellsOf(ts[0]); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("want %q: %s", want, dump(ts))
	}
}

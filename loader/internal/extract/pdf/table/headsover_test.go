package table

import (
	"path/filepath"
	"slices"
	"testing"
)

// In a table ruled between groups of rows and not under its heads, the
// first band holds the column heads over the first group's rows: the
// heads are a header row and each line under them with a label and a
// number is a row (headsOverRows). Tune pages: kinds kd-1180 and kd-1144
// (its continued part on p153) merged heads and the first group's three
// rows into one row on main (checked).
func TestHeadsOverFirstGroupRows(t *testing.T) {
	for _, c := range []struct {
		file string
		row  []string
	}{
		{"kinds-1180.pdf", []string{"West Midlands", "3190.3", "219,907", "193,395", "1686.5", "57.7", "35.3", "110.9", "201,516", "57.1", "80 492"}},
		{"kinds-1144.pdf", []string{"Lombardy", "138.4", "55.5", "59,790", "229 283", "123,832", "80,710", "6,811", "213 354", "138,621", "92 855", "81 355"}},
	} {
		ts := detectFile(t, filepath.Join("testdata", c.file))
		found := false
		for _, tb := range ts {
			for _, r := range tb.Rows {
				found = found || slices.Equal(r, c.row)
			}
		}
		if !found {
			t.Errorf("%s: want a row %q (heads apart, the group's rows a row each): %s", c.file, c.row, dump(ts))
		}
	}
}

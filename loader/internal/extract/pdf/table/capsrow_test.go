package table

import (
	"path/filepath"
	"testing"
)

// A line that goes on in two or more of the row above's cells, each
// starting capitalised, is a row of its own even when blank cells give it
// fewer or more cells than that row (capitalisedRow). Tune pages: surround
// kd-5168 ("3 October | | Mr Boateng" under "8 October | Poster session |
// Mr Boateng") and kd-5010 ("27 June | Closing | Ms Haddad | 11:30" under
// a row with no time) had those rows merged on main (checked).
func TestCapitalisedLineAfterBlankCellIsARow(t *testing.T) {
	for _, c := range []struct {
		file string
		want [][]string
	}{
		{"surround-5168.pdf", [][]string{
			{"Date", "Session", "Speaker"},
			{"8 October", "Poster session", "Mr Boateng"},
			{"3 October", "", "Mr Boateng"},
			{"23 April", "", "Dr Silva"},
			{"", "Workshop A", "Mr Boateng"},
			{"17 June", "Field report", "Ms Haddad"},
		}},
		{"surround-5010.pdf", [][]string{
			{"Date", "Session", "Speaker", "Time"},
			{"13 November", "Panel discussion", "Ms Kowalska", ""},
			{"27 June", "Closing", "Ms Haddad", "11:30"},
			{"16 April", "Workshop A", "Mr Boateng", "11:45"},
		}},
	} {
		ts := detectFile(t, filepath.Join("testdata", c.file))
		if !hasTable(ts, c.want) {
			t.Errorf("%s: want a table %q: %s", c.file, c.want, dump(ts))
		}
	}
}

package table

import (
	"path/filepath"
	"testing"
)

// A code, a room or a range under another in a column does not wrap
// (codeWord): each is a cell of its own, the row beside a blank cell a
// row of its own. Tune pages: hard kd-3106 ("47–60" with a blank share
// over "52–64 29.4%"), kd-3178 ("WS-9929" beside a blank label under
// "Fuse 10 A | SK-8386") and surround kd-5090 ("E-388" under "3327 |
// C-117") had those rows merged on main (checked).
func TestCodesDoNotWrap(t *testing.T) {
	for _, c := range []struct {
		file string
		want [][]string
	}{
		{"hard2-3106.pdf", [][]string{{"Score", "Share"}, {"47–60", ""}, {"52–64", "29.4%"}, {"81–86", "16.4%"}}},
		{"hard2-3178.pdf", [][]string{{"Fuse 10 A", "SK-8386"}, {"", "WS-9929"}, {"Bearing 6204", "BR-4785"}, {"Hex bolt M8", "BR-7340"}}},
		{"surround-5090.pdf", [][]string{{"Extension", "Room"}, {"3098", "D-266"}, {"3327", "C-117"}, {"", "E-388"}, {"4623", "C-269"}, {"4026", "E-151"}}},
	} {
		ts := detectFile(t, filepath.Join("testdata", c.file))
		if !hasTable(ts, c.want) {
			t.Errorf("%s: want a table %q: %s", c.file, c.want, dump(ts))
		}
	}
}

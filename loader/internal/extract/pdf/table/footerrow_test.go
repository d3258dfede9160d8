package table

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// A table's last row under its last rule (rules between rows, or the
// last shaded row's edge), with the region's last lines under it, is the
// table's row, not the page's footer: it stays inside the run's width in
// the run's size and its phrases stand at the run's columns. The pages
// are tune pages: the hard set's kd-3040 (rules between rows, a
// paragraph under the table at the page's end) and the surround set's
// kd-5078 (zebra rows, notes under the table, in the left column of
// two-column text). On main the last row was left out as a footer.
func TestLastRowOverTheRegionsEndIsNoFooter(t *testing.T) {
	for _, c := range []struct {
		file string
		last []string
		rows int
	}{
		{"hard2-3040.pdf", []string{"51,683", "£182,842"}, 4},
		{"surround-5078.pdf", []string{"Secretary", "4659"}, 5},
	} {
		ts := detectFile(t, filepath.Join("testdata", c.file))
		if len(ts) != 1 {
			t.Errorf("%s: want 1 table, got %d: %s", c.file, len(ts), dump(ts))
			continue
		}
		got := cellsOf(ts[0])
		if len(got) != c.rows || fmt.Sprint(got[len(got)-1]) != fmt.Sprint(c.last) {
			t.Errorf("%s: want %d rows, the last %q: %s", c.file, c.rows, c.last, dump(ts))
		}
	}
}

// A page footer under a rule right under the table whose first line, of
// two parts, lies inside the table's width (its second reaches past)
// stays out of the table: the parts stand at none of the table's column
// edges (a last row under the rule stands at the run's columns).
func TestFooterInsideTheTablesWidth(t *testing.T) {
	pg, want, y := codesPage()
	pg.Draw = append(pg.Draw, hline(60, 480, y+12))
	pg.Items = append(pg.Items, txt{X: 122, Y: y + 24, Size: 9, S: "Ref. DS-4471"}, txt{X: 318, Y: y + 24, Size: 9, S: "Page 7"},
		txt{X: 60, Y: y + 34, Size: 9, S: "Printed 03-2024. Rows with a # are estimates; the key to the codes is on page 2 of this guide."})
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	if d := dump(ts); strings.Contains(d, "Ref. DS-") || len(cellsOf(ts[0])) != len(want) {
		t.Errorf("want %d rows without the footer: %s", len(want), d)
	}
}

// A zebra table's last row, under its last shaded row's edge, shares its
// line with the text of a block beside (another table's notes, a gutter
// away): the row is the table's (lastRowUnder reads the part of the line
// inside the table's extent). The page is the surround set's kd-5182 (a
// tune page): two tables side by side, the right one zebra with notes
// under it, the left one bottom-aligned with a paragraph under it. On
// main the right table was not found.
func TestLastRowBesideAnotherBlock(t *testing.T) {
	ts := detectFile(t, filepath.Join("testdata", "surround-5182.pdf"))
	want := [][]string{{"Date", "Session"}, {"14 March second site", "Panel discussion"}, {"12 April", "Poster session"}}
	for _, tb := range ts {
		if fmt.Sprint(cellsOf(tb)) == fmt.Sprint(want) {
			return
		}
	}
	t.Errorf("want a table %q: %s", want, dump(ts))
}

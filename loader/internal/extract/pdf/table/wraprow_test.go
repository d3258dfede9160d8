package table

import (
	"path/filepath"
	"strings"
	"testing"
)

// A zebra table (every second row shaded) whose first row is unshaded
// and wraps: its first line has both cells' phrases, the two lines under
// it one phrase each, the second cell's next lines (right-aligned under
// "Ms Haddad"), right over the first shading's top edge. The row is the
// table's first, not text over it. The page is the hard set's kd-3096
// (generator v2, a tune page, Chromium-printed).
func TestWrappedRowOverFirstShading(t *testing.T) {
	ts := detectFile(t, filepath.Join("testdata", "hard2-3096.pdf"))
	if len(ts) != 2 {
		t.Fatalf("want 2 tables, got %d: %s", len(ts), dump(ts))
	}
	got := cellsOf(ts[0])
	if len(got) != 5 || strings.Join(got[0], "|") != "Panel discussion|Ms Haddad excl. VAT second site" || got[1][0] != "Opening remarks" {
		t.Errorf("want 5 rows, the first Panel discussion's (its second cell on three lines): %s", dump(ts))
	}
}

// A table ruled under every row but its last, whose last row wraps: its
// first line has both cells' phrases, the two lines under it one phrase
// each, the label's next lines, and the paragraph after runs on past the
// table. The row under the last rule is the table's, all three lines of
// it. The page is the surround set's kd-5102 (generator v1, a tune page,
// Chromium-printed): "Operating temperature / per unit / from stock | 164.0".
func TestWrappedLastRowUnderLastRule(t *testing.T) {
	ts := detectFile(t, filepath.Join("testdata", "surround-5102.pdf"))
	if len(ts) != 2 {
		t.Fatalf("want 2 tables, got %d: %s", len(ts), dump(ts))
	}
	got := cellsOf(ts[1])
	if len(got) != 4 || strings.Join(got[3], "|") != "Operating temperature per unit from stock|164.0" {
		t.Errorf("want 4 rows, the last Operating temperature's on three lines: %s", dump(ts))
	}
}

// A table whose second column is set flush right and wraps: "Ms Haddad",
// then "excl. VAT" and "in reserve" ending under it, one phrase each. The
// two lines are the cell's, so the run of table lines goes on past them
// and keeps the column heads over its first row ("Date Speaker Time" were
// cut off: the run ended at three lines it did not take). The page is the
// hard set's kd-3122 (generator v2, a tune page, Chromium-printed).
func TestRightAlignedWrapKeepsRun(t *testing.T) {
	ts := detectFile(t, filepath.Join("testdata", "hard2-3122.pdf"))
	if len(ts) != 2 {
		t.Fatalf("want 2 tables, got %d: %s", len(ts), dump(ts))
	}
	got := cellsOf(ts[1])
	if len(got) != 5 || strings.Join(got[0], "|") != "Date|Speaker|Time" || strings.Join(got[1], "|") != "26 March|Ms Haddad excl. VAT in reserve|13:15" {
		t.Errorf("want 5 rows, the heads Date, Speaker, Time first: %s", dump(ts))
	}
}

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

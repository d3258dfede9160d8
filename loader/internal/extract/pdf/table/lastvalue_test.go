package table

import (
	"path/filepath"
	"strings"
	"testing"
)

// A table's last row holding one number, its stub cell blank (the stub
// cell above spans it): a lone number under the run, at its leading, flush
// right with the figures over it, is the table's last row, not text under
// it. The page is the hard set's kd-3188 (generator v2, a tune page,
// Chromium-printed): "6599" under "Treasurer from stock ... 4325".
func TestLoneNumberLastRow(t *testing.T) {
	ts := detectFile(t, filepath.Join("testdata", "hard2-3188.pdf"))
	if len(ts) == 0 {
		t.Fatalf("no table")
	}
	got := cellsOf(ts[0])
	if len(got) != 4 || strings.Join(got[3], "|") != "|6599" {
		t.Errorf("want 4 rows, the last a blank stub and 6599: %s", dump(ts))
	}
}

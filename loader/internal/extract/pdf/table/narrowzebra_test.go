package table

import (
	"path/filepath"
	"testing"
)

// A zebra table narrower than eight text sizes (two short columns of
// figures and units, 68pt wide at 9pt): its shading's edges are a stack
// of rules as a wider table's are, and the table is read from them. The
// page is the hard set's kd-3140 (generator v2, a tune page,
// Chromium-printed); the unruled scan cannot take it (its only numbers are
// in the first column, which counts for no numeric column).
func TestNarrowZebraTable(t *testing.T) {
	ts := detectFile(t, filepath.Join("testdata", "hard2-3140.pdf"))
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	got := cellsOf(ts[0])
	if len(got) != 5 || got[0][0] != "Value" || got[4][0] != "364.7" {
		t.Errorf("want 5 rows, Value first, 364.7 last: %s", dump(ts))
	}
}

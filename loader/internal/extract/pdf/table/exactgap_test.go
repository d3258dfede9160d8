package table

import (
	"path/filepath"
	"testing"
)

// A column gap the bins of columns() shave under the phrase gap is
// measured on the phrases themselves (exactGap): codes ending at 80-84pt,
// right-aligned quantities from 88.9pt (head "Qty") leave 5.2pt, over the
// 5pt gap, on every line. Tune page: surround kd-5190 merged "Part no."
// and "Qty" on main (checked).
func TestNarrowGapMeasuredOnPhrases(t *testing.T) {
	want := [][]string{{"Part no.", "Qty", "Price"}, {"RL-8358", "25", "152.40"}, {"SK-2331", "32", "48.68"}, {"WS-1930", "14", "353.70"}}
	ts := detectFile(t, filepath.Join("testdata", "surround-5190.pdf"))
	if !hasTable(ts, want) {
		t.Errorf("want a table %q: %s", want, dump(ts))
	}
}

package table

import (
	"reflect"
	"testing"
)

// A Detector keeps a page's word arrays for the next page: once it has
// seen a page, detecting again allocates fewer objects than a fresh
// Detector does, and finds the same tables.
func TestDetectorReusesItsWordArrays(t *testing.T) {
	xs := []float64{72, 200, 330, 460}
	ys := []float64{100, 120, 140, 160}
	cells := [][]string{{"Name", "Count", "Share"}, {"alpha", "12", "0.4"}, {"beta", "7", "0.6"}}
	lay := firstLayout(t, writePDF(t, []page{ruledPage(xs, ys, cells, false)}))
	want := New().DetectTables(lay)
	if len(want) != 1 {
		t.Fatalf("%d tables, want 1", len(want))
	}
	fresh := testing.AllocsPerRun(20, func() { New().DetectTables(lay) })
	det := New()
	det.DetectTables(lay)
	again := testing.AllocsPerRun(20, func() { det.DetectTables(lay) })
	// words() allocates two arrays a page.
	if fresh-again < 2 {
		t.Errorf("a Detector's next page allocates %.0f objects, a fresh Detector's %.0f: the word arrays are allocated again", again, fresh)
	}
	if got := det.DetectTables(lay); len(got) != 1 || !reflect.DeepEqual(cellsOf(got[0]), cellsOf(want[0])) {
		t.Errorf("reused: %v, want %v", got, want)
	}
}

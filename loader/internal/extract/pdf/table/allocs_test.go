package table

import (
	"fmt"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestLineUpAllocations: lineUp's allocations do not grow with the
// number of lines (it runs several times per page of table detection).
// 60 lines of 3 words each: the lines are one array, not 60 objects.
func TestLineUpAllocations(t *testing.T) {
	var ws []*word
	for i := 0; i < 60; i++ {
		y := 20 + 14*float64(i)
		for j := 0; j < 3; j++ {
			x := 50 + 120*float64(j)
			ws = append(ws, &word{bb: document.BBox{X0: x, Y0: y, X1: x + 40, Y1: y + 10}, text: fmt.Sprint(i*3 + j), size: 10})
		}
	}
	lines := lineUp(ws)
	if len(lines) != 60 {
		t.Fatalf("%d lines, want 60", len(lines))
	}
	for i, l := range lines {
		if len(l.ws) != 3 || l.ws[0].text != fmt.Sprint(i*3) || l.ws[2].text != fmt.Sprint(i*3+2) {
			t.Fatalf("line %d: %d words", i, len(l.ws))
		}
	}
	if n := testing.AllocsPerRun(20, func() { lineUp(ws) }); n > 15 {
		t.Errorf("lineUp of 60 lines: %.0f allocations, want at most 15 (not one a line)", n)
	}
}

// TestMedianAllocations: the median of a few values is taken without
// allocating (median and medianSize run per region and per candidate).
func TestMedianAllocations(t *testing.T) {
	xs := []float64{9, 3, 7, 1, 5}
	ws := []*word{{size: 9}, {size: 3}, {size: 7}, {size: 1}, {size: 5}}
	if m, s := median(xs), medianSize(ws); m != 5 || s != 5 {
		t.Fatalf("median %v, medianSize %v, want 5 and 5", m, s)
	}
	if xs[0] != 9 || xs[4] != 5 {
		t.Fatalf("median sorted its argument: %v", xs)
	}
	if n := testing.AllocsPerRun(20, func() { median(xs); medianSize(ws) }); n != 0 {
		t.Errorf("median and medianSize of 5 values: %.0f allocations, want 0", n)
	}
}

package table

import (
	"fmt"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// labelGrid is a grid of rows 12pt apart, a label column and two of
// numbers: labels[i] is row i's label (words split on spaces, 9pt),
// each number cell one word.
func labelGrid(labels [][]string) (unionFind, []sep, []sep, []*word) {
	var ws []*word
	xs := []sep{{40, false}, {150, false}, {220, false}, {290, false}}
	ys := []sep{{100, false}}
	for i, lb := range labels {
		y := 100 + 12*float64(i) + 1
		x := 42.0
		for _, t := range lb {
			wd := 4.6 * float64(len(t))
			ws = append(ws, &word{bb: document.BBox{X0: x, Y0: y, X1: x + wd, Y1: y + 10.47}, text: t, size: 9})
			x += wd + 2.5
		}
		for c, x := range []float64{160, 230} {
			t := fmt.Sprint(10*i + c)
			ws = append(ws, &word{bb: document.BBox{X0: x, Y0: y, X1: x + 9.2, Y1: y + 10.47}, text: t, size: 9})
		}
		ys = append(ys, sep{100 + 12*float64(i+1), false})
	}
	return newUnionFind((len(ys) - 1) * (len(xs) - 1)), xs, ys, ws
}

// TestLabelSpansLinesUpOnlyLowerStarts: labelSpans joins a label with
// the next row's first cell when that cell is its wrapped last line
// (lower-case, at its left edge, a leading under it), and not when the
// cell starts capitalised; a grid of capitalised labels is answered
// without lining up any cell (its own arrays only: 26 allocations for
// 12 rows, where lining up two cells a row made 92).
func TestLabelSpansLinesUpOnlyLowerStarts(t *testing.T) {
	cells, xs, ys, ws := labelGrid([][]string{{"Chronic", "fatigue"}, {"syndrome"}, {"Asthma"}, {"Other", "causes"}})
	labelSpans(cells, xs, ys, ws)
	nc := len(xs) - 1
	if cells.find(1*nc) != 0 {
		t.Error(`"syndrome" under "Chronic fatigue": not joined with it`)
	}
	if cells.find(2*nc) != 2*nc || cells.find(3*nc) != 3*nc {
		t.Error(`"Asthma" or "Other causes": joined with the label above`)
	}

	var labels [][]string
	for i := 0; i < 12; i++ {
		labels = append(labels, []string{"Region", fmt.Sprintf("R%d", i)})
	}
	cells, xs, ys, ws = labelGrid(labels)
	allocs := testing.AllocsPerRun(10, func() { labelSpans(cells, xs, ys, ws) })
	if allocs >= 3*float64(len(labels)) {
		t.Errorf("labelSpans over 12 capitalised labels: %.0f allocations, want under %d (no cell lined up)", allocs, 3*len(labels))
	}
}

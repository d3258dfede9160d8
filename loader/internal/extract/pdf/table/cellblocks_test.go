package table

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestCellBlocks: the predicate that keeps a wrapped first column in its
// table (besideParagraph would cut it as a paragraph running beside):
// blocks of the column's lines apart by more than its leading, each
// starting level with a row's short cells, are cells; the same text
// flowing at one leading beside the short cells is a paragraph; a row
// with short cells and nothing in the column is no such table.
func TestCellBlocks(t *testing.T) {
	// a line at y: column text from x 72 (words of 40pt, up to x 332), short cells
	// from x 400 when cells is set
	line := func(y float64, text string, cells bool) []*word {
		var ws []*word
		x := 72.0
		for _, s := range strings.Fields(text) {
			ws = append(ws, &word{bb: document.BBox{X0: x, Y0: y, X1: x + 40, Y1: y + 10}, text: s, size: 10})
			x += 44
		}
		if cells {
			ws = append(ws, &word{bb: document.BBox{X0: 400, Y0: y, X1: 420, Y1: y + 10}, text: "2.1", size: 10},
				&word{bb: document.BBox{X0: 450, Y0: y, X1: 480, Y1: y + 10}, text: "Open", size: 10})
		}
		return ws
	}
	inPara := func(w *word) bool { return w.bb.X1 < 390 }
	build := func(rows [][2]float64, leading, rowGap float64, emptyRow bool) []*textLine {
		var ws []*word
		y := 100.0
		for i, r := range rows {
			n := int(r[0])
			if emptyRow && i == 1 {
				ws = append(ws, line(y, "", true)...)
				y += leading + rowGap
				continue
			}
			for k := 0; k < n; k++ {
				ws = append(ws, line(y, "records are kept five years", k == 0)...)
				y += leading
			}
			y += rowGap
		}
		return lineUp(ws)
	}
	rows := [][2]float64{{2}, {3}, {2}, {2}}
	if !cellBlocks(build(rows, 12, 10, false), inPara) {
		t.Error("rows of wrapped cells apart by more than the leading: want cells")
	}
	if cellBlocks(build(rows, 12, 0, false), inPara) {
		t.Error("the same text at one leading: want a paragraph, not cells")
	}
	if cellBlocks(build(rows, 12, 10, true), inPara) {
		t.Error("a row with nothing in the wrapped column: want no cells")
	}
}

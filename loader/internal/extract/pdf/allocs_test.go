package pdf

import (
	"fmt"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestParagraphSplitAllocations: splitting a block into paragraphs and
// paragraphs into bands and columns allocates per call, not per
// paragraph, band or column (the pieces are runs of one array).
func TestParagraphSplitAllocations(t *testing.T) {
	var lines []Line
	y := 50.0
	for p := 0; p < 20; p++ {
		for k := 0; k < 3; k++ {
			text := fmt.Sprintf("paragraph %d goes on with line %d of its text", p, k)
			if k == 2 {
				text = fmt.Sprintf("and paragraph %d ends here.", p)
			}
			lines = append(lines, Line{Text: text, BBox: document.BBox{X0: 72, Y0: y, X1: 500, Y1: y + 10},
				FontSize: 10, Dir: [2]float64{1, 0}, RealChars: len(text)})
			y += 12
		}
		y += 20
	}
	paras := splitParas(lines)
	if len(paras) != 20 {
		t.Fatalf("%d paragraphs, want 20", len(paras))
	}
	for i, p := range paras {
		if len(p) != 3 || p[0].Text != lines[3*i].Text {
			t.Fatalf("paragraph %d: %d lines", i, len(p))
		}
	}
	if n := testing.AllocsPerRun(10, func() { splitParas(lines) }); n > 20 {
		t.Errorf("splitParas into 20 paragraphs: %.0f allocations, want at most 20", n)
	}

	var ps []*para
	for i := 0; i < 40; i++ {
		x, y := 72+260*float64(i%2), 50+30*float64(i/2)
		ps = append(ps, &para{bbox: document.BBox{X0: x, Y0: y, X1: x + 200, Y1: y + 20}, seq: i})
	}
	if bands, cols := splitY(ps), splitX(ps, minGutter); len(bands) != 20 || len(cols) != 2 {
		t.Fatalf("%d bands, %d columns, want 20 and 2", len(bands), len(cols))
	}
	if n := testing.AllocsPerRun(10, func() { splitY(ps); splitX(ps, minGutter) }); n > 12 {
		t.Errorf("splitY into 20 bands and splitX into 2 columns: %.0f allocations, want at most 12", n)
	}
}

// TestGroupBandsAllocations: bands of one paragraph (a page of running
// text in one column) are grouped without allocating per band: no gutter
// to look for, and each group is a run of the bands.
func TestGroupBandsAllocations(t *testing.T) {
	var bands [][]*para
	for i := 0; i < 20; i++ {
		y := 50 + 30*float64(i)
		bands = append(bands, []*para{{bbox: document.BBox{X0: 72, Y0: y, X1: 500, Y1: y + 20}, seq: i, lines: make([]Line, 2)}})
	}
	gs := groupBands(bands)
	if len(gs) != 20 {
		t.Fatalf("%d groups, want 20", len(gs))
	}
	for i, g := range gs {
		if len(g) != 1 || len(g[0]) != 1 || g[0][0] != bands[i][0] {
			t.Fatalf("group %d: %d bands", i, len(g))
		}
	}
	if n := testing.AllocsPerRun(10, func() { groupBands(bands) }); n > 8 {
		t.Errorf("groupBands of 20 one-paragraph bands: %.0f allocations, want at most 8", n)
	}
}

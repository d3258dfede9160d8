package pdf

import (
	"fmt"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf/pdftest"
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

// TestNewParaAllocations: a paragraph's text is its one line's text (no
// copy), or the lines joined in a builder sized once.
func TestNewParaAllocations(t *testing.T) {
	line := func(s string) Line {
		return Line{Text: s, BBox: document.BBox{X0: 72, Y0: 50, X1: 500, Y1: 60}, FontSize: 10, RealChars: len(s)}
	}
	one := []Line{line("  A heading of its own ")}
	three := []Line{line("The first line of a paragraph that is ef-"), line("ficient, and its second line,"), line("and its last one.")}
	if p := newPara(one, 0); p.text != "A heading of its own" {
		t.Fatalf("one line: %q", p.text)
	}
	if p := newPara(three, 0); p.text != "The first line of a paragraph that is efficient, and its second line, and its last one." {
		t.Fatalf("three lines: %q", p.text)
	}
	if n := testing.AllocsPerRun(20, func() { newPara(one, 0) }); n > 1 {
		t.Errorf("a one-line paragraph: %.0f allocations, want 1 (the para)", n)
	}
	if n := testing.AllocsPerRun(20, func() { newPara(three, 0) }); n > 2 {
		t.Errorf("a three-line paragraph: %.0f allocations, want at most 2 (the para, its text)", n)
	}
}

// TestPageLineTextsAllocations: a page's line texts are views of one
// array per page, not a string per line: a page of 55 lines costs
// PageWith hardly more allocations than one of 15.
func TestPageLineTextsAllocations(t *testing.T) {
	allocs := func(n int) float64 {
		var lines []string
		for i := 0; i < n; i++ {
			lines = append(lines, fmt.Sprintf("Line %d of the page, in words", i))
		}
		d, err := Open(pdftest.Write(t, []pdftest.Page{{Items: pdftest.Column(72, 40, lines...)}}))
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		lay, err := d.PageWith(1, Words, false)
		if err != nil {
			t.Fatal(err)
		}
		got := 0
		for _, b := range lay.Blocks {
			for _, l := range b.Lines {
				if l.Text != fmt.Sprintf("Line %d of the page, in words", got) || l.Words[0].Text != "Line" {
					t.Fatalf("line %d: %q", got, l.Text)
				}
				got++
			}
		}
		if got != n {
			t.Fatalf("%d lines, want %d", got, n)
		}
		return testing.AllocsPerRun(5, func() { d.PageWith(1, Words, false) })
	}
	few, many := allocs(15), allocs(55)
	if many-few > 20 {
		t.Errorf("PageWith: %.0f allocations for 15 lines, %.0f for 55: %.0f more, want at most 20", few, many, many-few)
	}
}

package table

import (
	"fmt"
	"math"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// gridWords is rows lines of cols words each, 14 points and 120 points
// apart, numbered left to right and top to bottom from 0.
func gridWords(rows, cols int) []*word {
	var ws []*word
	for i := 0; i < rows; i++ {
		y := 20 + 14*float64(i)
		for j := 0; j < cols; j++ {
			x := 50 + 120*float64(j)
			ws = append(ws, &word{bb: document.BBox{X0: x, Y0: y, X1: x + 40, Y1: y + 10}, text: fmt.Sprint(i*cols + j), size: 10})
		}
	}
	return ws
}

// TestLineUpAllocations: lineUp's allocations do not grow with the
// number of lines (it runs several times per page of table detection).
// 60 lines of 3 words each: the lines are one array, not 60 objects.
func TestLineUpAllocations(t *testing.T) {
	ws := gridWords(60, 3)
	lines := lineUp(ws)
	if len(lines) != 60 {
		t.Fatalf("%d lines, want 60", len(lines))
	}
	for i, l := range lines {
		if len(l.ws) != 3 || l.ws[0].text != fmt.Sprint(i*3) || l.ws[2].text != fmt.Sprint(i*3+2) {
			t.Fatalf("line %d: %d words", i, len(l.ws))
		}
	}
	if n := testing.AllocsPerRun(20, func() { lineUp(ws) }); n > 3 {
		t.Errorf("lineUp of 60 lines: %.0f allocations, want at most 3 (the lines, their pointers, their words: not one a line, nor its temporaries)", n)
	}
}

// TestColumnsInAllocations: columnsIn's histogram and the lines'
// phrases it reads are not allocated per call and per line (it runs for
// every candidate region of a page): 30 lines of 4 phrases take what its
// answer needs, not one allocation a line.
func TestColumnsInAllocations(t *testing.T) {
	lines := lineUp(gridWords(30, 4))
	cols := columnsIn(lines, 10, true)
	if want := "[{50 90.5} {170 210.5} {290 330.5} {410 450}]"; fmt.Sprint(cols) != want {
		t.Fatalf("columns %v, want %s", cols, want)
	}
	if n := testing.AllocsPerRun(20, func() { columnsIn(lines, 10, true) }); n > 4 {
		t.Errorf("columnsIn of 30 lines: %.0f allocations, want at most 4", n)
	}
}

// TestMedianAllocations: the median of a page's font sizes (hundreds of
// words, a few sizes) is taken without allocating (median and medianSize
// run per region and per candidate), and is what sorting gives, zeros,
// NaNs and many distinct values included.
func TestMedianAllocations(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	pick := [][]float64{{10}, {9, 10, 12}, {0, 10, 12}, {math.NaN(), 8, 10}, {math.Copysign(0, -1), 0, 7}}
	for round := 0; round < 2000; round++ {
		n := 1 + rng.Intn(300)
		xs := make([]float64, n)
		ws := make([]*word, n)
		vals := pick[rng.Intn(len(pick))]
		for i := range xs {
			if round%5 == 4 {
				xs[i] = float64(rng.Intn(40)) / 2 // many distinct values
			} else {
				xs[i] = vals[rng.Intn(len(vals))]
			}
			ws[i] = &word{size: xs[i]}
		}
		s := append([]float64(nil), xs...)
		sort.Float64s(s)
		want := s[n/2]
		// the same bits (NaN included); of two zeros the sort picks one
		same := func(v float64) bool { return math.Float64bits(v) == math.Float64bits(want) || v == 0 && want == 0 }
		if m, ms := median(xs), medianSize(ws); !same(m) || !same(ms) {
			t.Fatalf("round %d: median %v, medianSize %v, want %v", round, m, ms, want)
		}
	}
	xs := make([]float64, 300)
	ws := make([]*word, 300)
	for i := range xs {
		xs[i] = []float64{9, 10, 10, 12}[i%4]
		ws[i] = &word{size: xs[i]}
	}
	if m, s := median(xs), medianSize(ws); m != 10 || s != 10 {
		t.Fatalf("median %v, medianSize %v, want 10 and 10", m, s)
	}
	if xs[0] != 9 || xs[3] != 12 {
		t.Fatalf("median sorted its argument")
	}
	if n := testing.AllocsPerRun(20, func() { median(xs); medianSize(ws) }); n != 0 {
		t.Errorf("median and medianSize of 300 values: %.0f allocations, want 0", n)
	}
}

// TestStackedWithoutRulesIsFree: with no horizontal rule there is no
// stack of rules, so stacked returns at once (it took the free words and
// their median font size first).
func TestStackedWithoutRulesIsFree(t *testing.T) {
	var ws []*word
	for i := 0; i < 30; i++ {
		y := 20 + 14*float64(i)
		ws = append(ws, &word{bb: document.BBox{X0: 50, Y0: y, X1: 90, Y1: y + 10}, text: fmt.Sprint(i), size: 10})
	}
	d := New()
	if ts := d.stacked(ws, nil, nil); len(ts) != 0 {
		t.Fatalf("%d tables without rules", len(ts))
	}
	if n := testing.AllocsPerRun(20, func() { d.stacked(ws, nil, nil) }); n != 0 {
		t.Errorf("stacked without rules: %.0f allocations, want 0", n)
	}
}

// TestCellChecksWithoutRegexps: a cell with no digit is not a number and
// one that starts with a letter other than n or x is no placeholder,
// decided before the regular expressions (and the copies they need:
// the lower-cased cell, the cell less its footnote mark).
func TestCellChecksWithoutRegexps(t *testing.T) {
	for _, c := range []struct {
		s           string
		num, holder bool
	}{
		{"12.3 (p)", true, false}, {"$761(1)", true, false}, {"(4.7)", true, false}, {"(note)", false, false},
		{"n/a", false, true}, {"N/A", false, true}, {"--", false, true}, {"(X)", false, true}, {" x ", false, true},
		{"Total Revenue", false, false}, {"", false, false}, {"(ab)", false, false},
	} {
		if numeric(c.s) != c.num || placeholder(c.s) != c.holder {
			t.Errorf("%q: numeric %v, placeholder %v, want %v and %v", c.s, numeric(c.s), placeholder(c.s), c.num, c.holder)
		}
	}
	if n := testing.AllocsPerRun(20, func() { numeric("(note)"); placeholder("Total Revenue") }); n != 0 {
		t.Errorf("numeric and placeholder of text cells: %.0f allocations, want 0", n)
	}
}

// TestCellsOfAllocations: a line's cells are runs of its words, not a
// slice grown per cell (cellsOf runs for every line of every candidate).
func TestCellsOfAllocations(t *testing.T) {
	l := &textLine{}
	for i := 0; i < 12; i++ {
		x := 50 + 30*float64(i) + 100*float64(i/4) // 3 columns of 4 words
		l.ws = append(l.ws, &word{bb: document.BBox{X0: x, Y0: 100, X1: x + 25, Y1: 110}, text: fmt.Sprint(i), size: 10})
	}
	c := &columnStats{xs: []sep{{0, true}, {200, false}, {400, false}, {800, true}}}
	lcs := c.cellsOf(l)
	if len(lcs) != 3 {
		t.Fatalf("%d cells, want 3", len(lcs))
	}
	for k, lc := range lcs {
		if lc.col != k || len(lc.ws) != 4 || lc.ws[0] != l.ws[4*k] || lc.ws[3] != l.ws[4*k+3] {
			t.Fatalf("cell %d: column %d, %d words", k, lc.col, len(lc.ws))
		}
	}
	if n := testing.AllocsPerRun(20, func() { c.cellsOf(l) }); n > 3 {
		t.Errorf("cellsOf a line of 3 cells: %.0f allocations, want at most 3", n)
	}
}

// TestGutterBesideNumbersIsFree: a gutter with numbers only on one side
// (between a table's label column and its columns of figures) cannot
// split the lines into two worded blocks, and splitOnGutter says so
// without lining up either side; a gutter with words on both sides is
// still tried (and split).
func TestGutterBesideNumbersIsFree(t *testing.T) {
	lines := func(right func(i int) string) []*textLine {
		var ws []*word
		for i := 0; i < 8; i++ {
			y := 20 + 14*float64(i)
			ws = append(ws, &word{bb: document.BBox{X0: 50, Y0: y, X1: 110, Y1: y + 10}, text: fmt.Sprintf("Region%c", 'A'+i), size: 10},
				&word{bb: document.BBox{X0: 300, Y0: y, X1: 340, Y1: y + 10}, text: right(i), size: 10})
		}
		return lineUp(ws)
	}
	gs := []gutter{{span{110, 300}, 8}}
	nums := lines(func(i int) string { return fmt.Sprint(100 + 7*i) })
	if l, r, _ := splitOnGutter(nums, 0, gs, nil, 10, 9); l != nil || r != nil {
		t.Fatalf("numbers beside labels split into blocks: %d and %d lines", len(l), len(r))
	}
	if n := testing.AllocsPerRun(20, func() { splitOnGutter(nums, 0, gs, nil, 10, 9) }); n != 0 {
		t.Errorf("a gutter beside numbers only: %.0f allocations, want 0 (its sides are not lined up)", n)
	}
	words := lines(func(i int) string { return fmt.Sprintf("note%c", 'a'+i) })
	if n := testing.AllocsPerRun(5, func() { splitOnGutter(words, 0, gs, nil, 10, 9) }); n == 0 {
		t.Errorf("a gutter with words both sides was not tried")
	}
}

// TestBuildGridAllocations: buildGrid files the words by cell in one
// array and the cells' texts in another, and takes each line's phrase
// boxes from one array, instead of a slice per cell, per row and two
// per line (it runs for every candidate table, kept or not). 30 rows
// of 4 columns; the cells' texts are what they were.
func TestBuildGridAllocations(t *testing.T) {
	var ws []*word
	for i := 0; i < 30; i++ {
		y := 20 + 14*float64(i)
		for j, s := range []string{fmt.Sprintf("Item %d", i), fmt.Sprint(100 + i), fmt.Sprint(7 * i), "n/a"} {
			x := 50 + 120*float64(j)
			for k, part := range strings.Fields(s) {
				ws = append(ws, &word{bb: document.BBox{X0: x + 32*float64(k), Y0: y, X1: x + 32*float64(k) + 28, Y1: y + 10}, text: part, size: 10})
			}
		}
	}
	box := document.BBox{X0: 40, Y0: 10, X1: 560, Y1: 460}
	l := buildGrid(box, ws, nil, nil)
	if len(l.rows) != 30 || len(l.rows[0]) != 4 || l.rows[7][0] != "Item 7" || l.rows[29][2] != "203" || l.rows[3][3] != "n/a" {
		t.Fatalf("grid: %d rows, first %q, 8th %q", len(l.rows), l.rows[0], l.rows[7])
	}
	n := testing.AllocsPerRun(10, func() { buildGrid(box, ws, nil, nil) })
	t.Logf("buildGrid of 30 x 4 cells: %.0f allocations", n)
	if n > 1000 {
		t.Errorf("buildGrid of 30 x 4 cells: %.0f allocations, want at most 1000", n)
	}
}

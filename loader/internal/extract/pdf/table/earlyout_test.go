package table

import (
	"fmt"
	"math"
	"math/rand"
	"path/filepath"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
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

// TestBesideBlockPassesLinesApart: besideBlock, passing the lines whose
// words all stand over or under a block (lineTops), answers as it does
// looking at every line's phrases (every line's tops -Inf..+Inf, which
// it never passes), for every block of running text of generated pages
// (prose in one and two columns, tables under prose) and of the
// corpus's pages (the first 40 of each PDF), in both modes; and it
// passes most lines (the saving: their phrases are not cut out).
func TestBesideBlockPassesLinesApart(t *testing.T) {
	blocks, passed, lines := 0, 0, 0
	check := func(where string, ls []*textLine, gap float64) {
		t.Helper()
		tops := lineTops(ls)
		all := make([]lineTop, len(ls))
		for i := range all {
			all[i] = lineTop{math.Inf(-1), math.Inf(1)}
		}
		for _, b := range leadingBlocks(ls, gap) {
			blocks++
			for _, outOfStep := range []bool{true, false} {
				if got, want := besideBlock(ls, tops, b, gap, outOfStep), besideBlock(ls, all, b, gap, outOfStep); got != want {
					t.Errorf("%s: block at %.1f (%d phrases), outOfStep %v: %v, looking at every line %v", where, boxOf(b[0]).Y0, len(b), outOfStep, got, want)
				}
			}
			q := 0.25 * b[0][0].size
			first, last := boxOf(b[0]).Y0, boxOf(b[len(b)-1]).Y0
			for _, tp := range tops {
				lines++
				if tp.least >= last+q || tp.most <= first-q {
					passed++
				}
			}
		}
	}
	rng := rand.New(rand.NewSource(44))
	for round := 0; round < 30; round++ {
		var ps []phraseAt
		if round%3 == 2 {
			ps = leadPage(rng, round%2 == 0)
		} else {
			ps = proseColumns(rng, 10+rng.Intn(50), round%3 == 1)
		}
		ls, gap := pageLines(chromiumLayout(ps))
		check(fmt.Sprintf("generated page %d", round), ls, gap)
	}
	if blocks < 50 || 2*passed < lines {
		t.Fatalf("generated pages: %d blocks, %d of %d lines passed: want 50 blocks or more, most lines passed", blocks, passed, lines)
	}

	// a line with a word whose top is not a number is never passed
	if tp := lineTops([]*textLine{{ws: []*word{{bb: document.BBox{Y0: math.NaN()}}, {bb: document.BBox{Y0: 500}}}}}); !math.IsInf(tp[0].least, -1) || !math.IsInf(tp[0].most, 1) {
		t.Errorf("a line with a NaN top: tops %v, want -Inf..+Inf", tp[0])
	}

	files := corpusPDFs()
	if len(files) == 0 {
		t.Log("corpus not found: generated pages only")
		return
	}
	blocks, passed, lines = 0, 0, 0
	for _, f := range files {
		doc, err := pdf.Open(f)
		if err != nil {
			continue
		}
		for i := 1; i <= doc.NumPages() && i <= 40; i++ {
			lay, err := doc.PageWith(i, pdf.Words, true)
			if err != nil || lay == nil {
				continue
			}
			ls, gap := pageLines(lay)
			check(fmt.Sprintf("%s page %d", filepath.Base(f), i), ls, gap)
		}
		doc.Close()
	}
	t.Logf("corpus: %d blocks, %d of %d lines passed", blocks, passed, lines)
	if blocks < 1000 {
		t.Errorf("corpus: %d blocks, want 1,000 or more", blocks)
	}
}

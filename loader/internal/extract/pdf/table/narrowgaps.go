package table

import (
	"math"
	"slices"
)

// narrowGaps marks the columns of a small table set in a condensed font:
// a browser sets a table's columns a padding apart whatever the font, and
// a condensed font's word space is small (2.3-3.2pt at 10-12pt), so its
// columns may stand 5-6pt apart, under the grid's gap (0.55 of a size),
// and read as one phrase ("Closing Ms Kowalska" over "Workshop A Dr
// Weber"; right-aligned text columns, no column of starts for
// markColumnStarts to see). A stretch of whitespace free over every line
// of a table of eight lines or fewer, at least 1.8 times the lines' word
// space wide (the median gap between their words under the grid's gap,
// three such gaps at least), with a column on each side (words between it
// and the next such stretch on every line but one: an empty cell) and a
// word ending or starting within 1.8 word spaces of it on two lines at
// least (a head's word space over an empty stretch of the body, "Rain
// (mm)" over "31" and "4", is one line's) is a column gap: the first word
// after it on each line starts a phrase and a column (col), the words
// starting at its end are marked edge for columnsIn, which takes a gutter
// narrower than the gap ending at a column's start. A word space inside a
// cell is no such stretch: the next line's words cover it.
//
// The marks hold for the grid only: undo puts the words' marks back.
func narrowGaps(lines []*textLine, gap float64) (undo func()) {
	if len(lines) < 3 || len(lines) > 8 {
		return func() {}
	}
	var gaps []float64
	x0, x1 := math.Inf(1), math.Inf(-1)
	for _, l := range lines {
		for k, w := range l.ws {
			x0, x1 = min(x0, w.bb.X0), max(x1, w.bb.X1)
			if k > 0 {
				if g := w.bb.X0 - l.ws[k-1].bb.X1; g > 0 && g < gap {
					gaps = append(gaps, g)
				}
			}
		}
	}
	if len(gaps) < 3 {
		return func() {}
	}
	slices.Sort(gaps)
	space := gaps[len(gaps)/2]
	// free runs over every line's words, 0.1pt bins
	const res = 0.1
	n := int((x1-x0)/res) + 1
	taken := make([]bool, n)
	for _, l := range lines {
		for _, w := range l.ws {
			for k := max(0, int((w.bb.X0-x0)/res)); k < n && x0+float64(k)*res < w.bb.X1; k++ {
				taken[k] = true
			}
		}
	}
	// the runs 1.8 word spaces wide or more, in order
	var runs []span
	for k := 0; k < n; {
		if taken[k] {
			k++
			continue
		}
		e := k
		for e < n && !taken[e] {
			e++
		}
		if a, b := x0+float64(k)*res, x0+float64(e)*res; b-a >= 1.8*space && k > 0 && e < n {
			runs = append(runs, span{a, b})
		}
		k = e
	}
	// lines with a word between x and y
	holding := func(x, y float64) int {
		c := 0
		for _, l := range lines {
			if slices.ContainsFunc(l.ws, func(w *word) bool { return w.bb.X0 >= x-res && w.bb.X1 <= y+res }) {
				c++
			}
		}
		return c
	}
	type mark struct {
		w         *word
		col, edge bool
	}
	var marks []mark
	for i, r := range runs {
		if r.b-r.a >= gap {
			continue
		}
		// a column on each side: words between it and the runs
		// beside it on every line but one (an empty cell)
		left, right := x0, x1
		if i > 0 {
			left = runs[i-1].b
		}
		if i+1 < len(runs) {
			right = runs[i+1].a
		}
		if need := max(3, len(lines)-1); holding(left, r.a) < need || holding(r.b, right) < need {
			continue
		}
		// its edges are cells' edges: on two lines at least a word
		// ends or starts within 1.8 word spaces of it (a head's word
		// space over an empty stretch is one line's)
		var after []*word
		tight := 0
		for _, l := range lines {
			k := slices.IndexFunc(l.ws, func(w *word) bool { return w.bb.X0 >= r.b-res })
			if k > 0 {
				after = append(after, l.ws[k])
				if l.ws[k].bb.X0 <= r.b+1.8*space || l.ws[k-1].bb.X1 >= r.a-1.8*space {
					tight++
				}
			}
		}
		if tight < 2 {
			continue
		}
		first := math.Inf(1)
		for _, w := range after {
			first = min(first, w.bb.X0)
		}
		for _, w := range after {
			marks = append(marks, mark{w, w.col, w.edge})
			w.col = true
			w.edge = w.edge || w.bb.X0-first <= 0.3
		}
	}
	return func() {
		for _, m := range slices.Backward(marks) {
			m.w.col, m.w.edge = m.col, m.edge
		}
	}
}

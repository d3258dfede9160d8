package table

import (
	"math"

	"github.com/docket-dev/docket/loader/internal/document"
)

// headCells splits a grid's head line where its cells touch: a browser
// sets a table's columns as wide as their widest cells, a padding and
// the border spacing apart (3pt in print with its default CSS), so two
// heads wider than the values under them stand 3pt apart, no farther
// than a word space and often closer, and read as one phrase across the
// body's column gap ("Share of total expenditure Estimated cost of the
// measure" over "168.0" and "44.0"). The column shows in the body: three
// lines or more under the head line (one of the grid's first three) have
// a phrase starting at one x (a column set flush left) or ending at one x
// (set flush right), within 0.3pt. Where a word of the head line starts
// at such a start, or the word before it ends at such an end, and no
// line's phrase covers the space between the two, the head line's
// phrase is two cells: the word starts a phrase and a column (col, edge)
// for the grid's columns, as markColumnStarts marks a body's words. A
// group head spanning its sub-heads' columns on purpose is centred over
// them and has no word boundary at their edges, nor has a paragraph line
// a word boundary on a column's edge by design.
//
// A head set flush right over a column of figures set flush right and
// wider than they are (its end at their end) starts its column where the
// body leaves a gap (2pt wide or more) before it: its first word is
// marked edge too, so that columns takes the gap its start narrows, as
// it takes one before a column's words aligned on their left edge.
//
// The marks hold for the grid only: undo puts the words' marks back (a
// grid is built over trial boxes as well).
func headCells(lines []*textLine, gap float64) (undo func()) {
	if len(lines) < 4 {
		return func() {}
	}
	type mark struct {
		w         *word
		col, edge bool
	}
	var marks []mark
	set := func(w *word, col bool) {
		marks = append(marks, mark{w, w.col, w.edge})
		w.col = w.col || col
		w.edge = true
	}
	// each line's phrases
	phrases := make([][]span, len(lines))
	for i, l := range lines {
		for seg := range l.eachSegment(gap) {
			phrases[i] = append(phrases[i], span{seg[0].bb.X0, seg[len(seg)-1].bb.X1})
		}
	}
	// aligned: three lines or more under line i with a phrase starting
	// at x (start) or ending at x, within 0.3pt
	aligned := func(i int, x float64, start bool) bool {
		n := 0
		for _, ps := range phrases[i+1:] {
			for _, p := range ps {
				if start && math.Abs(p.a-x) <= 0.3 || !start && math.Abs(p.b-x) <= 0.3 {
					n++
					break
				}
			}
		}
		return n >= 3
	}
	// over: a phrase of a line under line i stands under the stretch
	// (a, b)
	over := func(i int, a, b float64) bool {
		for _, ps := range phrases[i+1:] {
			for _, p := range ps {
				if p.a < b && p.b > a {
					return true
				}
			}
		}
		return false
	}
	// free: no phrase of a line under line i covers the stretch (a, b)
	// (line i's phrase may: its words leave it free; a group head above
	// it spans its sub-heads' columns)
	free := func(i int, a, b float64) bool {
		for _, ps := range phrases[i+1:] {
			for _, p := range ps {
				if p.a < b-0.1 && p.b > a+0.1 {
					return false
				}
			}
		}
		return true
	}
	for i, l := range lines[:3] {
		if len(lines)-i-1 < 3 {
			break
		}
		// touching heads: a word boundary on a column's edge, each
		// side over cells of the body (a head's words over the gap
		// before its column do not make a head of their own)
		start := 0
		for k := 1; k < len(l.ws); k++ {
			w, prev := l.ws[k], l.ws[k-1]
			if l.splitsBefore(k, gap) {
				start = k
				continue
			}
			if w.bb.X0 <= prev.bb.X1 || !aligned(i, w.bb.X0, true) && !aligned(i, prev.bb.X1, false) || !free(i, prev.bb.X1, w.bb.X0) {
				continue
			}
			end := k
			for end+1 < len(l.ws) && !l.splitsBefore(end+1, gap) {
				end++
			}
			if over(i, l.ws[start].bb.X0, prev.bb.X1) && over(i, w.bb.X0, l.ws[end].bb.X1) {
				set(w, true)
				start = k
			}
		}
		// a phrase set flush right over figures set flush right,
		// wider than they are, the body leaving 2pt free before it
		for k := 1; k < len(l.ws); k++ {
			w := l.ws[k]
			if w.edge || !l.splitsBefore(k, gap) {
				continue
			}
			end := k
			for end+1 < len(l.ws) && !l.splitsBefore(end+1, gap) {
				end++
			}
			if !aligned(i, l.ws[end].bb.X1, false) {
				continue
			}
			a := math.Inf(-1)
			for _, ps := range phrases[i+1:] {
				for _, p := range ps {
					if p.a < w.bb.X0 {
						a = max(a, p.b)
					}
				}
			}
			if w.bb.X0-a >= 2 && free(i, max(a, l.ws[k-1].bb.X1), w.bb.X0) {
				set(w, false)
			}
		}
	}
	return func() {
		for _, m := range marks {
			m.w.col, m.w.edge = m.col, m.edge
		}
	}
}

// vRuled: a vertical rule stands inside box (as buildGrid takes its
// column rules): a ruled grid's columns are its rules'.
func vRuled(box document.BBox, vs []rule) bool {
	for _, v := range vs {
		if v.pos > box.X0+6 && v.pos < box.X1-6 && min(v.b, box.Y1)-max(v.a, box.Y0) > 4 {
			return true
		}
	}
	return false
}

// edgeLines: three lines or more (by their phrases' boxes) have a
// phrase starting at x (start) or ending at x, within 1pt (a column's gap
// as columns measures it, on half-point bins).
func edgeLines(lineSegs [][]document.BBox, x float64, start bool) bool {
	n := 0
	for _, bs := range lineSegs {
		for _, b := range bs {
			if start && math.Abs(b.X0-x) <= 1 || !start && math.Abs(b.X1-x) <= 1 {
				n++
				break
			}
		}
	}
	return n >= 3
}

// columnHeaded: one of the first three lines has a phrase over the column c
// (its head): marks set in a margin at one x have none.
func columnHeaded(lineSegs [][]document.BBox, c span) bool {
	for _, bs := range lineSegs[:min(3, len(lineSegs))] {
		for _, b := range bs {
			if b.X0 < c.b && b.X1 > c.a {
				return true
			}
		}
	}
	return false
}

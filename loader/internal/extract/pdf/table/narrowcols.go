package table

import (
	"github.com/docket-dev/docket/loader/internal/document"
)

// narrowGutters splits the columns columnsIn found in a table drawn
// without column rules (gap the grid's) at a channel as wide as gap or
// wider, measured on the phrases, that no voting line's phrase crosses,
// where a line at least has a phrase on both sides of it: two columns
// whose phrases stand apart on every line, though the lines together
// leave only about a padding between the columns' extents.
//
// A browser sets a table's columns a cell's padding apart from each
// column's widest phrase. A column right-aligned under a head set left
// and wider than its cells ("Symbol" over "f", "RH", "V"), or a left
// column whose longest cell stands on another line than the next
// column's leftmost phrase, leaves only that padding between the two
// columns' extents (5.25pt at 9pt, the grid's gap 4.95pt) where each
// row's cells stand several sizes apart. columnsIn's half-point bins
// shave up to a bin off each side of it (4.5pt), and exactGap measures it
// again only where the rows keep phrases close on both sides, which such
// rows do not: "Output current f" was one cell. So does a last column
// holding its head alone (or a cell or two), set a padding after the
// widest phrase of the column before: only the head line has phrases on
// both sides ("Price See" over "122.88"). A head over narrower
// cells aligned otherwise (a head set left over right-aligned numbers)
// leaves a channel too, but no line has phrases on both of its sides:
// the column stays whole.
func narrowGutters(cols []span, lines []*textLine, gap float64) []span {
	use := voters(lines, gap)
	if len(use) < 3 {
		return cols
	}
	var boxes []document.BBox
	var of []int // the index in use of each box's line
	for i, l := range use {
		n := len(boxes)
		boxes = l.appendSegmentBoxes(boxes, gap)
		for range boxes[n:] {
			of = append(of, i)
		}
	}
	out := make([]span, 0, len(cols))
	for _, c := range cols {
		parts := phraseParts(boxes, c)
		start := c.a
		for k := 0; k+1 < len(parts); k++ {
			ga, gb := parts[k].b, parts[k+1].a
			if gb-ga < gap || linesOnBothSides(boxes, of, parts[k], parts[k+1]) == 0 {
				continue
			}
			out = append(out, span{start, ga})
			start = gb
		}
		out = append(out, span{start, c.b})
	}
	return out
}

// phraseParts is the union of the phrase boxes inside column c (clipped
// to it), as disjoint spans from left to right.
func phraseParts(boxes []document.BBox, c span) []span {
	var in []span
	for _, b := range boxes {
		if b.X1 > c.a && b.X0 < c.b {
			in = append(in, span{max(b.X0, c.a), min(b.X1, c.b)})
		}
	}
	return mergeSpans(in)
}

// linesOnBothSides counts the lines with a phrase in part l and one in part
// r (of[i]: the line of boxes[i]).
func linesOnBothSides(boxes []document.BBox, of []int, l, r span) int {
	left, right := map[int]bool{}, map[int]bool{}
	for i, b := range boxes {
		if b.X1 > l.a && b.X0 < l.b {
			left[of[i]] = true
		}
		if b.X1 > r.a && b.X0 < r.b {
			right[of[i]] = true
		}
	}
	n := 0
	for i := range left {
		if right[i] {
			n++
		}
	}
	return n
}

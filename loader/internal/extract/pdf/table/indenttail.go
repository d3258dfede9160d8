package table

import "math"

// indentedTail: the lines under run[k-1] are a second table set in from
// the first one, no head of its own: three lines or more above, each of
// several phrases, all starting on the run's left edge (2pt); three or
// more below, each of several phrases, all starting a size or more right
// of it (the first table's stub column empty on every one of them); and
// the lower lines' other phrases do not line up with the upper's columns:
// fewer than one in four starts or ends (1pt) where phrases of two upper
// lines or more start or end, or is centred where they are centred (0.5pt:
// the centres of numbers set flush right of a few widths fall anywhere). The rows of one
// table keep their columns' edges whatever their stub holds; an indented
// sub-row ("of which") still sets its values under the column's.
func indentedTail(run []*textLine, k int, gap float64) bool {
	above, below := run[:k], run[k:]
	if len(above) < 3 || len(below) < 3 {
		return false
	}
	left := above[0].bb.X0
	for _, l := range above {
		if l.nSegments(gap) < 2 || math.Abs(l.bb.X0-left) > 2 {
			return false
		}
	}
	for _, l := range below {
		if l.nSegments(gap) < 2 || l.bb.X0 < left+l.size {
			return false
		}
	}
	// the upper lines' column edges: left, right and centre of each
	// phrase, kept when two lines or more share them
	var edges [3][]float64
	for _, l := range above {
		for seg := range l.eachSegment(gap) {
			b := boxOf(seg)
			for e, x := range [3]float64{b.X0, b.X1, (b.X0 + b.X1) / 2} {
				edges[e] = append(edges[e], x)
			}
		}
	}
	shared := func(xs []float64, x, tol float64) bool {
		n := 0
		for _, v := range xs {
			if math.Abs(v-x) <= tol {
				n++
			}
		}
		return n >= 2
	}
	n, lined := 0, 0
	for _, l := range below {
		first := true
		for seg := range l.eachSegment(gap) {
			if first {
				first = false
				continue
			}
			b := boxOf(seg)
			n++
			if shared(edges[0], b.X0, 1) || shared(edges[1], b.X1, 1) || shared(edges[2], (b.X0+b.X1)/2, 0.5) {
				lined++
			}
		}
	}
	return 4*lined < n
}

package table

import "math"

// lastValueRow: the line under a run's last line (lines[i:last+1]) is a
// row of its own holding one number, its other cells blank (a stub cell
// spanning the row above it, blank values): one phrase, a number, as close
// under the run as its lines are to each other (0.8 of a size), ending
// where a phrase right of the run's first column ends on two of its lines
// or more (1pt: a column of figures set flush right), and no line of one
// phrase lined up so under it (a column of lone numbers is an axis or a
// list, not one row).
func lastValueRow(lines []*textLine, multi []bool, i, last int, gap float64) bool {
	k := last + 1
	if k >= len(lines) || multi[k] || !valueRowUnder(lines[k-1], lines[k], gap) {
		return false
	}
	l := lines[k]
	n := 0
	for _, r := range lines[i : last+1] {
		for m, seg := range r.segments(gap) {
			if m > 0 && math.Abs(boxOf(seg).X1-l.bb.X1) <= 1 {
				n++
			}
		}
	}
	if n < 2 {
		return false
	}
	if k+1 < len(lines) && valueRowUnder(l, lines[k+1], gap) && math.Abs(lines[k+1].bb.X1-l.bb.X1) <= 1 {
		return false
	}
	return true
}

// valueRowUnder: l, under prev, is one phrase, a number, no more than 0.8
// of a size under it.
func valueRowUnder(prev, l *textLine, gap float64) bool {
	return l.bb.Y0-prev.bb.Y1 <= 0.8*max(l.size, prev.size) && l.nSegments(gap) == 1 && numericCell(l.ws)
}

package table

import "math"

// multiPhrase says which lines have several phrases (the lines a run of
// table lines is made of): phrases apart by the run's gap, or, in a line
// shorter than 0.6 of the region's widest (not running text), apart by a
// cell's padding (the grid's gap, 0.55 of a size) where a line next to it
// has such a phrase starting or ending at the same x (a browser's 8px
// padding leaves ~6pt between columns, under the run's 0.9-size gap), or
// the line past a short one-phrase line (a row of blank cells but one).
// Captions and Han text (letter-spaced heads) keep the run's gap only.
func multiPhrase(lines []*textLine, size, gap float64) []bool {
	multi := make([]bool, len(lines))
	maxW := 0.0
	for _, l := range lines {
		maxW = max(maxW, l.bb.X1-l.bb.X0)
	}
	pad := min(gap, gridGap(size))
	tight := make([]bool, len(lines)) // several phrases a padding apart, in a short line
	for i, l := range lines {
		tight[i] = l.bb.X1-l.bb.X0 < 0.6*maxW && l.nSegments(pad) >= 2 && !hasHan(l.ws)
	}
	// a neighbour is the line above or below, or the one past it when the
	// line between is one short phrase (a row whose other cells are
	// blank; a paragraph's line is no cell)
	lined := func(i, j int) bool {
		if j < 0 || j >= len(lines) || !tight[j] {
			return false
		}
		if d := j - i; d == 2 || d == -2 {
			if m := lines[(i+j)/2]; tight[(i+j)/2] || m.bb.X1-m.bb.X0 >= 0.6*maxW || m.nSegments(pad) != 1 {
				return false
			}
		}
		return alignedPhrase(lines[j], lines[i], pad)
	}
	for i, l := range lines {
		multi[i] = (l.nSegments(gap) >= 2 || tight[i] && (lined(i, i-1) || lined(i, i+1) || lined(i, i-2) || lined(i, i+2))) && !lineIsCaption(l)
	}
	return multi
}

// alignedPhrase: a phrase of l after its first starts or ends where one
// of o's does (within 2pt): a column, not word spaces that happen to be
// wide.
func alignedPhrase(o, l *textLine, pad float64) bool {
	os := o.segments(pad)
	for _, seg := range l.segments(pad)[1:] {
		b := boxOf(seg)
		for _, t := range os[1:] {
			c := boxOf(t)
			if math.Abs(b.X0-c.X0) <= 2 || math.Abs(b.X1-c.X1) <= 2 {
				return true
			}
		}
	}
	return false
}

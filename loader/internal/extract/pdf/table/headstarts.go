package table

import (
	"math"
	"unicode"
)

// markHeadStarts: the row of a small table whose columns stand closer
// than a phrase gap, under a head line whose phrases stand apart: a
// browser sets a short table's cells a padding apart (5pt at 10pt), less
// than the gap that parts phrases, so the row "27 April Workshop A 09:00"
// reads as one phrase under "Date  Session  Time", and a table of a head
// and one row has no column of three rows to show its columns
// (markColumnStarts). A head's one row whose words start where each of
// the head's phrases over it starts (within 0.5pt; after a space but the
// first) has those words start phrases. The head is the nearest line
// above sharing the row's width, a leading and a half or less above, in
// its size, itself no row under a head; its phrases over the row are two
// or more, the first starting where the row starts, the last ending a
// gap or less before the row's end or after it, and hold no digit (heads,
// not a row of figures); no second row under the head follows (more rows
// show their columns otherwise). A heading over running text is one
// phrase, and a paragraph's lines do not start words under each of a
// head's phrases.
func markHeadStarts(lines []*textLine, gap float64) {
	for j, l := range lines {
		if len(l.ws) < 2 {
			continue
		}
		for i := j - 1; i >= 0; i-- {
			h := lines[i]
			if h.bb.X1 <= l.bb.X0 || h.bb.X0 >= l.bb.X1 {
				continue // beside: another block's line
			}
			if l.bb.Y0-h.bb.Y1 > 1.5*l.size || math.Abs(l.size-h.size) > 0.15*h.size {
				break
			}
			if marks, ok := headStarts(h, l, gap); ok && !rowUnder(lines, j, h, gap) && !rowOfHead(lines, i, gap) {
				for _, w := range marks {
					w.col = true
				}
			}
			break // the nearest line over it only
		}
	}
}

// headStarts: whether l's words start under each of head line h's
// phrases (see markHeadStarts), and those of them that start no phrase
// yet.
func headStarts(h, l *textLine, gap float64) ([]*word, bool) {
	var marks []*word
	n, lastEnd := 0, 0.0
	for seg := range h.eachSegment(gap) {
		x0, x1 := seg[0].bb.X0, seg[len(seg)-1].bb.X1
		if x1 <= l.bb.X0-0.5 || x0 >= l.bb.X1 {
			continue
		}
		for _, w := range seg {
			for _, r := range w.text {
				if unicode.IsDigit(r) {
					return nil, false
				}
			}
		}
		n++
		if n == 1 {
			if math.Abs(x0-l.bb.X0) > 0.5 {
				return nil, false
			}
			lastEnd = x1
			continue
		}
		found := false
		for k := 1; k < len(l.ws); k++ {
			if w := l.ws[k]; math.Abs(w.bb.X0-x0) <= 0.5 && w.bb.X0 > l.ws[k-1].bb.X1 {
				if !l.splitsBefore(k, gap) {
					marks = append(marks, w) // a phrase's start the gap did not make
				}
				found = true
				break
			}
		}
		if !found {
			return nil, false
		}
		lastEnd = x1
	}
	if n < 2 || lastEnd < l.bb.X1-gap {
		return nil, false
	}
	return marks, true
}

// rowUnder: the next line under lines[j] sharing its width, a leading or
// less under it, is a row under head h too: a table of two rows or more
// shows its columns otherwise (markColumnStarts, the rows' own gaps).
func rowUnder(lines []*textLine, j int, h *textLine, gap float64) bool {
	l := lines[j]
	for _, n := range lines[j+1:] {
		if n.bb.X1 <= l.bb.X0 || n.bb.X0 >= l.bb.X1 {
			continue
		}
		_, ok := headStarts(h, n, gap)
		return n.bb.Y0-l.bb.Y1 <= l.size && ok
	}
	return false
}

// rowOfHead: lines[i] is itself a row under the line over it sharing its
// width, a leading or less above (its head): a row is no head.
func rowOfHead(lines []*textLine, i int, gap float64) bool {
	h := lines[i]
	for k := i - 1; k >= 0; k-- {
		g := lines[k]
		if g.bb.X1 <= h.bb.X0 || g.bb.X0 >= h.bb.X1 {
			continue
		}
		_, ok := headStarts(g, h, gap)
		return h.bb.Y0-g.bb.Y1 <= h.size && ok
	}
	return false
}

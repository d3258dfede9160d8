package table

import (
	"math"
	"strings"
)

// A paragraph set tight against a small unruled table, at the table's
// own leading (the hard set's commonest loss, session 25): its lines are
// no heads, labels or rows of the table.

// runsPast: l is a line of running text (paragraphLine) starting at the
// run's left edge and running on past its right edge by more than a
// gap: a paragraph between two tables set tight one over the other, not
// a row (a row's text stays inside the table; the run would go on through
// it to the next table's lines and read both as one).
func runsPast(cols []span, l *textLine, gap float64) bool {
	if len(cols) < 2 {
		return false
	}
	left, right := cols[0].a, cols[0].b
	for _, c := range cols {
		left, right = min(left, c.a), max(right, c.b)
	}
	return math.Abs(l.bb.X0-left) <= 2 && l.bb.X1 > right+gap && paragraphLine(l)
}

// paragraphTail: l is the last line of the paragraph whose line p is
// above it, not a head over the line next under it: p is running text
// (paragraphLine), l starts where p does, ends no further right, ends a
// sentence, and goes on p's paragraph: no farther from p than from next
// (a paragraph set tight over a table, at the table's own leading, leaves
// its short last line as close to the table's first row as to the
// paragraph), or a paragraph line's pitch under p (pp, the line above p,
// nil at the top, as far above p as p above l: a paragraph with more
// leading than the table under it), or in p's size where next is in
// another (a table set smaller than the text round it).
func paragraphTail(pp, p, l, next *textLine) bool {
	x0 := p.bb.X0
	if len(p.ws) > 1 && listMarker(p.ws[:1]) {
		x0 = p.ws[1].bb.X0 // a list item's text, its marker hanging out
	}
	if math.Abs(l.bb.X0-x0) > 2 || l.bb.X1 > p.bb.X1+1 || !paragraphLine(p) {
		return false
	}
	close := l.bb.Y0-p.bb.Y1 <= next.bb.Y0-l.bb.Y1+0.5
	pitch := pp != nil && math.Abs(pp.bb.X0-p.bb.X0) <= 2 && math.Abs(pp.size-p.size) < 0.5 &&
		math.Abs((l.bb.Y1-p.bb.Y1)-(p.bb.Y1-pp.bb.Y1)) <= 0.5
	sized := math.Abs(l.size-p.size) < 0.5 && math.Abs(next.size-l.size) >= 0.5
	if !close && !pitch && !sized {
		return false
	}
	t := lineText(l)
	last := l.ws[len(l.ws)-1].text
	return len(t) >= 3 && strings.ContainsRune(".:!?", rune(t[len(t)-1])) && len(last) >= 3 && isWordOfLetters(last)
}

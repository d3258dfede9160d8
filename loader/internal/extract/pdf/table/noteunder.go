package table

import "math"

// noteUnder: l, the last line of a run of table lines, of two or three
// phrases, is a note or the next table's title under the table ("Data
// for the latest year are estimates.", "100 m Schi A W14 ... 19.05.2007"
// under a result list), not its last row: none of its phrases lines up
// with the columns over it. A row's cells line up with the rows' cells
// over them: a start on the column's start, an end on its end, a middle
// on its middle (or on the middle of the column's extent: a cell centred
// in a column of left-aligned ones). Lined up means with two phrases or
// more, within half the line's size: one ragged name ending where a
// note's word ends is chance. above are the run's lines over l, three or
// more; a line of the same text (the title set again) is not counted.
func noteUnder(l *textLine, above []*textLine, gap float64) bool {
	if len(above) < 3 {
		return false
	}
	if n := l.nSegments(gap); n < 2 || n > 3 {
		return false
	}
	lt := lineText(l)
	var over []span
	for _, a := range above {
		if lineText(a) != lt {
			over = append(over, phraseSpans(a, gap)...)
		}
	}
	for _, p := range phraseSpans(l, gap) {
		if linedUp(p, over, 0.5*l.size) {
			return false
		}
	}
	return true
}

// linedUp: phrase p has its start, end or middle within tol of those of
// two phrases of col, or its middle on the middle of the phrases of col
// sharing half the narrower one's width with it (its column).
func linedUp(p span, col []span, tol float64) bool {
	starts, ends, mids := 0, 0, 0
	x0, x1 := math.Inf(1), math.Inf(-1)
	for _, u := range col {
		if 2*(min(u.b, p.b)-max(u.a, p.a)) < min(u.b-u.a, p.b-p.a) {
			continue // not in p's column: less than half the narrower one shared
		}
		if math.Abs(p.a-u.a) <= tol {
			starts++
		}
		if math.Abs(p.b-u.b) <= tol {
			ends++
		}
		if math.Abs(p.a+p.b-u.a-u.b) <= 2*tol {
			mids++
		}
		x0, x1 = math.Min(x0, u.a), math.Max(x1, u.b)
	}
	if starts >= 2 || ends >= 2 || mids >= 2 {
		return true
	}
	return x1 > x0 && math.Abs(p.a+p.b-x0-x1) <= 2*tol
}

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
	return !anyLinedUp(l, above, gap)
}

// anyLinedUp: a phrase of l lines up with the phrases of others (see
// noteUnder); a line of l's text among them is not counted.
func anyLinedUp(l *textLine, others []*textLine, gap float64) bool {
	lt := lineText(l)
	var col []span
	for _, a := range others {
		if lineText(a) != lt {
			col = append(col, phraseSpans(a, gap)...)
		}
	}
	for _, p := range phraseSpans(l, gap) {
		if linedUp(p, col, 0.5*l.size) {
			return true
		}
	}
	return false
}

// linedUp: phrase p has its start, end or middle within tol of those of
// two phrases of col, or its middle on the middle of the phrases of col
// sharing half the narrower one's width with it (its column), or, over
// two columns (phrases reaching under it one after the other), on the
// middle of all the phrases reaching under it (a head spanning them).
func linedUp(p span, col []span, tol float64) bool {
	starts, ends, mids := 0, 0, 0
	x0, x1 := math.Inf(1), math.Inf(-1) // p's column
	s0, s1 := math.Inf(1), math.Inf(-1) // the columns p spans
	lastA, firstB := math.Inf(-1), math.Inf(1)
	for _, u := range col {
		if u.b <= p.a || u.a >= p.b {
			continue
		}
		s0, s1 = min(s0, u.a), max(s1, u.b)
		lastA, firstB = max(lastA, u.a), min(firstB, u.b)
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
		x0, x1 = min(x0, u.a), max(x1, u.b)
	}
	if starts >= 2 || ends >= 2 || mids >= 2 {
		return true
	}
	if x1 > x0 && math.Abs(p.a+p.b-x0-x1) <= 2*tol {
		return true
	}
	return lastA > firstB && math.Abs(p.a+p.b-s0-s1) <= 2*tol
}

// titleFirst: lines[i], the first of a run of table lines down to
// lines[last], is a title over the table (titleOver), not a head over the
// line under it (overPhrase).
func titleFirst(lines []*textLine, i, last int, gap float64) bool {
	return last > i && !overPhrase(lines[i], lines[i+1], gap) && titleOver(lines[i], lines[i+1:last+1], gap)
}

// titleOver: h, a line over a run of table lines (rest), is a title
// over the table, not its header row: noteUnder's test (no phrase lined
// up with the columns under it), and no more than half as many phrases
// as the run's widest line has (a header row has a head over most
// columns; "100 m Schi A W14 ... 19.05.2007" over a result list of
// seven).
func titleOver(h *textLine, rest []*textLine, gap float64) bool {
	n := 0
	for _, l := range rest {
		n = max(n, l.nSegments(gap))
	}
	return 2*h.nSegments(gap) <= n && noteUnder(h, rest, gap)
}

// overPhrase: a phrase of l starts, ends or has its middle where a
// phrase of next, the line right under it, does, or has its middle on the
// middle of two phrases of next side by side, of their starts or of their
// ends (within half l's size): a head's line over its next line (a
// wrapped head over its last, a group head over its two sub-heads,
// "Population" over right-aligned "2010" and "2020").
func overPhrase(l, next *textLine, gap float64) bool {
	tol := 0.5 * l.size
	us := phraseSpans(next, gap)
	for _, p := range phraseSpans(l, gap) {
		for j, u := range us {
			if math.Abs(p.a-u.a) <= tol || math.Abs(p.b-u.b) <= tol || math.Abs(p.a+p.b-u.a-u.b) <= 2*tol {
				return true
			}
			if j == 0 {
				continue
			}
			v := us[j-1] // p over the pair: its middle on their middle, starts' or ends'
			if math.Abs(p.a+p.b-v.a-u.b) <= 2*tol || math.Abs(p.a+p.b-v.a-u.a) <= 2*tol || math.Abs(p.a+p.b-v.b-u.b) <= 2*tol {
				return true
			}
		}
	}
	return false
}

// subtitles: each of lines (between a title and the run) is one phrase
// lined up with no column of the lines under the title (a title's second
// line, "1. Vorlauf"; a wrapped head's first line lines up with its
// last).
func subtitles(lines, under []*textLine, gap float64) bool {
	for _, l := range lines {
		if l.nSegments(gap) != 1 || anyLinedUp(l, under, gap) {
			return false
		}
	}
	return true
}

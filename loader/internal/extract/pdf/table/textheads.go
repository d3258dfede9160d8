package table

import "sort"

// boldHeadsOver: a table of text under column heads in bold that wrap
// over up to three lines and stand centred over their columns (where
// boldHeaded needs one head line whose phrases start or end where the
// columns do): the first lines are bold and no other is; the body, three
// rows or more of two phrases or more, falls into as many columns as the
// heads make, each head over its own column (or ending two gaps short of
// it at most, right of the column before: a head set flush left over
// codes set flush right) and reaching into no other;
// the heads no bigger than the body (large figures over a line or two of
// text each are a poster's, not a table's).
func boldHeadsOver(lines []*textLine, gap float64) bool {
	k := 0
	for k < len(lines) && k < 3 && allBold(lines[k]) {
		k++
	}
	if k == 0 || len(lines)-k < 3 {
		return false
	}
	body, rows := lines[k:], 0
	if size := medianLineSize(body); lines[0].size > 1.2*size {
		return false // heads bigger than the body: figures over their captions, a poster's
	}
	for _, l := range body {
		if allBold(l) {
			return false
		}
		if l.nSegments(gap) >= 2 {
			rows++
		}
	}
	cols := columns(body, gap)
	if rows < 3 || len(cols) < 2 {
		return false
	}
	// the heads' phrases, those one over another (a head's lines) merged
	var heads []span
	for _, l := range lines[:k] {
		for _, seg := range l.segments(gap) {
			b := boxOf(seg)
			heads = mergeSpan(heads, span{b.X0, b.X1})
		}
	}
	if len(heads) != len(cols) {
		return false
	}
	sort.Slice(heads, func(i, j int) bool { return heads[i].a < heads[j].a })
	for j, h := range heads {
		if h.a >= cols[j].b || h.b <= cols[j].a-2*gap || j > 0 && h.a < cols[j-1].b || j+1 < len(cols) && h.b > cols[j+1].a {
			return false
		}
	}
	return true
}

// mergeSpan adds s to spans, merged with every span it overlaps.
func mergeSpan(spans []span, s span) []span {
	out := spans[:0:0]
	for _, o := range spans {
		if o.a < s.b && o.b > s.a {
			s = span{min(s.a, o.a), max(s.b, o.b)}
			continue
		}
		out = append(out, o)
	}
	return append(out, s)
}

// allBold: every word of the line is bold.
func allBold(l *textLine) bool {
	for _, w := range l.ws {
		if !w.bold {
			return false
		}
	}
	return true
}

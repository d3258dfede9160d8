package table

import (
	"cmp"
	"math"
	"slices"
)

// headsMerge: the first line of a run of table lines (four lines or
// more), in the size of the lines under it (not a poster's big figures
// over its columns of words), holds no number, and one of its words at
// least runs over a gap the lines under it keep clear between columns:
// column heads set wider than their columns, or shifted over the gap
// (a ledger's "Vr.No" over the dates' end, "Dr.Amt" over the
// particulars'), which make the grid read the columns they stand over
// as one. A rule between two of the body's lines running twice its width
// or more (a page-wide rule, not a row rule of its own) parts two blocks,
// two tables whose columns need not line up: no one table's heads.
func headsMerge(part []*textLine, hs []rule) bool {
	if len(part) < 4 {
		return false
	}
	box := boxOf(part)
	for _, h := range hs {
		if h.pos > part[1].bb.Y0 && h.pos < box.Y1 && h.b-h.a >= 2*(box.X1-box.X0) && h.a < box.X1 && h.b > box.X0 {
			return false
		}
	}
	head := part[0]
	if size := medianLineSize(part[1:]); math.Abs(head.size-size) > 0.15*size {
		return false
	}
	for _, w := range head.ws {
		if numeric(w.text) {
			return false
		}
	}
	var body []span // the x extents the body's words cover, merged
	for _, l := range part[1:] {
		for _, w := range l.ws {
			body = append(body, span{w.bb.X0, w.bb.X1})
		}
	}
	body = mergeSpans(body)
	for _, w := range head.ws {
		n := 0
		for _, c := range body {
			if min(w.bb.X1, c.b)-max(w.bb.X0, c.a) > 0.5 {
				n++
			}
		}
		if n > 1 {
			return true
		}
	}
	return false
}

// mergeSpans sorts spans and joins those that overlap.
func mergeSpans(ss []span) []span {
	slices.SortFunc(ss, func(a, b span) int { return cmp.Compare(a.a, b.a) })
	var out []span
	for _, s := range ss {
		if n := len(out); n > 0 && s.a <= out[n-1].b {
			out[n-1].b = max(out[n-1].b, s.b)
			continue
		}
		out = append(out, s)
	}
	return out
}

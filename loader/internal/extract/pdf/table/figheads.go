package table

import "math"

// headsPart: the heads over a column of figures set flush right (at, each
// ending at x) part where the figures end. A browser's default CSS sets
// two columns of figures 3pt apart, a word space or less; figures of one
// width ("788" over "701" and "193") are not ragged and a column of them
// reads like one of numbers whose digit groups stand a space apart ("788
// 471"). Their heads show the columns: one of the two lines over the
// figures' top line (as close as a table's rows) has a phrase ending at x
// (within 0.3pt), its next word a phrase gap after it, and that next
// phrase (or its first words: the next heads may touch) ends where the
// words after the figures end ("2025  Q2" over "788 471"), or starts
// where they start. A number's digit groups have no
// head ending on their space.
func headsPart(lines []*textLine, at []member, next, nextGrouped []*word, x, pad float64) bool {
	ns := make([]*word, 0, len(next)+len(nextGrouped))
	ns = append(append(ns, next...), nextGrouped...)
	if len(ns) < 3 {
		return false
	}
	one := func(x float64, start bool) bool {
		for _, n := range ns {
			if start && math.Abs(n.bb.X0-x) > 0.3 || !start && math.Abs(n.bb.X1-x) > 0.3 {
				return false
			}
		}
		return true
	}
	starts, ends := one(ns[0].bb.X0, true), one(ns[0].bb.X1, false)
	if !starts && !ends {
		return false
	}
	top := at[0].line
	for _, m := range at {
		top = min(top, m.line)
	}
	// the head line may be the figures' top line (a year "2025" over
	// them is a figure too): three of them under it
	for j := top - 2; j <= top+1 && j < len(lines); j++ {
		if j < 0 || !rowsFrom(lines, j, top) {
			continue
		}
		under := 0
		for _, m := range at {
			if m.line > j {
				under++
			}
		}
		if under < 3 {
			continue
		}
		l := lines[j]
		m, across := endAt(l, x)
		if across {
			continue
		}
		if m < 0 || m+1 >= len(l.ws) || !l.splitsBefore(m+1, pad) {
			continue
		}
		if starts && math.Abs(l.ws[m+1].bb.X0-ns[0].bb.X0) <= 0.3 {
			return true
		}
		// the next phrase, or its first words (heads of the next
		// columns touching), ending where the words after the figures end
		for e := m + 1; ends && e < len(l.ws) && (e == m+1 || !l.splitsBefore(e, pad)); e++ {
			if math.Abs(l.ws[e].bb.X1-ns[0].bb.X1) <= 0.3 {
				return true
			}
		}
	}
	return false
}

// rowsFrom: lines j to top stand as close as a table's rows.
func rowsFrom(lines []*textLine, j, top int) bool {
	for i := j; i < top; i++ {
		if stepApart(lines, i, -1) {
			return false
		}
	}
	return true
}

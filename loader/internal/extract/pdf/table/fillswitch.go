package table

import (
	"cmp"
	"math"
	"slices"
)

// Two zebra tables (every other row shaded) of other widths set one
// right under the other: each table's shadings run the width of its own
// rows, and the edges of a shading count as rules, so the rules of the
// upper rows have one extent and those of the lower rows another, as
// with two ruled tables (ruleSwitch). What ruleSwitch cannot tell, a
// zebra table leaves to the lines between the two sets of shadings: the
// upper table's last rows, unshaded, and the lower one's heads, neither
// of them bold. Their extent tells them apart: a line reaching past the
// narrower table's end is the wider one's, and the lines on the narrower
// one's side of it keep to that table's columns.

// fillSwitch is the cut of run where the rules change extent: sorted
// from the top, the rules across the run are two sets, two rules at
// least each, each of one extent (crossTol), the two sharing one end and
// their other ends apart. The lines between the upper set's last rule
// and the lower set's first are parted at the last of them (wider table
// on top) or the first (wider table under) reaching past the narrower
// extent's end (2pt); those left on the narrower side must each have two
// phrases or more, each starting or ending (2pt) where a phrase of the
// narrower table's own lines does. The wider table's own lines must reach
// past the narrower end on two lines at least, the narrower's keep
// within its extent, and each side hold three lines of several phrases.
// 0 when there is none.
func fillSwitch(run []*textLine, multi []bool, hs []rule, gap float64) int {
	if len(hs) < 4 || len(run) < 6 {
		return 0
	}
	in := rulesAcross(run, hs)
	if len(in) < 4 {
		return 0
	}
	slices.SortFunc(in, func(p, q rule) int { return cmp.Compare(p.pos, q.pos) })
	m := 1
	for m < len(in) && sameExtent(in[0], in[m]) {
		m++
	}
	if m < 2 || len(in)-m < 2 {
		return 0
	}
	for _, h := range in[m:] {
		if !sameExtent(in[m], h) {
			return 0
		}
	}
	up, down := in[0], in[m]
	sameL, sameR := math.Abs(up.a-down.a) <= crossTol, math.Abs(up.b-down.b) <= crossTol
	if sameL == sameR {
		return 0
	}
	// the lines between the two sets: run[a:z]
	a, z := 0, 0
	for a < len(run) && run[a].cy() < in[m-1].pos {
		a++
	}
	for z = a; z < len(run) && run[z].cy() < down.pos; z++ {
	}
	narrow := down
	wideUp := up.b-up.a > down.b-down.a
	if !wideUp {
		narrow = up
	}
	past := func(l *textLine) bool { return l.bb.X1 > narrow.b+2 || l.bb.X0 < narrow.a-2 }
	cut := -1
	if wideUp {
		for i := z - 1; i >= a && cut < 0; i-- {
			if past(run[i]) {
				cut = i + 1
			}
		}
	} else {
		for i := a; i < z && cut < 0; i++ {
			if past(run[i]) {
				cut = i
			}
		}
	}
	if cut < 0 && a < z {
		return 0 // no line between tells which table it is
	}
	if cut < 0 {
		cut = a
	}
	wide, thin, given := run[:a], run[z:], run[cut:z]
	if !wideUp {
		wide, thin, given = run[z:], run[:a], run[a:cut]
	}
	nPast := 0
	for _, l := range wide {
		if past(l) {
			nPast++
		}
	}
	for _, l := range thin {
		if past(l) {
			return 0
		}
	}
	for _, l := range given {
		if !keepsColumns(l, thin, gap) {
			return 0
		}
	}
	if nPast < 2 || countTrue(multi[:cut]) < 3 || countTrue(multi[cut:]) < 3 {
		return 0
	}
	return cut
}

// keepsColumns: l has two phrases or more, each starting or ending
// (2pt) where a phrase of one of ls starts or ends.
func keepsColumns(l *textLine, ls []*textLine, gap float64) bool {
	segs := l.segments(gap)
	if len(segs) < 2 {
		return false
	}
	for _, s := range segs {
		sb := boxOf(s)
		ok := false
		for _, o := range ls {
			for seg := range o.eachSegment(gap) {
				ob := boxOf(seg)
				ok = ok || math.Abs(ob.X0-sb.X0) <= 2 || math.Abs(ob.X1-sb.X1) <= 2
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

package table

import "math"

// Two tables ruled between their rows, set one right under the other
// (a statement ruled row by row over a register ruled under each entry),
// read as one run of aligned lines: no wider gap parts them, and their
// columns may overlap. Their rules do: each table's rules run the width
// of its own rows, so the rules over the run's upper lines have one
// extent and those under its lower lines another, one side in common
// (the text's margin) and the other apart, and the upper lines run past
// the lower table's end (or the lower ones past the upper's).

// ruleSwitch is the cut k of run (three lines or more of several phrases
// on each side) where the rules change extent: every rule from the run's
// top down to run[k]'s top is of one extent, two at least, the last of
// them between run[k-1] and run[k]; every rule from there to the run's
// bottom of another, two at least; the two share a left or right end
// and their other ends stand more than crossTol apart; and the lines on
// the side of the wider extent reach past the narrower one's end. 0 when
// there is none.
func ruleSwitch(run []*textLine, multi []bool, hs []rule) int {
	if len(hs) < 4 {
		return 0
	}
	size := run[0].size
	in := rulesAcross(run, hs)
	if len(in) < 4 {
		return 0
	}
	for k := 3; k+3 <= len(run); k++ {
		if countTrue(multi[:k]) < 3 || countTrue(multi[k:]) < 3 {
			continue
		}
		top := run[k].bb.Y0
		up, okUp, nUp := rule{}, true, 0
		down, okDown, nDown := rule{}, true, 0
		upSpan, downSpan := [2]float64{math.Inf(1), math.Inf(-1)}, [2]float64{math.Inf(1), math.Inf(-1)}
		for _, h := range in {
			if h.pos <= top {
				okUp = okUp && (nUp == 0 || sameExtent(up, h))
				up, nUp = h, nUp+1
				upSpan = [2]float64{min(upSpan[0], h.pos), max(upSpan[1], h.pos)}
			} else {
				okDown = okDown && (nDown == 0 || sameExtent(down, h))
				down, nDown = h, nDown+1
				downSpan = [2]float64{min(downSpan[0], h.pos), max(downSpan[1], h.pos)}
			}
		}
		if !okUp || !okDown || nUp < 2 || nDown < 2 || upSpan[1] < run[k-1].cy() ||
			!linesWithin(run[:k], upSpan, 2.5*size) || !linesWithin(run[k:], downSpan, 2.5*size) {
			continue
		}
		if !headBetween(run[k:], upSpan[1], downSpan[0]) {
			continue
		}
		sameL, sameR := math.Abs(up.a-down.a) <= crossTol, math.Abs(up.b-down.b) <= crossTol
		if sameL == sameR {
			continue // the same extent, or nothing in common
		}
		wide, narrow, lines := up, down, run[:k]
		if narrow.b-narrow.a > wide.b-wide.a {
			wide, narrow, lines = down, up, run[k:]
		}
		past := false
		for _, l := range lines {
			past = past || l.bb.X1 > narrow.b+2 || l.bb.X0 < narrow.a-2
		}
		if past {
			return k
		}
	}
	return 0
}

// rulesAcross: the rules of hs within the run's extent, or less than a
// line's size over or under it.
func rulesAcross(run []*textLine, hs []rule) []rule {
	b := boxOf(run)
	size := run[0].size
	var in []rule
	for _, h := range hs {
		if h.pos > b.Y0-size && h.pos < b.Y1+size && h.b > b.X0 && h.a < b.X1 {
			in = append(in, h)
		}
	}
	return in
}

// headBetween: the lines of ls between the upper rules' last (y0) and
// the lower rules' first (y1), one at least, are all bold: the lower
// table's heads over its first rule. A line there in the body's face is
// the upper table's last row under its last rule, or the lower one's
// first row: which, the rules do not tell.
func headBetween(ls []*textLine, y0, y1 float64) bool {
	n := 0
	for _, l := range ls {
		if c := l.cy(); c > y0 && c < y1 {
			if !allBold(l) {
				return false
			}
			n++
		}
	}
	return n > 0
}

// linesWithin: every line of ls has its middle inside span, or less than
// room outside it (a head over the first rule, a last row under the
// last): the lines are the ones the rules run between.
func linesWithin(ls []*textLine, span [2]float64, room float64) bool {
	for _, l := range ls {
		if l.cy() < span[0]-room || l.cy() > span[1]+room {
			return false
		}
	}
	return true
}

// sameExtent: two rules' ends within crossTol of each other.
func sameExtent(a, b rule) bool {
	return math.Abs(a.a-b.a) <= crossTol && math.Abs(a.b-b.b) <= crossTol
}

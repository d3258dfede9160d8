package table

import "math"

// Two tables set one right under the other, in the same style, with no
// wider gap between them than between their own rows (a report's
// tables placed back to back, a summary table under the details), read
// as one run of aligned lines: splitRun finds no gap to cut at. What
// tells them apart is their columns: one of them has a column right of
// all the other's text, filled and aligned in each of its lines of
// several phrases (a fourth column the first table lacks; the numeric
// columns of a wide table over a narrow one). One table's rows fill its
// columns from its first row to its last; a column that stops at one
// row and has nothing under it (or over it) is another table's edge, as
// long as each side has three lines of several phrases (a total row or
// a note under a table is one or two lines).

// columnSwitch is the first cut k of run (at least three lines of
// several phrases on each side) where one side has a column of its own
// (ownColumn). 0 when there is none, or when the run is two tables side
// by side (one ending first leaves its columns empty under it too).
func columnSwitch(run []*textLine, multi []bool, gap float64) int {
	// A column of one side right of all the other side's text puts a
	// word right of that text in every line of several phrases of the
	// first side (alignedIn), so each such line ends right of the other
	// side's last: without that, at every cut but a few, ownColumn
	// cannot hold, and its two column profiles are not made.
	n := len(run)
	inf := math.Inf(1)
	preMin, preMax := make([]float64, n+1), make([]float64, n+1) // over run[:k]: multi lines' least X1, every line's greatest
	sufMin, sufMax := make([]float64, n+1), make([]float64, n+1) // over run[k:]
	preMin[0], preMax[0], sufMin[n], sufMax[n] = inf, -inf, inf, -inf
	preN := make([]int, n+1)
	for i, l := range run {
		preMin[i+1], preMax[i+1], preN[i+1] = preMin[i], max(preMax[i], l.bb.X1), preN[i]
		if multi[i] {
			preMin[i+1], preN[i+1] = min(preMin[i+1], l.bb.X1), preN[i+1]+1
		}
	}
	for i := n - 1; i >= 0; i-- {
		sufMin[i], sufMax[i] = sufMin[i+1], max(sufMax[i+1], run[i].bb.X1)
		if multi[i] {
			sufMin[i] = min(sufMin[i], run[i].bb.X1)
		}
	}
	for k := 3; k+3 <= len(run); k++ {
		if preN[k] < 3 || preN[n]-preN[k] < 3 {
			continue
		}
		if preMin[k] <= sufMax[k]+1 && sufMin[k] <= preMax[k]+1 {
			continue
		}
		if ownColumn(multiLines(run[:k], multi[:k]), run[k:], gap) || ownColumn(multiLines(run[k:], multi[k:]), run[:k], gap) {
			if parts, _ := splitSides(run, gap); len(parts) > 1 {
				return 0 // two tables side by side, one ending first: its columns stop there (splitSides parts them)
			}
			return k
		}
	}
	return 0
}

// ownColumn: a column of a's lines holds words in every one of them,
// aligned (alignedIn), right of everything b's lines hold. (Allowing
// one line without it, a spanning head's, cuts a row early: the row over
// the second table's first is taken for its head. A column left of the
// other side's text is a stub under an empty stub head: heads over a
// body are no table of their own.)
func ownColumn(a, b []*textLine, gap float64) bool {
	end := math.Inf(-1)
	for _, l := range b {
		end = max(end, l.bb.X1)
	}
	cols := columns(a, gap)
	if len(cols) < 2 {
		return false
	}
	for _, c := range cols {
		if c.a > end+0.5 && alignedIn(a, c) {
			return true
		}
	}
	return false
}

// alignedIn: every line of ls has words in the column c, and their
// extents share an edge, left, right or centre (within 1.5pt), in all
// lines but one (a head centred over right-aligned numbers): a table's
// column. The value labels of a chart's bars sit where the data puts
// them.
func alignedIn(ls []*textLine, c span) bool {
	x0s := make([]float64, 0, len(ls))
	x1s := make([]float64, 0, len(ls))
	cxs := make([]float64, 0, len(ls))
	for _, l := range ls {
		x0, x1 := math.Inf(1), math.Inf(-1)
		for _, w := range l.ws {
			if w.bb.X1 > c.a+0.5 && w.bb.X0 < c.b-0.5 {
				x0, x1 = min(x0, w.bb.X0), max(x1, w.bb.X1)
			}
		}
		if x0 > x1 {
			return false
		}
		x0s, x1s, cxs = append(x0s, x0), append(x1s, x1), append(cxs, (x0+x1)/2)
	}
	for _, xs := range [][]float64{x0s, x1s, cxs} {
		m, n := median(xs), 0
		for _, x := range xs {
			if math.Abs(x-m) <= 1.5 {
				n++
			}
		}
		if n >= len(xs)-1 {
			return true
		}
	}
	return false
}

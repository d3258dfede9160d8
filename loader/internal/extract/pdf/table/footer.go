package table

import "math"

// footerUnder: lines[j:] are the page's footer under a table run
// (lines[i:j], three several-phrase lines or more): a rule between
// lines[j-1] and lines[j] across 90% of the width of the run's
// several-phrase lines or more (a mark in the margin beside a row may
// reach past it), and under it at most three lines, the region's last,
// set as close as a paragraph's, reaching a gap past the run's lines on
// one side at least (a footer's parts stand at the text column's edges).
// A row under the table's own rule (over a total) stays inside its width;
// notes under its bottom rule are no rows either. Without a rule, the
// lines under stand farther from the run than its lines from each other
// (by 0.3 of their size) and reach three gaps past its width.
func footerUnder(lines []*textLine, i, j int, gap float64, hs []rule) bool {
	if j <= i || len(lines)-j > 3 {
		return false
	}
	x0, x1 := math.Inf(1), math.Inf(-1)
	multi := 0
	for _, l := range lines[i:j] {
		if l.nSegments(gap) >= 2 {
			x0, x1 = math.Min(x0, l.bb.X0), math.Max(x1, l.bb.X1)
			multi++
		}
	}
	if multi < 3 {
		return false
	}
	above, under := lines[j-1], lines[j]
	wide := false
	for _, h := range hs {
		// (a line's box may reach over a rule right above its text)
		if h.pos > above.bb.Y1-1 && h.pos < under.cy() && math.Min(h.b, x1)-math.Max(h.a, x0) >= 0.9*(x1-x0) {
			wide = true
			break
		}
	}
	reach := gap
	if !wide {
		// no rule: set apart by more than the run's line gap, reaching
		// three gaps past its width
		gaps := make([]float64, 0, j-i)
		for k := i + 1; k < j; k++ {
			gaps = append(gaps, lines[k].bb.Y0-lines[k-1].bb.Y1)
		}
		if under.bb.Y0-above.bb.Y1 < median(gaps)+0.3*under.size {
			return false
		}
		reach = 3 * gap
	}
	out := false
	for k, l := range lines[j:] {
		if k > 0 && l.bb.Y0-lines[j+k-1].bb.Y1 > 0.8*math.Max(l.size, lines[j+k-1].size) {
			return false
		}
		out = out || l.bb.X0 < x0-reach || l.bb.X1 > x1+reach
	}
	return out
}

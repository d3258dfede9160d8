package table

import "math"

// footerUnder: lines[j:] are the page's footer under a table run
// (lines[i:j]): a rule between lines[j-1] and lines[j] reaching past the
// run's several-phrase lines by two gaps or more (the text column's, not
// the table's own rule), and under it at most three lines, the region's
// last, set as close as a paragraph's, reaching a gap past the run's
// lines on one side at least (a footer's parts stand at the text column's
// edges). The run's own rules (under a header, over a total) span the
// table, and its rows stay inside its width.
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
		if h.pos > above.bb.Y1-1 && h.pos < under.cy() && h.a <= x0+gap && h.b >= x1-gap {
			wide = true
			break
		}
	}
	if !wide {
		return false
	}
	out := false
	for k, l := range lines[j:] {
		if k > 0 && l.bb.Y0-lines[j+k-1].bb.Y1 > 0.8*math.Max(l.size, lines[j+k-1].size) {
			return false
		}
		out = out || l.bb.X0 < x0-gap || l.bb.X1 > x1+gap
	}
	return out
}

package table

import (
	"math"

	"github.com/docket-dev/docket/loader/internal/document"
)

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
// (by 0.2 of their size) and reach three gaps past its width.
func footerUnder(lines []*textLine, i, j int, gap float64, hs []rule) bool {
	if j <= i || len(lines)-j > 3 {
		return false
	}
	x0, x1 := math.Inf(1), math.Inf(-1)
	multi := 0
	for _, l := range lines[i:j] {
		if l.nSegments(gap) >= 2 {
			x0, x1 = min(x0, l.bb.X0), max(x1, l.bb.X1)
			multi++
		}
	}
	if multi < 3 {
		return false
	}
	above, under := lines[j-1], lines[j]
	if under.bb.X0 >= x0-2 && under.bb.X1 <= x1+2 && math.Abs(under.size-above.size) <= 0.1*above.size && rowOf(lines[i:j], under, gap) {
		return false // the table's last row (under its last shading or rule), not a footer
	}
	wide := false
	for _, h := range hs {
		// (a line's box may reach over a rule right above its text)
		if h.pos > above.bb.Y1-1 && h.pos < under.cy() && min(h.b, x1)-max(h.a, x0) >= 0.9*(x1-x0) {
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
		if under.bb.Y0-above.bb.Y1 < median(gaps)+0.2*under.size {
			return false
		}
		reach = 3 * gap
	}
	out := false
	for k, l := range lines[j:] {
		if k > 0 && l.bb.Y0-lines[j+k-1].bb.Y1 > 0.8*max(l.size, lines[j+k-1].size) {
			return false
		}
		out = out || l.bb.X0 < x0-reach || l.bb.X1 > x1+reach
	}
	return out
}

// rowOf: l is a row of the run: two phrases or more, each starting or
// ending within 2pt of where a phrase of one of the run's lines of
// several phrases starts or ends (its columns' edges).
func rowOf(run []*textLine, l *textLine, gap float64) bool {
	segs := l.segments(gap)
	if len(segs) < 2 {
		return false
	}
	for _, seg := range segs {
		b := boxOf(seg)
		hit := false
		for _, r := range run {
			if r.nSegments(gap) < 2 {
				continue
			}
			for _, rs := range r.segments(gap) {
				c := boxOf(rs)
				if math.Abs(b.X0-c.X0) <= 2 || math.Abs(b.X1-c.X1) <= 2 {
					hit = true
					break
				}
			}
			if hit {
				break
			}
		}
		if !hit {
			return false
		}
	}
	return true
}

// runningHead: lines[0], the page's first line, is its running head: two
// or three phrases (a page number or a document's name at one edge, a
// section's title at the other), reaching past the lines under it (the
// next twelve) by a gap on one side at least, over a rule across 90% of
// its width; or without a rule, set farther from the next line than half
// its size and reaching three gaps past; and no more than one of its
// phrases lined up with a phrase under it. A table's header row over its
// rule spans no wider than its rows, and its heads stand over their
// columns.
func runningHead(lines []*textLine, gap float64, hs []rule) bool {
	if len(lines) < 4 {
		return false
	}
	h, next := lines[0], lines[1]
	if n := h.nSegments(gap); n < 2 || n > 3 {
		return false
	}
	x0, x1 := math.Inf(1), math.Inf(-1)
	for _, l := range lines[1:min(len(lines), 13)] {
		x0, x1 = min(x0, l.bb.X0), max(x1, l.bb.X1)
	}
	reach := 3 * gap
	for _, r := range hs {
		if r.pos > h.bb.Y1-1 && r.pos < next.cy() && min(r.b, h.bb.X1)-max(r.a, h.bb.X0) >= 0.9*(h.bb.X1-h.bb.X0) {
			reach = gap
			break
		}
	}
	if reach > gap && next.bb.Y0-h.bb.Y1 <= 0.5*h.size {
		return false
	}
	if h.bb.X0 >= x0-reach && h.bb.X1 <= x1+reach {
		return false
	}
	// a header row's phrases stand over its columns (an edge or the
	// middle of each lined up with the rows' phrases); a running head's
	// parts, one at most (at the text column's edge)
	return alignedPhrases(h, lines[1:min(len(lines), 13)], gap) <= 1
}

// alignedPhrases counts the phrases of h lined up with a phrase of the
// lines under it: an edge or the middle of each. The phrases are the
// lines' segments, as nSegments counts them: a column's words that
// markColumnStarts marked start a phrase whatever the gap before them
// (heads a padding or less apart over an unstyled web table's columns,
// "Station Snow (cm) Frost days", were one phrase lined up with none).
func alignedPhrases(h *textLine, lines []*textLine, gap float64) int {
	var under []document.BBox
	for _, l := range lines {
		under = l.appendSegmentBoxes(under, gap)
	}
	aligned := 0
	for _, p := range h.appendSegmentBoxes(nil, gap) {
		for _, u := range under {
			if math.Abs(p.X0-u.X0) <= 2 || math.Abs(p.X1-u.X1) <= 2 || math.Abs(p.X0+p.X1-u.X0-u.X1) <= 4 {
				aligned++
				break
			}
		}
	}
	return aligned
}

// wideHead: h, the first line of a run of table lines, is a running
// head over the table, not its header row, whatever its distance to
// the lines under it: two or three phrases reaching past the rest of
// the run (three lines or more) by three gaps on a side, no more than
// one of them lined up with a phrase of the run. A header row's heads
// stand over their columns; a page's running head spans the text
// column, over a narrower table.
func wideHead(h *textLine, rest []*textLine, gap float64) bool {
	if len(rest) < 3 {
		return false
	}
	if n := h.nSegments(gap); n < 2 || n > 3 {
		return false
	}
	b := boxOf(rest)
	if h.bb.X0 >= b.X0-3*gap && h.bb.X1 <= b.X1+3*gap {
		return false
	}
	return alignedPhrases(h, rest, gap) <= 1
}

package table

import (
	"math"
	"slices"

	"github.com/docket-dev/docket/loader/internal/document"
)

// markLeading sets each word's lead to the page's text leading over its
// size (pageLeading), for telling a table row's pitch from a cell's next
// line (rowPitch).
func markLeading(lines []*textLine) {
	r := uint8(math.Round(100 * pageLeading(lines)))
	for _, l := range lines {
		for _, w := range l.ws {
			w.lead = r
		}
	}
}

// markFramedLeading gives the words inside a frame of rules with no
// horizontal rule inside (a web table's outer border: its lines one band
// that rowSeps cuts into rows as an unruled table's) the page's leading,
// read from all its lines, as the unruled scan gives the words it sees
// (markLeading): rowPitch tells its rows from a cell's next line. Grids
// ruled between rows or groups of rows keep none (a label wrapped a row's
// pitch apart in a band between two rules is one cell: a rate sheet's
// "(Loan to Valuation Ratio" over "70.01% – 80%)").
func markFramedLeading(gs []grid, ws []*word) {
	var frames []document.BBox
	for _, g := range gs {
		if len(g.hs) == 2 {
			frames = append(frames, g.bb)
		}
	}
	if len(frames) == 0 {
		return
	}
	r := uint8(math.Round(100 * pageLeading(lineUp(ws))))
	for _, w := range ws {
		for _, f := range frames {
			if w.cx() > f.X0 && w.cx() < f.X1 && w.cy() > f.Y0 && w.cy() < f.Y1 {
				w.lead = r
				break
			}
		}
	}
}

// pageLeading is the step from a line to the next in the same size,
// sharing some of its width, over that size: the least of the steps
// between 0.9 and 2 sizes that another one repeats (within 0.01 of a
// size: a paragraph's or a wrapped cell's lines stand exactly a leading
// apart), or the lower quartile of them when it is less (eight steps at
// least, most of them a paragraph's lines, the rest rows or paragraphs
// set apart); 0 when neither is found. The repeated least step finds
// the leading on a page with little running text, whose steps are
// mostly a table's rows (the lower quartile read the rows' pitch as the
// leading, and fewer than eight steps gave none).
func pageLeading(lines []*textLine) float64 {
	var rs []float64
	for i := 1; i < len(lines); i++ {
		a, b := lines[i-1], lines[i]
		if math.Abs(a.size-b.size) > 0.05*a.size || b.bb.X0 >= a.bb.X1 || a.bb.X0 >= b.bb.X1 {
			continue
		}
		if r := (b.bb.Y0 - a.bb.Y0) / a.size; r >= 0.9 && r <= 2 {
			rs = append(rs, r)
		}
	}
	slices.Sort(rs)
	lead := 0.0
	if len(rs) >= 8 {
		lead = rs[len(rs)/4]
	}
	for i := 1; i < len(rs); i++ {
		if rs[i]-rs[i-1] <= 0.01 {
			if lead == 0 || rs[i-1] < lead {
				lead = rs[i-1]
			}
			break
		}
	}
	return lead
}

// rowPitch: line l stands below prev a row's pitch apart, further than
// the page's leading by margin of a size or more (a cell's padding, 1px
// at least, sets rows further apart than a cell's lines: 0.75pt, 0.08 of
// a 9pt size, in a browser's table of 1px padding). With the lead hidden
// (hideLead) it is false, as with no lead known, and a true answer it
// would have given is noted on the line's first word (leadAsked).
func rowPitch(prev, l *textLine, margin float64) bool {
	if !pitchApart(prev, l, margin) {
		return false
	}
	if w := l.ws[0]; w.leadHidden {
		w.leadAsked = true
		return false
	}
	return true
}

// pitchApart is rowPitch by the words' lead, hidden or not.
func pitchApart(prev, l *textLine, margin float64) bool {
	r := float64(l.ws[0].lead) / 100
	size := max(prev.size, l.size)
	return r > 0 && l.bb.Y0-prev.bb.Y0 >= (r+margin)*size
}

// hideLead gives the words ws[0]'s lead (the page's: one for all) and
// hides it: the lead-dependent tests (rowPitch, pitchedBand) answer as
// with no lead known, as if it were 0, and note on the words where the
// lead would have changed their answer (see leadShown).
func hideLead(ws []*word) {
	if len(ws) == 0 {
		return
	}
	lead := ws[0].lead
	for _, w := range ws {
		w.lead, w.leadHidden, w.leadAsked = lead, true, false
	}
}

// leadShown shows the lead hideLead hid again and says whether a test
// would have answered otherwise with it: if not, whatever was computed
// meanwhile is what the words with their lead give (every test that
// reads the lead answered as it would have, so nothing took another
// course).
func leadShown(ws []*word) (asked bool) {
	for _, w := range ws {
		asked = asked || w.leadAsked
		w.leadHidden, w.leadAsked = false, false
	}
	return asked
}

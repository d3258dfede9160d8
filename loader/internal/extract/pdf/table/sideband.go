package table

import (
	"math"

	"github.com/docket-dev/docket/loader/internal/document"
)

// sideGutter is the least whitespace, in column gaps, between a header
// band's table and a block of text beside it (a column gap of one table
// is narrower, as gutterRegions has it).
const sideGutter = 1.5

// sideBody reads the table under a header band box that has another
// block beside it (a table or a paragraph, see headerBand) from the
// band's column alone: the free words inside the band's width, from a
// caption just above it (up to four lines) down to the first line that
// runs out of that width (a paragraph across the page). Read with the
// block beside, the lines of the two interleave and one table takes the
// other's row labels. The blocks either side of the column, over the
// same height, are then read each alone (in its own text size, as
// gutterRegions reads two blocks side by side); the rest of the page is
// the caller's. It returns nothing when the column holds no table; else
// the column's words are marked used (its caption and notes stay out of
// the tables beside; the caller's restore, or the page's next call,
// clears them).
func (d *Detector) sideBody(ws []*word, box document.BBox, hs, vs []rule) []document.Table {
	in := freeWords(ws, &box)
	if len(in) == 0 {
		return nil
	}
	size := medianSize(in)
	inWidth := func(w *word) bool { return w.bb.X0 >= box.X0-size && w.bb.X1 <= box.X1+size }
	above, end := math.Inf(-1), math.Inf(1)
	for _, w := range ws {
		if w.used || inWidth(w) || w.bb.X1 <= box.X0 || w.bb.X0 >= box.X1 {
			continue // not across the column's edges
		}
		if w.cy() > box.Y1 {
			end = min(end, w.bb.Y0)
		} else if w.cy() < box.Y0 {
			above = max(above, w.bb.Y1)
		}
	}
	top := max(above, box.Y0-4*size)
	var col, left, right []*word
	for _, w := range ws {
		if w.used || w.cy() <= above || w.cy() >= end {
			continue
		}
		switch {
		case inWidth(w):
			if w.cy() > top {
				col = append(col, w)
			}
		case w.bb.X1 <= box.X0:
			left = append(left, w)
		case w.bb.X0 >= box.X1:
			right = append(right, w)
		}
	}
	var body []*textLine
	for _, l := range lineUp(col) {
		if l.cy() > box.Y0 {
			body = append(body, l)
		}
	}
	body = bodyLines(body, phraseGap(size))
	if len(body) < 3 {
		return nil
	}
	// the band is layout evidence, as rules above and below are: a body
	// of words only is a table under it
	t, ok := d.textTable(body, hs, vs, true)
	if !ok {
		return nil
	}
	for _, w := range col {
		w.used = true
	}
	out := []document.Table{t}
	for _, blk := range [][]*word{left, right} {
		alone(ws, blk, func() { out = append(out, d.unruled(ws, hs, vs)...) })
	}
	return out
}

// alone runs read with the free words of ws outside blk hidden (marked
// used), and shows them again after.
func alone(ws, blk []*word, read func()) {
	in := make(map[*word]bool, len(blk))
	for _, w := range blk {
		in[w] = true
	}
	var hidden []*word
	for _, w := range ws {
		if !w.used && !in[w] {
			w.used = true
			hidden = append(hidden, w)
		}
	}
	read()
	for _, w := range hidden {
		w.used = false
	}
}

// bodyLines are the lines of a header band and its body, from the band's
// first line down to the last row (a line of several phrases) before a
// gap of two lines or a caption, and the lines of one phrase just under
// it (a leading or the rows' usual gap apart) that start where a row's
// first phrase or a label above starts (a total row); a note under the
// table starts elsewhere.
func bodyLines(lines []*textLine, gap float64) []*textLine {
	last := -1
	for k, l := range lines {
		if k > 0 {
			prev := lines[k-1]
			if l.bb.Y0-prev.bb.Y1 > 1.8*max(l.size, prev.size) || lineIsCaption(l) {
				break
			}
		}
		if l.nSegments(gap) >= 2 {
			last = k
		}
	}
	if last < 0 {
		return nil
	}
	starts := map[float64]bool{}
	var gaps []float64
	for k, l := range lines[:last+1] {
		starts[math.Round(l.bb.X0)] = true
		if k > 0 {
			gaps = append(gaps, l.bb.Y0-lines[k-1].bb.Y1)
		}
	}
	usual := 0.0
	if len(gaps) > 0 {
		usual = median(gaps)
	}
	for k := last + 1; k < len(lines); k++ {
		l, prev := lines[k], lines[k-1]
		x := math.Round(l.bb.X0)
		if d := l.bb.Y0 - prev.bb.Y1; d > 0.8*max(l.size, prev.size) && d > 1.3*usual+1 || lineIsCaption(l) ||
			!starts[x] && !starts[x-1] && !starts[x+1] {
			break
		}
		last = k
	}
	return lines[:last+1]
}

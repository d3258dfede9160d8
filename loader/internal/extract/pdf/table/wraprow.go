package table

import (
	"math"

	"github.com/docket-dev/docket/loader/internal/document"
)

// wrappedRowAbove: how many of the lines ls (top to bottom) just above a
// stack's first rule at top make one row whose cells wrap, 0 when they do
// not: a line of two phrases or more, inside the stack's extent, in the
// table's size, and under it up to three lines of one phrase each, each
// the next line of one of its cells (aligned with that phrase's start,
// end or middle, inside the room between its neighbours), all as close
// to each other and to the rule as a line's size. A zebra table's first
// row is unshaded: its text stands over the first shading's top edge,
// and a cell wrapped there leaves one phrase on the line over the rule.
func wrappedRowAbove(ls []*textLine, top float64, s stack, size float64) int {
	gap := phraseGap(size)
	lim := top
	for n := 1; n <= 4 && n <= len(ls); n++ {
		l := ls[len(ls)-n]
		if l.bb.X0 < s.a-2 || l.bb.X1 > s.b+2 || lim-l.bb.Y1 > l.size || lim-l.bb.Y1 < -0.5*l.size || math.Abs(l.size-size) > 0.1*size {
			return 0
		}
		lim = l.bb.Y0
		if l.nSegments(gap) == 1 {
			continue
		}
		if n == 1 {
			return 0 // the line over the rule has its phrases: heads or a row, read as before
		}
		segs := l.segments(gap)
		for _, w := range ls[len(ls)-n+1:] {
			if !wrapsIn(boxOf(w.ws), segs) {
				return 0
			}
		}
		return n
	}
	return 0
}

// wrapsIn: b is the next line of one of the phrases segs: aligned with
// its start, end or middle (2pt) and inside the room between the phrases
// beside it.
func wrapsIn(b document.BBox, segs [][]*word) bool {
	for k, seg := range segs {
		p := boxOf(seg)
		if !inRoom(b, segs, k) {
			continue
		}
		if math.Abs(b.X0-p.X0) <= 2 || math.Abs(b.X1-p.X1) <= 2 || math.Abs(b.X0+b.X1-p.X0-p.X1) <= 4 {
			return true
		}
	}
	return false
}

// inRoom: b stands inside the room between the phrases beside segs[k]
// (clear of the one before and the one after; a line's end is open).
func inRoom(b document.BBox, segs [][]*word, k int) bool {
	return (k == 0 || b.X0 > boxOf(segs[k-1]).X1) && (k+1 == len(segs) || b.X1 < boxOf(segs[k+1]).X0)
}

// wrappedUnder: the bottom of the last row whose first line is l (ls[0]'s
// part in the extent) and the index in ls of the line after it. Up to
// three lines under l are its cells' next lines: each inside the extent,
// one phrase, a leading under the line above (half a size apart at most),
// wrapping in one of l's cells (wrapsIn), the row no taller than a band
// (pitch) and half a size, and half a band at least (the rules a page's
// running head and foot stand on make a band of the whole page, no row).
func wrappedUnder(s stack, ls []*textLine, l *textLine, bottom, size, pad, pitch float64) (float64, int) {
	y1, k := l.bb.Y1, 1
	segs := l.segments(pad)
	for ; k < len(ls) && k <= 3; k++ {
		n, ok := partIn(ls[k], s.a-2, s.b+2, 2*pad)
		if !ok || n == nil || n != ls[k] || n.bb.Y0-y1 > 0.5*size || n.bb.Y1-bottom > pitch+0.5*size ||
			n.nSegments(pad) != 1 || !wrapsIn(boxOf(n.ws), segs) {
			break
		}
		y1 = n.bb.Y1
	}
	if k > 1 && y1-l.bb.Y0 < 0.5*pitch {
		return l.bb.Y1, 1 // bands far taller than the row: they are no rows like it (a page's head and foot rules)
	}
	return y1, k
}

// wrapsAligned: l, a leading under prev (half a size apart at most), is
// the next line of a cell of row, the run's last line of several phrases,
// set flush right: one phrase ending where one of row's phrases ends
// (2pt), starting right of its start and inside the room between its
// neighbours (a right-aligned name's "excl. VAT" under "Ms Haddad").
// Lines starting where a phrase starts are inColumn's and wrappedOn's; a
// line centred under a phrase by chance is as often a list's or a note's
// (not taken).
func wrapsAligned(row, prev, l *textLine, gap float64) bool {
	if l.bb.Y0-prev.bb.Y1 > 0.5*max(l.size, prev.size) || l.nSegments(gap) != 1 || listMarker(l.ws[:1]) {
		return false // (a list's item under the table is no cell's line)
	}
	segs := row.segments(gap)
	for k, seg := range segs {
		p := boxOf(seg)
		if l.bb.X0 <= p.X0+2 {
			continue
		}
		if math.Abs(l.bb.X1-p.X1) <= 2 && inRoom(l.bb, segs, k) {
			return true
		}
	}
	return false
}

package table

import (
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"
)

// gutterRegions cuts a page's lines (top to bottom) into the regions the
// unruled detector scans one by one: where two blocks of text stand side
// by side (two tables, or a table beside a paragraph or beside another
// table's notes) with baselines of their own, each block is lined up on
// its own. Lined up together, a line of one block would join the other
// block's row at that height: the runs of aligned lines break where a
// block has a line the other has not, and the two blocks' rows merge.
//
// A block pair is a run of consecutive lines that leave one stretch of
// whitespace (the gutter, 1.5 column gaps wide or more) free all the way
// down, with text on both sides, whose two sides' lines rarely share a
// baseline (under half of either side's lines sit on one of the other's,
// or half-way between two of its lines that are one cell's wrapped lines:
// numbers centred beside a wrapped label), that both have words (not
// numbers or dashes only), that stand beside each other,
// not one above the other, and of which one has three rows (lines of
// several phrases) on baselines of its own: a table's wrapped column
// heads are a line or two; or of which one side is running text (see
// runningText: a paragraph set at the rows' pitch shares their baselines)
// beside three rows or more. The rows of one table share
// their baselines across every column gap, so a table is never cut.
// A run starts on a line with text on both sides of a gap (a line of
// prose above two blocks leaves a gap only beside its end). Lines
// outside such runs stay as they are, a region between the runs.
func gutterRegions(lines []*textLine, taken []*word, size, gap float64) [][]*textLine {
	minG := 1.5 * gap
	spans := make([][]span, len(lines))
	multi := false
	for i, l := range lines {
		spans[i] = phraseSpans(l, minG)
		multi = multi || len(spans[i]) >= 2
	}
	if !multi {
		return [][]*textLine{lines}
	}
	var out [][]*textLine
	start := 0         // first line not yet in a region
	var tried []gutter // gutters that did not split, from their first line down
	var buf gutterBuf
	for i := 0; i < len(lines); i++ {
		if len(spans[i]) < 2 {
			continue // a run starts on a line with text either side of its gutter
		}
		gs := buf.run(lines, spans, i, minG)
		n := 0
		for _, g := range gs {
			if !triedAt(tried, g, i) && !tableAbove(lines, spans, i, g.g) {
				gs[n] = g
				n++
			}
		}
		left, right, end := splitOnGutter(lines, i, gs[:n], taken, size, gap)
		if left == nil {
			tried = append(tried, gs[:min(n, 3)]...)
			continue
		}
		k := headsOnASide(lines, start, i, left, right)
		if k == i && i > start {
			if l, r, ok := splitHead(lines[i-1], lines[i], left, right); ok {
				// the line above shares its baseline across the gutter: a
				// table floated beside a paragraph, its head row level
				// with the paragraph's first line
				left = append([]*textLine{l}, left...)
				right = append([]*textLine{r}, right...)
				k = i - 1
				if k > start {
					out = append(out, lines[start:k])
				}
				out = append(out, left, right)
				start, i = end, end-1
				continue
			}
		}
		if k < i {
			if lines[k].bb.X0 >= boxOf(right).X0-1 {
				right = append(append([]*textLine(nil), lines[k:i]...), right...)
			} else {
				left = append(append([]*textLine(nil), lines[k:i]...), left...)
			}
		}
		if k > start {
			out = append(out, lines[start:k])
		}
		out = append(out, left, right)
		start, i = end, end-1
	}
	if start < len(lines) {
		out = append(out, lines[start:])
	}
	return out
}

// headsOnASide is where the lines just above lines[i] (from start on)
// that head one of two blocks split apart from line i down begin: up to
// three lines, each a leading above the next, inside that block's width
// and clear of the other's (column heads wrapped above a table beside a
// paragraph, whose first line has text both sides of the gutter only
// from the table's first row down). It returns i when there are none.
func headsOnASide(lines []*textLine, start, i int, left, right []*textLine) int {
	lb, rb := boxOf(left), boxOf(right)
	side := 0 // 1: left block, 2: right block
	k := i
	for k > start && i-k < 3 {
		l, next := lines[k-1], lines[k]
		if next.bb.Y0-l.bb.Y1 > 0.8*max(l.size, next.size) {
			break
		}
		s := 0
		switch size := l.size; {
		case l.bb.X0 >= rb.X0-size && l.bb.X1 <= rb.X1+size && l.bb.X0 > lb.X1:
			s = 2
		case l.bb.X0 >= lb.X0-size && l.bb.X1 <= lb.X1+size && l.bb.X1 < rb.X0:
			s = 1
		}
		if s == 0 || side != 0 && s != side {
			break
		}
		side = s
		k--
	}
	return k
}

// splitHead cuts l, the line right above two blocks split apart (a
// leading over next at most), at the gutter between them: its words end
// before the right block's start and inside the left block's width on
// the left, start right of the left block's end and within a size of the
// right block's start on the right (a head row wider than the rows under
// it may reach past them), both sides set. It gives the two parts as
// lines of their own.
func splitHead(l, next *textLine, left, right []*textLine) (*textLine, *textLine, bool) {
	if next.bb.Y0-l.bb.Y1 > 0.8*max(l.size, next.size) {
		return nil, nil, false
	}
	lb, rb := boxOf(left), boxOf(right)
	k := 0
	for k < len(l.ws) && l.ws[k].bb.X1 <= lb.X1+l.size && l.ws[k].bb.X1 < rb.X0 {
		k++
	}
	if k == 0 || k == len(l.ws) {
		return nil, nil, false
	}
	a, b := l.ws[:k], l.ws[k:]
	if b[0].bb.X0 <= lb.X1 || b[0].bb.X0 < rb.X0-l.size || a[0].bb.X0 < lb.X0-l.size {
		return nil, nil, false
	}
	la, lb2 := lineUp(append([]*word(nil), a...)), lineUp(append([]*word(nil), b...))
	if len(la) != 1 || len(lb2) != 1 {
		return nil, nil, false
	}
	return la[0], lb2[0], true
}

// triedAt: a gutter over g's stretch was tried from a line above i and
// runs past it (what it would not split, a run starting lower down in it
// splits only by leaving out the lines that said one table: its header).
func triedAt(tried []gutter, g gutter, i int) bool {
	for _, t := range tried {
		if t.end > i && t.g.a < g.g.b && g.g.a < t.g.b {
			return true
		}
	}
	return false
}

// tableAbove: the first of the lines just above lines[i] (up to three,
// each a leading above the next) with a phrase across the stretch g has
// several phrases: a table's header running over it (over a stub column
// and the columns right of it), so the stretch is a column gap of that
// table, not a gutter between two blocks. A paragraph above two blocks
// is one phrase.
func tableAbove(lines []*textLine, spans [][]span, i int, g span) bool {
	mid := (g.a + g.b) / 2
	for k := i - 1; k >= 0 && k >= i-3; k-- {
		l := lines[k]
		if lines[k+1].bb.Y0-l.bb.Y1 > l.size {
			return false
		}
		ps := spans[k]
		for _, p := range ps {
			if p.a < mid && p.b > mid {
				return len(ps) >= 2
			}
		}
	}
	return false
}

// gutter is a stretch of whitespace free from lines[i] down to the line
// before end.
type gutter struct {
	g   span
	end int
}

// gutterBuf holds gutterRun's working space from one start to the next.
type gutterBuf struct {
	occ, next, gaps []span
	gs              []gutter
}

// run follows the whitespace stretches of minG or more between the
// phrases (words closer than minG joined; spans[j] are lines[j]'s) of
// lines[i] and the lines below it, narrowing as lines come, each down to
// the last line it passes (a stretch becomes one when a line brings text
// beyond it); it returns those with four lines or more, the widest first.
func (b *gutterBuf) run(lines []*textLine, spans [][]span, i int, minG float64) []gutter {
	b.occ = append(b.occ[:0], spans[i]...)
	b.gs = b.gs[:0]
	b.gaps = interiorGaps(b.gaps[:0], b.occ, minG)
	for _, g := range b.gaps {
		b.gs = append(b.gs, gutter{g, i + 1})
	}
	for j := i + 1; j < len(lines); j++ {
		b.next = unionSpans(b.next[:0], b.occ, spans[j])
		b.occ, b.next = b.next, b.occ
		b.gaps = interiorGaps(b.gaps[:0], b.occ, minG)
		if len(b.gaps) == 0 {
			break
		}
		for _, g := range b.gaps {
			found := false
			for k := range b.gs {
				if b.gs[k].end == j && g.a >= b.gs[k].g.a && g.b <= b.gs[k].g.b {
					b.gs[k] = gutter{g, j + 1}
					found = true
				}
			}
			if !found { // a stretch that text beyond it has made interior
				b.gs = append(b.gs, gutter{g, j + 1})
			}
		}
	}
	out := b.gs[:0]
	for _, g := range b.gs {
		if g.end-i >= 4 {
			out = append(out, g)
		}
	}
	sort.Slice(out, func(x, y int) bool { return out[x].g.b-out[x].g.a > out[y].g.b-out[y].g.a })
	return out
}

// phraseSpans are a line's horizontal extents of words closer than g.
func phraseSpans(l *textLine, g float64) []span {
	var out []span
	for _, w := range l.ws {
		if n := len(out); n > 0 && w.bb.X0-out[n-1].b < g {
			out[n-1].b = max(out[n-1].b, w.bb.X1)
			continue
		}
		out = append(out, span{w.bb.X0, w.bb.X1})
	}
	return out
}

// unionSpans appends to out the union of two sorted lists of disjoint
// spans, sorted and disjoint.
func unionSpans(out, a, b []span) []span {
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		var s span
		if j == len(b) || i < len(a) && a[i].a <= b[j].a {
			s, i = a[i], i+1
		} else {
			s, j = b[j], j+1
		}
		if n := len(out); n > 0 && s.a <= out[n-1].b {
			out[n-1].b = max(out[n-1].b, s.b)
			continue
		}
		out = append(out, s)
	}
	return out
}

// interiorGaps appends to out the whitespace stretches of minG or more
// between sorted disjoint spans.
func interiorGaps(out, u []span, minG float64) []span {
	for k := 1; k < len(u); k++ {
		if u[k].a-u[k-1].b >= minG {
			out = append(out, span{u[k-1].b, u[k].a})
		}
	}
	return out
}

// splitOnGutter tries the gutters from lines[i] (widest first, three at
// most) and returns the lines of the two blocks either side of the first
// whose sides keep baselines of their own, and the end of its run; or nil.
func splitOnGutter(lines []*textLine, i int, gs []gutter, taken []*word, size, gap float64) (left, right []*textLine, end int) {
	for k, g := range gs {
		if k == 3 {
			break
		}
		x := (g.g.a + g.g.b) / 2
		if !wordedSides(lines[i:g.end], x) {
			continue // worded fails on a side below: not worth lining up
		}
		parts := splitAt(lines[i:g.end], x)
		l, r := parts[0], parts[1]
		if len(l) == 0 || len(r) == 0 || len(l)+len(r) < 5 || !worded(l) || !worded(r) || !besideEachOther(l, r) {
			continue
		}
		tol := max(1, 0.12*size) // cells of a row share a baseline to a point
		sl, rowsL := sharedBaselines(l, r, tol, gap)
		sr, rowsR := sharedBaselines(r, l, tol, gap)
		own := 2*sl < len(l) && 2*sr < len(r) && max(rowsL, rowsR) >= 3
		if !own && (runningText(l, gap) && rows(r, gap) >= 3 || runningText(r, gap) && rows(l, gap) >= 3) {
			own = true // a paragraph set at the rows' pitch shares their baselines
		}
		if own && compact(l, taken, x, true) && compact(r, taken, x, false) {
			return l, r, g.end
		}
	}
	return nil, nil, 0
}

// compact: the lines follow one another with no gap over three lines
// tall, but where a table already found (its words in taken) fills the
// gap on their side of the gutter at x and not on the other (left: the
// lines' side is left of x): a block of text or a table's rows, or a
// caption and notes around a ruled table beside, not values set one per
// section in cells spanning a table's rows.
func compact(ls []*textLine, taken []*word, x float64, left bool) bool {
	for k := 1; k < len(ls); k++ {
		a, b := ls[k-1], ls[k]
		if b.bb.Y0-a.bb.Y1 <= 3*max(a.size, b.size) {
			continue
		}
		mine, other := false, false
		for _, w := range taken {
			if cy := w.cy(); cy > a.bb.Y1 && cy < b.bb.Y0 {
				if (w.cx() < x) == left {
					mine = true
				} else {
					other = true
				}
			}
		}
		if !mine || other {
			return false
		}
	}
	return true
}

// worded: two of the lines have a word of letters (a block of its own
// has labels or text; numbers or dashes alone are more columns of a
// table beside, set in cells spanning its rows).
func worded(ls []*textLine) bool {
	n := 0
	for _, l := range ls {
		for _, w := range l.ws {
			if len(w.text) >= 2 && isWordOfLetters(w.text) {
				n++
				break
			}
		}
	}
	return n >= 2
}

// wordedSides: each side of x has two words of letters (as worded counts
// them, and as splitAt divides the words): worded needs two lines with
// one, on each side of the gutter, whatever lines splitAt makes of the
// words. Checked first, it spares lining up each side (two lineUps) for
// a gutter with numbers only on a side (between a table's columns).
func wordedSides(lines []*textLine, x float64) bool {
	nl, nr := 0, 0
	for _, l := range lines {
		for _, w := range l.ws {
			if len(w.text) < 2 || !isWordOfLetters(w.text) {
				continue
			}
			if w.cx() < x {
				nl++
			} else {
				nr++
			}
			if nl >= 2 && nr >= 2 {
				return true
			}
		}
	}
	return false
}

// besideEachOther: the two blocks stand side by side, not one above the
// other (a table's column heads over its stub's group labels): half the
// lines of the block with fewer, one at least, lie within the other's
// height.
func besideEachOther(a, b []*textLine) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	top, bottom := b[0].bb.Y0, b[len(b)-1].bb.Y1
	n := 0
	for _, l := range a {
		if cy := l.cy(); cy > top && cy < bottom {
			n++
		}
	}
	return n >= 1 && 2*n >= len(a)
}

// sharedBaselines counts the lines of a whose baseline is one of b's
// (within tol), or half-way between two lines of b that are one cell's
// wrapped lines (one phrase each, starting at one x, a leading apart: a
// number centred beside a wrapped label), or that are one phrase on a
// line apart, half-way between two lines of b a leading apart (a stub's
// group label centred on its group's two rows); and the lines of a with several
// phrases (gap apart) that share none: rows of a table of their own.
func sharedBaselines(a, b []*textLine, tol, gap float64) (shared, rows int) {
	ys := make([]float64, 0, 2*len(b)) // b's baselines and wrapped cells' middles
	var mids []float64                 // middles of two rows a leading apart
	for k, o := range b {
		ys = append(ys, baseline(o))
		if k+1 < len(b) {
			p := b[k+1]
			if p.bb.Y0-o.bb.Y1 >= 0.5*o.size {
				continue
			}
			m := (baseline(o) + baseline(p)) / 2
			if math.Abs(p.bb.X0-o.bb.X0) <= 1 && o.nSegments(gap) == 1 && p.nSegments(gap) == 1 {
				ys = append(ys, m)
			} else {
				mids = append(mids, m)
			}
		}
	}
	sort.Float64s(ys)
	for j, l := range a {
		y := baseline(l)
		k := sort.SearchFloat64s(ys, y-tol)
		switch {
		case k < len(ys) && ys[k] <= y+tol:
			shared++
		case lineApart(a, j) && l.nSegments(gap) == 1 && slices.ContainsFunc(mids, func(m float64) bool { return math.Abs(m-y) <= tol }):
			shared++ // a group's label centred on its two rows
		case l.nSegments(gap) >= 2:
			rows++
		}
	}
	return shared, rows
}

// lineApart: ls[j] is more than a line's height from the lines just
// above and below it (a group's label on a line of its own, not one
// line of a cell wrapped over several).
func lineApart(ls []*textLine, j int) bool {
	l := ls[j]
	return (j == 0 || l.bb.Y0-ls[j-1].bb.Y1 > 0.8*l.size) &&
		(j == len(ls)-1 || ls[j+1].bb.Y0-l.bb.Y1 > 0.8*l.size)
}

// baseline is the lower edge of most of a line's words (the median; a
// glyph with an odd box, a minus sign drawn low, moves the line's box
// but not this).
func baseline(l *textLine) float64 {
	if len(l.ws) == 1 {
		return l.ws[0].bb.Y1
	}
	ys := make([]float64, len(l.ws))
	for i, w := range l.ws {
		ys[i] = w.bb.Y1
	}
	return median(ys)
}

// runningText: the lines are running text, not a table's cells: three and
// more, all but one of them one phrase of five words or more starting at
// the block's left edge and reaching across most of its width (the last
// line may stop short), the text running on from line to line (no line
// but the first starts with a capital unless the line above ends a
// sentence, one exception in five lines allowed: a name). A table's
// column of descriptions starts each cell with a capital.
func runningText(ls []*textLine, gap float64) bool {
	if len(ls) < 3 {
		return false
	}
	x0, x1 := math.Inf(1), math.Inf(-1)
	for _, l := range ls {
		x0, x1 = min(x0, l.bb.X0), max(x1, l.bb.X1)
	}
	n, breaks := 0, 0
	for k, l := range ls {
		full := k == len(ls)-1 || l.bb.X1-x0 >= 0.75*(x1-x0)
		if l.nSegments(gap) == 1 && len(l.ws) >= 5 && l.bb.X0-x0 <= 1 && full {
			n++
		}
		if k > 0 {
			prev := ls[k-1].ws[len(ls[k-1].ws)-1].text
			first := []rune(l.ws[0].text)[0]
			if unicode.IsUpper(first) && !strings.ContainsAny(prev[len(prev)-1:], ".:;!?") {
				breaks++
			}
		}
	}
	return n >= 3 && n >= len(ls)-1 && 5*breaks <= len(ls)
}

// rows counts the lines of several phrases (gap apart).
func rows(ls []*textLine, gap float64) int {
	n := 0
	for _, l := range ls {
		if l.nSegments(gap) >= 2 {
			n++
		}
	}
	return n
}

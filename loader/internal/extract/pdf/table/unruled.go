package table

import (
	"math"
	"sort"
	"unicode"
)

// splitRun cuts a run of aligned lines where one table ends and another
// begins: at a vertical gap wider than the run's usual line gap, when the
// lines on one side cross the column gaps of the other (two or more lines,
// at least half of that side's lines with several phrases) and each side
// has at least three such lines. A spanning header or a total row crosses
// a gap too, but they are one or two lines on one side, never a table.
// A gap holding one rule across the run, wider than usual by less than
// 0.6 of a line's size, between two lines of values (two numbers each),
// is a group rule inside a table (two tables stacked leave the bottom
// rule of one and the top rule of the other between them, or none, or
// stand farther apart; the next table starts with its heads); two rules
// apart in one gap (rulesApart) cut the run there. A run whose first line
// comes again at the start of a later one is cut there first
// (repeatedHead: the later line is another table's heads), and a run
// whose rules (a zebra table's shadings) change extent next (fillSwitch).
// A gap under which every line starts a size or more right of the lines
// above, its phrases not lined up with theirs, parts an indented second
// table from the first (indentedTail).
func splitRun(run []*textLine, multi []bool, gap float64, hs []rule) [][]*textLine {
	if k := repeatedHead(run); k > 0 {
		return append([][]*textLine{run[:k]}, splitRun(run[k:], multi[k:], gap, hs)...)
	}
	if len(run) < 6 {
		return [][]*textLine{run}
	}
	if k := fillSwitch(run, multi, hs, gap); k > 0 {
		return append(splitRun(run[:k], multi[:k], gap, hs), splitRun(run[k:], multi[k:], gap, hs)...)
	}
	gaps := make([]float64, 0, len(run)-1)
	for k := 1; k < len(run); k++ {
		gaps = append(gaps, run[k].bb.Y0-run[k-1].bb.Y1)
	}
	usual := median(gaps)
	// candidate cuts: gaps wider than usual, widest
	// first; a few are tried (each costs two column profiles)
	var cand []int
	for k := 3; k+3 <= len(run); k++ {
		g := gaps[k-1]
		if g > 1.3*usual+1 && countTrue(multi[:k]) >= 3 && countTrue(multi[k:]) >= 3 && !groupRule(hs, run, k, g-usual) && !centredRowsMeet(run, k, gap) {
			cand = append(cand, k)
		}
	}
	sort.Slice(cand, func(a, b int) bool { return gaps[cand[a]-1] > gaps[cand[b]-1] })
	for i, k := range cand {
		if i == 4 {
			break
		}
		above, below := multiLines(run[:k], multi[:k]), multiLines(run[k:], multi[k:])
		if rulesApart(hs, run, k) || crossesColumns(below, above, gap) || crossesColumns(above, below, gap) || indentedTail(run, k, gap) {
			return append(splitRun(run[:k], multi[:k], gap, hs), splitRun(run[k:], multi[k:], gap, hs)...)
		}
	}
	if k := columnSwitch(run, multi, gap); k > 0 {
		return append(splitRun(run[:k], multi[:k], gap, hs), splitRun(run[k:], multi[k:], gap, hs)...)
	}
	if k := ruleSwitch(run, multi, hs); k > 0 {
		return splitRun(run[:k], multi[:k], gap, hs)
	}
	return [][]*textLine{run}
}

// groupRule: one rule lies between run[k-1] and run[k] across most of
// the run's width, their gap is wider than usual by extra, less than 0.6
// of their size, and each holds two numbers.
func groupRule(hs []rule, run []*textLine, k int, extra float64) bool {
	if extra >= 0.6*max(run[k-1].size, run[k].size) || !twoNumeric(run[k-1:k]) || !twoNumeric(run[k:k+1]) {
		return false
	}
	b := boxOf(run)
	n := 0
	for _, h := range hs {
		if h.pos > run[k-1].cy() && h.pos < run[k].cy() && min(h.b, b.X1)-max(h.a, b.X0) > 0.9*(b.X1-b.X0) {
			n++
		}
	}
	return n == 1
}

// rulesApart: two or more rules at different heights (2pt apart) lie
// between run[k-1] and run[k], each under some of the lines' text: one
// table's bottom rule and the next one's top rule (and any between), where
// a table's own rules stand one to a gap.
func rulesApart(hs []rule, run []*textLine, k int) bool {
	b := boxOf(run)
	return rulesBetween(hs, run[k-1].bb.Y1, run[k].bb.Y0, b.X0, b.X1) >= 2
}

// rulesBetween counts the heights (2pt apart) of the rules strictly
// between y0 and y1 that reach into x0..x1.
func rulesBetween(hs []rule, y0, y1, x0, x1 float64) int {
	var at []float64
	for _, h := range hs {
		if h.pos <= y0 || h.pos >= y1 || h.b <= x0 || h.a >= x1 {
			continue
		}
		apart := true
		for _, p := range at {
			apart = apart && math.Abs(p-h.pos) > 2
		}
		if apart {
			at = append(at, h.pos)
		}
	}
	return len(at)
}

func multiLines(ls []*textLine, multi []bool) []*textLine {
	var out []*textLine
	for i, l := range ls {
		if multi[i] {
			out = append(out, l)
		}
	}
	return out
}

// crossesColumns: at least two lines of a, and half of them, have a
// phrase across the middle of one of b's column gaps (within b's width),
// other than one starting where the column starts and ending half a gap
// short of the next.
func crossesColumns(a, b []*textLine, gap float64) bool {
	cols := columns(b, gap)
	n := 0
	for _, l := range a {
		hit := false
		for _, seg := range l.segments(gap) {
			sb := boxOf(seg)
			for k := 0; k+1 < len(cols) && !hit; k++ {
				mid := (cols[k].b + cols[k+1].a) / 2
				// a phrase starting where b's column starts and ending
				// well short of the next is a longer cell of that column
				// ("shared with" over "low"), not across the gap
				longer := math.Abs(sb.X0-cols[k].a) <= 2 && sb.X1 < cols[k+1].a-gap/2
				hit = sb.X0 < mid-0.5 && sb.X1 > mid+0.5 && !longer
			}
			if hit {
				break
			}
		}
		if hit {
			n++
		}
	}
	return n >= 2 && 2*n >= len(a)
}

// besideParagraph returns lines[top:end] without a paragraph that runs
// beside the table: the last (or first) phrases of the lines, aligned on
// one left edge, mostly running text, and with a line of their own above
// or below everything else of the table (the paragraph goes on where the
// table is not). Lines left empty are dropped.
func besideParagraph(lines []*textLine, top, end int, gap float64) []*textLine {
	cand := lines[top:end]
	for _, right := range []bool{true, false} {
		var edgeSegs [][]*word
		var next []float64 // left side: where the phrase after each starts
		nMulti := 0
		for _, l := range cand {
			segs := l.segments(gap)
			if len(segs) < 2 {
				continue
			}
			nMulti++
			s := segs[0]
			if right {
				s = segs[len(segs)-1]
			}
			edgeSegs = append(edgeSegs, s)
			next = append(next, boxOf(segs[1]).X0)
		}
		if nMulti < 3 {
			return cand
		}
		// the edge phrases' common left edge: a paragraph's lines start
		// on one (its right edge may be ragged)
		xs := make([]float64, len(edgeSegs))
		for i, s := range edgeSegs {
			xs[i] = boxOf(s).X0
		}
		left := median(xs)
		if right {
			left = proseEdge(edgeSegs, xs, left)
		}
		aligned, prose, n := 0, 0, 0
		edge := math.Inf(1) // left side: where the table starts beside the paragraph
		for i, s := range edgeSegs {
			if right && boxOf(s).X1 < left {
				continue // a row of the table with nothing beside it
			}
			n++
			if math.Abs(xs[i]-left) <= 2 {
				aligned++
				edge = min(edge, next[i])
			}
			if proseWords(s) {
				prose++
			}
		}
		if right {
			edge = left
		}
		if n < 3 || 10*aligned < 7*n || 10*prose < 6*n {
			continue
		}
		inPara := func(w *word) bool {
			if right {
				return w.bb.X0 >= edge-1
			}
			return w.bb.X1 < edge
		}
		// the rest of the table's vertical extent, and a paragraph line
		// outside it (in the run or just around it)
		y0, y1 := math.Inf(1), math.Inf(-1)
		for _, l := range cand {
			for _, w := range l.ws {
				if !inPara(w) {
					y0, y1 = min(y0, w.bb.Y0), max(y1, w.bb.Y1)
				}
			}
		}
		above, below := false, false
		for k := max(top-1, 0); k < min(end+1, len(lines)); k++ {
			l := lines[k]
			own := true
			for _, w := range l.ws {
				own = own && inPara(w)
			}
			above = above || own && l.cy() < y0
			below = below || own && l.cy() > y1
		}
		if !above && (!below || headed(cand, inPara, y0)) && !drifts(cand, inPara) || !flows(lines[max(top-1, 0):min(end+1, len(lines))], inPara) ||
			cellBlocks(cand, inPara) {
			continue
		}
		var ws []*word
		for _, l := range cand {
			for _, w := range l.ws {
				if !inPara(w) {
					ws = append(ws, w)
				}
			}
		}
		if len(ws) == 0 {
			return nil
		}
		return lineUp(ws)
	}
	return cand
}

// flows: the words inPara of the lines read as running text, not as a
// column of cells: where one line follows another (a leading apart), the
// next line's first word would not have fit at the end of the line above
// (the text wrapped there), for seven in ten such pairs or more. Labels
// in a column end where their cell ends, whatever room is left.
func flows(lines []*textLine, inPara func(*word) bool) bool {
	type piece struct {
		x1, first, y0, y1, size float64
	}
	var ps []piece
	right := math.Inf(-1)
	for _, l := range lines {
		var p piece
		n := 0
		for _, w := range l.ws {
			if !inPara(w) {
				continue
			}
			if n == 0 {
				p = piece{first: w.bb.X1 - w.bb.X0, y0: w.bb.Y0, size: w.size}
			}
			p.x1, p.y1 = w.bb.X1, max(p.y1, w.bb.Y1)
			n++
		}
		if n > 0 {
			ps = append(ps, p)
			right = max(right, p.x1)
		}
	}
	pairs, wrapped := 0, 0
	for i := 1; i < len(ps); i++ {
		a, b := ps[i-1], ps[i]
		if b.y0-a.y1 > 0.8*max(a.size, b.size) {
			continue // a paragraph break, or another block
		}
		pairs++
		if a.x1+0.25*b.size+b.first > right+0.5 {
			wrapped++
		}
	}
	return pairs >= 2 && 10*wrapped >= 7*pairs
}

// proseEdge is where the paragraph beside a table starts: the median
// left edge of the phrases of running text among the lines' last phrases
// (three or more; else left as it is). Rows of the table that a
// paragraph at a leading of its own leaves alone end left of it.
func proseEdge(segs [][]*word, xs []float64, left float64) float64 {
	var px []float64
	for i, s := range segs {
		if proseWords(s) {
			px = append(px, xs[i])
		}
	}
	if len(px) < 3 {
		return left
	}
	return median(px)
}

// drifts: the words inPara and the others are set on baselines of their
// own: over the lines holding both (three or more), the offset between
// the two sides' baselines varies by more than a quarter of the text size.
// A paragraph beside a table goes at its own leading, which drifts
// against the rows; the cells of one row share a baseline.
func drifts(lines []*textLine, inPara func(*word) bool) bool {
	lo, hi := math.Inf(1), math.Inf(-1)
	n := 0
	size := 0.0
	for _, l := range lines {
		var para, other *word
		for _, w := range l.ws {
			if inPara(w) {
				if para == nil {
					para = w
				}
			} else if other == nil {
				other = w
			}
		}
		if para == nil || other == nil {
			continue
		}
		d := para.bb.Y1 - other.bb.Y1
		lo, hi = min(lo, d), max(hi, d)
		size = max(size, para.size)
		n++
	}
	return n >= 3 && hi-lo > size/4
}

// headed: on the first line of the table beside the would-be paragraph
// (the top one with words outside it, at y0), the paragraph's side holds
// a short phrase, no running text: a column header, so the "paragraph" is
// a column of wrapped text cells under it (whose last cell may wrap below
// the other columns' last row).
func headed(cand []*textLine, inPara func(*word) bool, y0 float64) bool {
	for _, l := range cand {
		if l.bb.Y1 < y0 {
			continue
		}
		var side []*word
		for _, w := range l.ws {
			if inPara(w) {
				side = append(side, w)
			}
		}
		return len(side) > 0 && !proseWords(side)
	}
	return false
}

// proseWords: a phrase of running text, four or more words, three in
// four of them made of letters (punctuation around them allowed).
func proseWords(ws []*word) bool {
	if len(ws) < 4 {
		return false
	}
	n := 0
	for _, w := range ws {
		if isWordOfLetters(w.text) {
			n++
		}
	}
	return 4*n >= 3*len(ws)
}

// phraseCols adds the phrases of a line to a run's column starts: the
// left edge of each phrase and the widest right edge seen from there.
func phraseCols(cols []span, l *textLine, gap float64) []span {
	for _, seg := range l.segments(gap) {
		b := boxOf(seg)
		found := false
		for k := range cols {
			if math.Abs(cols[k].a-b.X0) <= 2 {
				cols[k].b = max(cols[k].b, b.X1)
				found = true
				break
			}
		}
		if !found {
			cols = append(cols, span{b.X0, b.X1})
		}
	}
	return cols
}

// inColumn: the line starts where phrases of the run start and ends no
// further right than they do, and is no number (the next line of a
// wrapped cell; a lone number is a row of its own, or an axis tick).
func inColumn(cols []span, l *textLine) bool {
	for _, c := range cols {
		if math.Abs(c.a-l.bb.X0) <= 2 && l.bb.X1 <= c.b+2 {
			return !numericCell(l.ws)
		}
	}
	return false
}

// framed: a horizontal rule lies just above the first line and another
// just below the last (within a line's height), each across at least 90%
// of the lines' width: a table set with top and bottom rules only.
func framed(lines []*textLine, hs []rule) bool {
	b := boxOf(lines)
	size := lines[0].size
	across := func(h rule) bool { return min(h.b, b.X1)-max(h.a, b.X0) >= 0.9*(b.X1-b.X0) }
	above, below := false, false
	for _, h := range hs {
		if !across(h) {
			continue
		}
		above = above || h.pos <= lines[0].cy() && h.pos >= b.Y0-size
		below = below || h.pos >= lines[len(lines)-1].cy() && h.pos <= b.Y1+size
	}
	return above && below
}

// boldHeaded: the first line is bold and no other is, and every line has
// two or more phrases, each starting where a phrase of the first line
// starts or ending where one ends (left- or right-aligned columns).
func boldHeaded(lines []*textLine, gap float64) bool {
	if len(lines) < 3 {
		return false
	}
	if !allBold(lines[0]) {
		return false
	}
	head := lines[0].segments(gap)
	if len(head) < 2 {
		return false
	}
	rows := 0
	for i, l := range lines[1:] {
		segs := l.segments(gap)
		if allBold(l) {
			return false
		}
		if len(segs) < 2 {
			// the next line of a wrapped cell: under a row, starting
			// where a header phrase starts
			if i == 0 || !startsUnder(boxOf(segs[0]).X0, head) {
				return false
			}
			continue
		}
		rows++
		for _, s := range segs {
			b := boxOf(s)
			ok := false
			for _, h := range head {
				hb := boxOf(h)
				ok = ok || math.Abs(hb.X0-b.X0) <= 2 || math.Abs(hb.X1-b.X1) <= 2
			}
			if !ok {
				return false
			}
		}
	}
	return rows >= 2
}

// startsUnder: x is where one of the phrases starts.
func startsUnder(x float64, phrases [][]*word) bool {
	for _, p := range phrases {
		if math.Abs(boxOf(p).X0-x) <= 2 {
			return true
		}
	}
	return false
}

// sideBySide splits lines holding two tables side by side (or one table
// set in two blocks, as a long list is): a gutter a third wider than
// every other column gap, with as many columns on each side and the
// columns of the same kind (numbers or text) in the same order. It
// returns the lines of each table, or the lines as they are.
func sideBySide(lines []*textLine, cols []span, gap float64) [][]*textLine {
	if len(cols) < 4 || len(cols)%2 != 0 {
		return [][]*textLine{lines}
	}
	half := len(cols) / 2
	gutter := cols[half].a - cols[half-1].b
	for k := 0; k+1 < len(cols); k++ {
		if k != half-1 && 1.3*(cols[k+1].a-cols[k].b) > gutter {
			return [][]*textLine{lines}
		}
	}
	// each column's kind: most of its line cells numeric or not
	num := make([]int, len(cols))
	n := make([]int, len(cols))
	for _, l := range lines {
		cells := make([][]*word, len(cols))
		for _, w := range l.ws {
			for k, c := range cols {
				if w.cx() >= c.a-gap/2 && w.cx() <= c.b+gap/2 {
					cells[k] = append(cells[k], w)
					break
				}
			}
		}
		for k, c := range cells {
			if len(c) > 0 {
				n[k]++
				if numericCell(c) {
					num[k]++
				}
			}
		}
	}
	for k := 0; k < half; k++ {
		if n[k] < 3 || n[k+half] < 3 || (2*num[k] > n[k]) != (2*num[k+half] > n[k+half]) {
			return [][]*textLine{lines}
		}
	}
	return splitAt(lines, (cols[half-1].b+cols[half].a)/2)
}

// isWordOfLetters: w has letters and nothing else but punctuation (a word
// of running text, not a number or a code).
func isWordOfLetters(w string) bool {
	letters := 0
	for _, r := range w {
		switch {
		case unicode.IsLetter(r):
			letters++
		case unicode.IsPunct(r):
		default:
			return false
		}
	}
	return letters > 0
}

// cellBlocks: the text taken for a paragraph beside the table falls in
// blocks apart by more than its leading (0.8 of a line), three or more,
// each starting on a line that holds the table's other cells too, and
// every such line starts a block: a column of cells wrapped over several
// lines (requirements, risks, descriptions) with the row's short cells
// level with each cell's first line, not a paragraph running beside.
func cellBlocks(cand []*textLine, inPara func(*word) bool) bool {
	blocks := 0
	prevY1, prevSize := math.Inf(-1), 0.0
	for _, l := range cand {
		in, out := false, false
		y0, y1, size := math.Inf(1), math.Inf(-1), 0.0
		for _, w := range l.ws {
			if inPara(w) {
				in = true
				y0, y1, size = min(y0, w.bb.Y0), max(y1, w.bb.Y1), max(size, w.size)
			} else {
				out = true
			}
		}
		if !in {
			if out {
				return false // a row with nothing in the wrapped column
			}
			continue
		}
		starts := y0-prevY1 > 0.8*max(size, prevSize)
		if starts != out {
			return false
		}
		if starts {
			blocks++
		}
		prevY1, prevSize = y1, size
	}
	return blocks >= 3
}

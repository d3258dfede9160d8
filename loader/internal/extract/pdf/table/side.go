package table

import (
	"math"

	"github.com/docket-dev/docket/loader/internal/document"
)

// splitSides splits lines holding two tables side by side: those of the
// same shape whose rows line up (sideBySide), two tables of any shape
// whose rows do not (offsetSides), whose tops are level and one ends
// first (shortSide), or whose rows are level with a gutter twice as wide
// as any column gap after a column of numbers (levelSides: level says
// so; each side is then a table as its rows line up with the other's,
// though it has no number column of its own after the first), or, when
// none of those splits them, level with columns closer than a word space
// and a gutter four times as wide as any of them (tightSides, level too).
func splitSides(lines []*textLine, gap float64) (parts [][]*textLine, level bool) {
	if len(lines) < 3 {
		return [][]*textLine{lines}, false
	}
	most, multi := 0, 0
	for _, l := range lines {
		n := l.nSegments(gap)
		most = max(most, n)
		if n >= 2 {
			multi++
		}
	}
	// either way two columns or more a side, so a line of four phrases
	// (sideBySide) or four lines of two (offsetSides)
	if most < 4 && (multi < 4 || len(lines) < 6) {
		if parts := tightSides(lines, gap); parts != nil {
			return parts, true
		}
		return [][]*textLine{lines}, false
	}
	cols := columns(lines, gap)
	if parts := centredSides(lines, cols, gap); len(parts) > 1 {
		return parts, false
	}
	if most >= 4 {
		if parts := sideBySide(lines, cols, gap); len(parts) > 1 {
			return parts, false
		}
	}
	if parts := offsetSides(lines, cols, gap); len(parts) > 1 {
		return parts, false
	}
	if parts := shortSide(lines, cols, gap); len(parts) > 1 {
		return parts, false
	}
	parts = levelSides(lines, cols, gap)
	if len(parts) == 1 {
		if tight := tightSides(lines, gap); tight != nil {
			return tight, true
		}
	}
	return parts, len(parts) > 1
}

// levelSides splits lines at the widest column gap where two tables of
// any shape stand side by side with their rows level: the gap (the
// gutter) is twice as wide as every other column gap, no phrase crosses
// it in any line (the heads included: a spanning head over a table's
// column groups does), each side has two columns or more and three lines
// of several phrases, and the column left of it is numbers (or times and dates). In one table
// set to its content's width every column gap is the cells' padding; a
// gap twice as wide after a column of numbers (set flush right, or as
// wide as each other) is a space between two tables. (A table stretched
// to a width gives its widest column, a text one, the room.)
func levelSides(lines []*textLine, cols []span, gap float64) [][]*textLine {
	if len(lines) < 4 || len(cols) < 4 {
		return [][]*textLine{lines}
	}
	k := widestGap(cols, len(cols)-1)
	gutter := cols[k+1].a - cols[k].b
	for j := 0; j+1 < len(cols); j++ {
		if j != k && 2*(cols[j+1].a-cols[j].b) > gutter {
			return [][]*textLine{lines}
		}
	}
	x := (cols[k].b + cols[k+1].a) / 2
	leftMulti, rightMulti, num, cells := 0, 0, 0, 0
	for _, l := range lines {
		nl, nr := 0, 0
		for _, s := range l.segments(gap) {
			p := phrase{ws: s, b: boxOf(s)}
			switch {
			case p.b.X0 < x && p.b.X1 > x:
				return [][]*textLine{lines} // a phrase across the gutter
			case p.b.X0 >= x:
				nr++
				continue
			}
			nl++
			if p.b.X0 < cols[k].b && p.b.X1 > cols[k].a {
				cells++
				if p.numeric() || dateTime(lineText(&textLine{ws: s})) {
					num++
				}
			}
		}
		if nl >= 2 {
			leftMulti++
		}
		if nr >= 2 {
			rightMulti++
		}
	}
	if leftMulti < 3 || rightMulti < 3 || cells < 3 || 2*num <= cells {
		return [][]*textLine{lines}
	}
	return splitAt(lines, x)
}

// shortSide splits lines at the widest column gap where two tables stand
// side by side with their tops level and one ends first: the gap is a
// third wider than every column gap left of it (the right table's own may
// be wider: row labels ending short of numbers set far off), no phrase
// crosses it, each side has two columns or more and three lines of
// several phrases, the column right of
// it is text (the second table's row labels), and under the last line
// with phrases on both sides two lines or more of several phrases hold
// the longer table's last rows, all on one side. In one table a row runs
// across every column gap; one whose last columns are empty is seldom
// followed by another.
func shortSide(lines []*textLine, cols []span, gap float64) [][]*textLine {
	if len(lines) < 6 || len(cols) < 4 {
		return [][]*textLine{lines}
	}
	k := widestGap(cols, len(cols)-2)
	gutter := cols[k+1].a - cols[k].b
	for j := 0; j < k; j++ {
		// (the right table's own gaps may be wider: its row labels end
		// short of numbers set far off)
		if 1.3*(cols[j+1].a-cols[j].b) > gutter {
			return [][]*textLine{lines}
		}
	}
	x := (cols[k].b + cols[k+1].a) / 2
	segs := make([][]phrase, len(lines))
	for i, l := range lines {
		for _, s := range l.segments(gap) {
			segs[i] = append(segs[i], phrase{ws: s, b: boxOf(s)})
		}
	}
	leftMulti, rightMulti, lastBoth, text, cells := 0, 0, -1, 0, 0
	for i, ps := range segs {
		nl, nr := 0, 0
		for j := range ps {
			p := &ps[j]
			switch {
			case p.b.X0 < x && p.b.X1 > x:
				return [][]*textLine{lines} // a phrase across the gutter
			case p.b.X1 <= x:
				nl++
				continue
			}
			nr++
			if p.b.X0 < cols[k+1].b && p.b.X1 > cols[k+1].a {
				cells++
				if !p.numeric() {
					text++
				}
			}
		}
		if nl > 0 && nr > 0 {
			lastBoth = i
		}
		if nl >= 2 {
			leftMulti++
		}
		if nr >= 2 {
			rightMulti++
		}
	}
	if leftMulti < 3 || rightMulti < 3 || 2*text <= cells || cells < 3 || lastBoth < 0 {
		return [][]*textLine{lines}
	}
	side, rows := 0, 0
	for _, ps := range segs[lastBoth+1:] {
		s := 1
		if ps[0].b.X1 <= x {
			s = -1
		}
		if side != 0 && s != side {
			return [][]*textLine{lines}
		}
		side = s
		if len(ps) >= 2 {
			rows++
		}
	}
	if rows < 2 {
		return [][]*textLine{lines}
	}
	return splitAt(lines, x)
}

// offsetSides splits lines at a column gap (the gutter) where two tables
// stand side by side with rows that do not line up: on each side, two or
// more lines have a row of that side only (several phrases, a number
// among them) with nothing across the gutter, each side has three lines
// of several phrases, and the column right of the gutter is text (the
// second table's row labels). In one table the rows run across every
// column gap: a line with nothing right of a gap is a wrapped label or a
// group label (one phrase), one with nothing left of it a header line.
// It returns the lines of each table, or the lines as they are.
func offsetSides(lines []*textLine, cols []span, gap float64) [][]*textLine {
	if len(lines) < 6 || len(cols) < 4 {
		return [][]*textLine{lines} // two columns or more a side
	}
	segs := make([][]phrase, len(lines))
	for i, l := range lines {
		for _, s := range l.segments(gap) {
			segs[i] = append(segs[i], phrase{ws: s, b: boxOf(s)})
		}
	}
	best, bestW := -1.0, 0.0
	for k := 0; k+1 < len(cols); k++ {
		mid := (cols[k].b + cols[k+1].a) / 2
		if w := cols[k+1].a - cols[k].b; w > bestW && splitsAt(segs, mid, cols[k+1]) {
			best, bestW = mid, w
		}
	}
	if best < 0 {
		return [][]*textLine{lines}
	}
	return splitAt(lines, best)
}

// phrase is a line's segment with its box and, once asked, whether it is
// a number.
type phrase struct {
	ws       []*word
	b        document.BBox
	num, got bool
}

func (p *phrase) numeric() bool {
	if !p.got {
		p.num, p.got = numericCell(p.ws), true
	}
	return p.num
}

// splitsAt: the lines' phrases hold two tables either side of x (see
// offsetSides); next is the column right of x.
func splitsAt(segs [][]phrase, x float64, next span) bool {
	for _, ps := range segs {
		for _, p := range ps {
			if p.b.X0 < x && p.b.X1 > x {
				return false // a phrase across the gutter
			}
		}
	}
	var leftOnly, rightOnly, leftMulti, rightMulti, text, cells int
	for _, ps := range segs {
		var nl, nr int
		var numL, numR bool
		for k := range ps {
			p := &ps[k]
			if p.b.X1 <= x {
				nl++
				numL = numL || p.numeric()
				continue
			}
			nr++
			numR = numR || p.numeric()
			if p.b.X0 < next.b && p.b.X1 > next.a {
				cells++
				if !p.numeric() {
					text++
				}
			}
		}
		if nl >= 2 {
			leftMulti++
			if nr == 0 && numL {
				leftOnly++
			}
		}
		if nr >= 2 {
			rightMulti++
			if nl == 0 && numR {
				rightOnly++
			}
		}
	}
	return leftOnly >= 2 && rightOnly >= 2 && leftMulti >= 3 && rightMulti >= 3 && 2*text > cells && cells >= 3
}

// splitAt returns the lines' words left of x and right of it, each lined
// up anew.
func splitAt(lines []*textLine, x float64) [][]*textLine {
	var left, right []*word
	for _, l := range lines {
		for _, w := range l.ws {
			if w.cx() < x {
				left = append(left, w)
			} else {
				right = append(right, w)
			}
		}
	}
	return [][]*textLine{lineUp(left), lineUp(right)}
}

// labelFirstLine: the line above the run lines[i..last] is the first line
// of its first row's label, whose numbers sit on the label's last line:
// one phrase, starting where the run's first line starts, a leading above
// it, not a caption, and the run has another row set so (a line of one
// phrase at the stub's left edge just above a line of several).
func labelFirstLine(lines []*textLine, multi []bool, i, last int) bool {
	above := func(k int) bool {
		a, b := lines[k], lines[k+1]
		return !multi[k] && multi[k+1] && !lineIsCaption(a) &&
			math.Abs(a.bb.X0-b.bb.X0) <= 2 && b.bb.Y0-a.bb.Y1 <= 0.8*max(a.size, b.size) &&
			inFirstPhrase(a, b)
	}
	if !above(i - 1) {
		return false
	}
	for k := i + 1; k < last; k++ {
		if above(k) {
			return true
		}
	}
	return false
}

// inFirstPhrase: a ends before b's second phrase starts (a label's first
// line stays in its column; a paragraph's line over the table runs on
// over its other columns).
func inFirstPhrase(a, b *textLine) bool {
	segs := b.segments(phraseGap(b.size)) // (unruled's phrase gap)
	return len(segs) < 2 || a.bb.X1 < segs[1][0].bb.X0
}

// widestGap is the k in 1..end-1 whose gap to the next column
// (cols[k+1].a - cols[k].b) is the widest, the first of equals; 1 when
// end <= 1. levelSides looks at every gap (end = len(cols)-1), shortSide
// leaves the last out (end = len(cols)-2): its right table needs two
// columns.
func widestGap(cols []span, end int) int {
	k := 1
	for j := 1; j < end; j++ {
		if cols[j+1].a-cols[j].b > cols[k+1].a-cols[k].b {
			k = j
		}
	}
	return k
}

package table

import (
	"math"
	"strconv"
	"unicode"

	"github.com/docket-dev/docket/loader/internal/document"
)

// textColumns: a small table of text only, set in left-aligned columns,
// says so by its layout alone (no rules, no numbers, no bold heads, as
// the held-out misses' small unruled tables are): under up to three head
// lines (short, maxHeadBytes at most as headerAbove has it, inside the
// body's extent, no bigger than its text), three body lines or more of
// two phrases or more, each phrase starting where one of two to five
// columns starts (within 2pt), each column starting three phrases or
// more; every other body line a column's cell going on (one phrase at a
// column's start, inside the column); since pdf/94 a column may instead
// be set centred or right-aligned: every phrase in it (cells and their
// lines going on) inside it, their centres or right edges within 2pt
// of each other, as HTML's centred cells and a word processor's are,
// the body in one size (oneSize);
// no phrase of more than six words
// (a cell is a label or a value, not a sentence); no column reading as
// running text (flows, fills and wordy: a paragraph in a narrow column
// wraps where each line ends, its lines reaching the column's right
// edge, three words or more a line; a column of cells ends where each
// cell does, or holds a word or two, each about as wide as the next).
// Not a list (every row's first phrase a bullet or an enumeration mark,
// or numbers counting up by one) and not blocks side by side (half the
// rows reading the same in every column: two authors' addresses).
// scanPart asks it only of lines splitSides left whole, not under a
// figure's caption.
func textColumns(lines []*textLine, gap float64) bool {
	ok := false
	for h := 0; h <= 3 && len(lines)-h >= 3 && !ok; h++ {
		ok = textBody(lines[h:], gap) && shortHeads(lines[:h], lines[h:], gap)
	}
	return ok
}

// textBody is textColumns' test of the body lines.
func textBody(body []*textLine, gap float64) bool {
	cols := columns(body, gap)
	if len(cols) < 2 || len(cols) > 5 {
		return false
	}
	colAt := func(x float64) int {
		for k, c := range cols {
			if math.Abs(x-c.a) <= 2 {
				return k
			}
		}
		return -1
	}
	colOf := func(b document.BBox) int {
		for k, c := range cols {
			if b.X0 >= c.a-2 && b.X1 <= c.b+2 {
				return k
			}
		}
		return -1
	}
	starts := make([]int, len(cols))
	boxes := make([][]document.BBox, len(cols)) // each column's phrases
	offStart := make([]bool, len(cols))         // a phrase of it starts elsewhere
	rows, markers, same, last := 0, 0, 0, 0
	for _, l := range body {
		segs := l.segments(gap)
		if len(segs) >= 2 {
			// a mark, or the next of numbers counting up by one
			n, err := strconv.Atoi(cellText(segs[0]))
			if listMarker(segs[0]) || err == nil && (rows == 0 || n == last+1) {
				markers++
			}
			last = n
			if repeats(segs) {
				same++
			}
			rows++
		}
		for _, s := range segs {
			if len(s) > 6 {
				return false
			}
			b := boxOf(s)
			k := colAt(b.X0)
			if k >= 0 && len(segs) == 1 && b.X1 > cols[k].b+2 {
				return false // one phrase past its column: no cell going on
			}
			if k < 0 {
				// not at a column's start: inside one, centred or
				// right-aligned in it (colAligned)
				if k = colOf(b); k < 0 {
					return false
				}
				offStart[k] = true
			}
			boxes[k] = append(boxes[k], b)
			if len(segs) >= 2 {
				starts[k]++
			}
		}
	}
	if rows < 3 || markers == rows || 2*same >= rows {
		return false
	}
	for k, n := range starts {
		if n < 3 || offStart[k] && (!colAligned(boxes[k]) || !oneSize(body)) {
			return false
		}
	}
	for _, c := range cols {
		in := func(w *word) bool { return w.bb.X0 >= c.a-2 && w.bb.X1 <= c.b+2 }
		if flows(body, in) && fills(body, in) && wordy(body, in) {
			return false
		}
	}
	return true
}

// colAligned: the phrases bs of a column line up on their right edges
// or on their centres, within 2pt (a right-aligned or centred column).
func colAligned(bs []document.BBox) bool {
	return within2(bs, func(b document.BBox) float64 { return b.X1 }) ||
		within2(bs, func(b document.BBox) float64 { return (b.X0 + b.X1) / 2 })
}

// oneSize: the lines are set in one size (the largest within a fifth of
// the smallest): centred lines of figures in a large size over their
// words in a small one are an infographic's (three calendar leaves,
// "3–6" over "months"), not a table's cells.
func oneSize(lines []*textLine) bool {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, l := range lines {
		lo, hi = min(lo, l.size), max(hi, l.size)
	}
	return hi <= 1.2*lo
}

// within2: the values f of bs lie within 2pt of each other.
func within2(bs []document.BBox, f func(document.BBox) float64) bool {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, b := range bs {
		lo, hi = min(lo, f(b)), max(hi, f(b))
	}
	return hi-lo <= 2
}

// wordy: the words in of each line make a piece of it; most pieces (the
// median) hold three words or more, as the lines of running text do even
// in a narrow column (a column of short labels, codes or names, each
// about as wide as the next, wraps nowhere).
func wordy(lines []*textLine, in func(*word) bool) bool {
	var ns []float64
	for _, l := range lines {
		n := 0
		for _, w := range l.ws {
			if in(w) {
				n++
			}
		}
		if n > 0 {
			ns = append(ns, float64(n))
		}
	}
	return len(ns) > 0 && median(ns) >= 3
}

// listMarker: the phrase is a list item's marker, a bullet or an
// enumeration: one word of three characters or fewer with no letter or
// digit ("•", "■", "-"), or of four or fewer ending in "." or ")"
// ("1.", "a)", "(iv)"). The pdf package's bulletRe and numListRe (para.go)
// find a mark at a line's start in text; here a mark is a phrase of its
// own, set apart in a column, and any glyph without a letter or digit is
// one (pdf imports this package, not the other way round).
func listMarker(ws []*word) bool {
	if len(ws) != 1 {
		return false
	}
	t := []rune(ws[0].text)
	if len(t) <= 4 && (t[len(t)-1] == '.' || t[len(t)-1] == ')') {
		return true
	}
	if len(t) > 3 {
		return false
	}
	for _, r := range t {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// repeats: every phrase of the line reads as the first does (blocks set
// side by side, each with the same lines, as two authors' addresses are:
// "Fraunhofer IZM  Fraunhofer IZM").
func repeats(segs [][]*word) bool {
	t := cellText(segs[0])
	for _, s := range segs[1:] {
		if cellText(s) != t {
			return false
		}
	}
	return true
}

// fills: the words in of each line make a piece of it; most pieces (the
// median) reach within a fifth of the widest one's right edge, as the
// lines of a paragraph do (a column's cells end where each cell does).
func fills(lines []*textLine, in func(*word) bool) bool {
	var x0s, x1s []float64
	for _, l := range lines {
		a, b := math.Inf(1), math.Inf(-1)
		for _, w := range l.ws {
			if in(w) {
				a, b = min(a, w.bb.X0), max(b, w.bb.X1)
			}
		}
		if a < b {
			x0s, x1s = append(x0s, a), append(x1s, b)
		}
	}
	if len(x1s) == 0 {
		return false
	}
	left, right := x0s[0], x1s[0]
	for i := range x0s {
		left, right = min(left, x0s[i]), max(right, x1s[i])
	}
	return median(x1s) >= right-0.2*(right-left)
}

// shortHeads: the head lines are short, inside the body's extent and no
// bigger than its text (large figures over a few words each are a
// poster's facts, not a table's heads).
func shortHeads(heads, body []*textLine, gap float64) bool {
	b := boxOf(body)
	size := medianLineSize(body)
	for _, l := range heads {
		if len(lineText(l)) > maxHeadBytes || l.bb.X0 < b.X0-gap || l.bb.X1 > b.X1+gap || l.size > 1.2*size {
			return false
		}
	}
	return true
}

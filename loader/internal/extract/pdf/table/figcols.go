package table

import (
	"math"
	"regexp"
	"slices"
)

// markFigureEnds marks the word after a column of figures set flush
// right as starting a phrase (col) where the gap before it is narrower
// than a cell's padding: a browser's table in its default CSS sets its
// cells 2px of border spacing and 1px of padding apart (3pt in print, a
// word space or less), so "667,131 32,844.29" reads as one phrase, and
// markColumnStarts, which looks for columns starting at one x, finds no
// column of figures right-aligned. Such a column shows in its figures'
// right ends: three or more numbers ending at one x (within 0.3pt) on
// lines as close as a table's rows (1.8 lines apart at most, two lines at
// most without one), of other widths (ragged: not one text repeated),
// no word of those lines running across that x; each of them with a
// figure or a currency's code or sign after it less than a padding away (figureGap)
// starts no phrase of its own there but the next word does, and the
// column's words are marked fend: columnsIn takes a gutter narrower than a
// padding starting at their right end, as it takes one ending at a
// column's start (markColumnStarts' edge).
// A number's digit groups set a space apart ("12 345") are no column's
// end (digitGroup). Figures of one width, or set a digit group's space
// from the next, are a column's end only where the heads over them part
// there (headsPart: "2025  Q2" over "788 471").
func markFigureEnds(lines []*textLine, size float64) {
	pad := gridGap(size)
	var at []member
	var next, nextGrouped []*word
	for i, l := range lines {
		for k := 0; k+1 < len(l.ws); k++ {
			if l.ws[k+1].col || !figureGap(l, k, pad, true) {
				continue
			}
			x := l.ws[k].bb.X1
			at = append(at[:0], member{w: l.ws[k], line: i})
			next = append(next[:0], l.ws[k+1])
			grouped := digitGroup(l.ws[k].text, l.ws[k+1].text)
			nextGrouped = nextGrouped[:0]
			if grouped {
				next, nextGrouped = next[:0], append(nextGrouped, l.ws[k+1])
			}
			for _, dir := range []int{-1, 1} {
				missed := 0
				for j := i + dir; j >= 0 && j < len(lines); j += dir {
					if stepApart(lines, j, dir) {
						break
					}
					m, across := endAt(lines[j], x)
					if across {
						break
					}
					if m < 0 || !numeric(lines[j].ws[m].text) {
						if missed++; missed > 2 {
							break
						}
						continue
					}
					missed = 0
					at = append(at, member{w: lines[j].ws[m], line: j})
					switch {
					case figureGap(lines[j], m, pad, false):
						next = append(next, lines[j].ws[m+1])
					case figureGap(lines[j], m, pad, true):
						nextGrouped = append(nextGrouped, lines[j].ws[m+1])
					}
				}
			}
			if len(at) < 3 {
				continue
			}
			// figures of one width, or set a digit group's space apart,
			// are a column's end where the heads over them part there
			ok := !grouped && ragged(at)
			if headsPart(lines, at, next, nextGrouped, x, pad) {
				ok, next = true, append(next, nextGrouped...)
			}
			if !ok {
				continue
			}
			for _, m := range at {
				m.w.fend = true
			}
			for _, n := range next {
				n.col = true
			}
		}
	}
}

// figureGap: l's word k is a number and its next word, a number or a
// currency, stands after it more than nil but less than pad (a wider gap
// splits a phrase anyway), and the two are no digit groups of one number
// (unless grouped: digit groups too).
func figureGap(l *textLine, k int, pad float64, grouped bool) bool {
	if k+1 >= len(l.ws) {
		return false
	}
	w, n := l.ws[k], l.ws[k+1]
	g := n.bb.X0 - w.bb.X1
	return g > 0.05*l.size && g < pad && numeric(w.text) && (numeric(n.text) || currencyCodes[n.text] || currencySign(n.text)) && (grouped || !digitGroup(w.text, n.text))
}

// digitGroupRe: a number's leading group (1-3 digits, a sign or a
// currency before it) and its next group (3 digits, a decimal part or a
// sign's closing parenthesis after it).
var (
	leadGroupRe = regexp.MustCompile(`^[-+−–(]?(?:[$€£]\s?)?\d{1,3}$`)
	nextGroupRe = regexp.MustCompile(`^\d{3}(?:[.,]\d+)?\)?%?$`)
)

// digitGroup: a and b read as one number's digit groups set a space
// apart ("12 345", "(1 234)").
func digitGroup(a, b string) bool {
	return leadGroupRe.MatchString(a) && nextGroupRe.MatchString(b)
}

// endAt is the index of l's word ending at x (within 0.3pt), or -1;
// across says a word of l runs over x (starting before it and ending
// after it by more than 0.3pt).
func endAt(l *textLine, x float64) (int, bool) {
	for k, w := range l.ws {
		if math.Abs(w.bb.X1-x) <= 0.3 {
			return k, false
		}
		if w.bb.X0 < x-0.3 && w.bb.X1 > x+0.3 {
			return -1, true
		}
	}
	return -1, false
}

// figureColumns adds to figs the words of ws that end a column of figures
// (fend): each column's extent, from its widest figure's start to the
// right end its figures share (within 1pt).
func figureColumns(figs []span, ws []*word) []span {
	for _, w := range ws {
		if !w.fend {
			continue
		}
		k := slices.IndexFunc(figs, func(f span) bool { return math.Abs(f.b-w.bb.X1) <= 1 })
		if k < 0 {
			figs = append(figs, span{w.bb.X0, w.bb.X1})
			continue
		}
		figs[k].a = min(figs[k].a, w.bb.X0)
	}
	return figs
}

// stepApart: lines[j], walked to from lines[j-dir], stands farther from it
// than a table's rows (1.8 of the larger size between them).
func stepApart(lines []*textLine, j, dir int) bool {
	a, b := lines[j-dir], lines[j]
	if dir < 0 {
		a, b = b, a
	}
	return b.bb.Y0-a.bb.Y1 > 1.8*max(a.size, b.size)
}

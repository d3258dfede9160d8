package table

import (
	"regexp"
	"strings"
)

// marginRe is a value's margin of error as a survey table sets it under
// the value: "(+/-1.4)", "(±0.3)", "(4.7)".
var marginRe = regexp.MustCompile(`^\((?:\+/-|\+/−|±)?\s?\d[\d.,]*%?\)$`)

// marginCell: the words are one margin of error.
func marginCell(ws []*word) bool {
	s := ws[0].text
	for _, w := range ws[1:] {
		s += w.text
	}
	return marginRe.MatchString(s)
}

// marginsUnder: line lcs sets a margin of error under every value of
// line prev right of the stub (but years), and no other number: the values' second
// lines, more of prev's row ("9,112" over "(+/-7.6)"), where a line of
// numbers under numbers is a row of its own otherwise. Its other cells
// go on text cells as continues decides. A value that is itself in
// parentheses makes prev a row of accounts-style negatives, and a line of
// negatives under it a row of its own.
func (c *columnStats) marginsUnder(a *rowAcc, prev *textLine, lcs []lineCell) bool {
	values := map[int]bool{}
	for _, lc := range c.cellsOf(prev) {
		if lc.col == c.stub() || !numericCell(lc.ws) || len(lc.ws) == 1 && yearRe.MatchString(lc.ws[0].text) {
			continue // a year has no margin
		}
		if strings.HasPrefix(lc.ws[0].text, "(") {
			return false
		}
		values[lc.col] = true
	}
	n := 0
	for _, lc := range lcs {
		switch {
		case values[lc.col] && marginCell(lc.ws):
			n++
		case values[lc.col] || numericCell(lc.ws) || len(a.cells[lc.col]) == 0:
			return false
		}
	}
	return n > 0 && n == len(values)
}

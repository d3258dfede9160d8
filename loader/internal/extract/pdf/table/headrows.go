package table

import (
	"math"
	"strings"
)

// stubHeadRows: the cuts between the lines of a table's head band (the
// text over its first rule or stripe) when each line is a row of heads
// of its own: two or three lines in one size, each a stub label and a
// cell in every one of the same two or more columns right of it (a
// timetable's "Route 293 778 ..." over "Days Daily Mo-Sa ..."), each
// label capitalised and short enough to have fit on the stub's line
// above. A head wrapped in its cell starts its next line with a word that
// would not have fit (fits), and so does a stub head wrapped beside
// heads wrapped in every column; nil when the band is no such rows.
func stubHeadRows(c *columnStats, band []*textLine, firstCol float64) []sep {
	if len(band) < 2 || len(band) > 3 {
		return nil
	}
	stub := c.stub()
	var prev []lineCell
	var cuts []sep
	for i, l := range band {
		lcs := c.cellsOf(l)
		if l.ws[0].cx() >= firstCol || len(lcs) < 3 || lcs[0].col != stub || math.Abs(l.size-band[0].size) > 0.05*l.size {
			return nil
		}
		if i > 0 {
			if len(lcs) != len(prev) || startsLower(lcs[0].ws[0].text) {
				return nil
			}
			for k := range lcs {
				if lcs[k].col != prev[k].col {
					return nil
				}
			}
			if a := c.start(prev); !c.fits(&a, stub, lcs[0].ws[0]) {
				return nil
			}
			cuts = append(cuts, sep{(band[i-1].bb.Y1 + l.bb.Y0) / 2, false})
		}
		prev = lcs
	}
	return cuts
}

// yearHeads: line lcs under the table's first row a (text, no number)
// holds a year alone in two of its cells or more, no other number, and
// under row a's text only years: a row of year heads under a group head
// over them ("Six months to 30 June", then "2026  2025", the group head
// set right-aligned over the last year), not the year ending a head
// wrapped before it (yearEnding: "transferred in", then "2019"), which
// ends in a word that ends no phrase, nor a head wrapped beside the years
// ("Growth Rate", then "2021  2021  Index").
func yearHeads(a *rowAcc, lcs []lineCell) bool {
	years := 0
	for _, lc := range lcs {
		switch {
		case len(lc.ws) == 1 && yearRe.MatchString(lc.ws[0].text):
			years++
		case numericCell(lc.ws) || len(a.cells[lc.col]) > 0:
			return false
		}
	}
	if years < 2 {
		return false
	}
	for _, cell := range a.cells {
		if len(cell) == 0 {
			continue
		}
		last := cell[len(cell)-1]
		if t := last[len(last)-1].text; openWords[strings.ToLower(t)] || strings.HasSuffix(t, ",") {
			return false
		}
	}
	return true
}

package table

import "math"

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

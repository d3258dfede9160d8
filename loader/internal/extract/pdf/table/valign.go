package table

import "math"

// numbersLast: the band's wrapped row labels carry their numbers on their
// last line: two or more times a line of the stub alone is followed,
// a leading below, by a lower-case line of the stub with numbers beside
// it ("Agriculture, forestry and", then "fishing 76.4 70.2"), and never a
// line of the stub with numbers by a lower-case line of the stub alone
// (the same label set with its numbers on its first line).
func numbersLast(c *columnStats, band []*textLine) bool {
	if len(band) < 4 {
		return false
	}
	stub := c.stub()
	type kind struct{ alone, nums, lower bool }
	ks := make([]kind, len(band))
	for i, l := range band {
		lcs := c.cellsOf(l)
		if len(lcs) == 0 || lcs[0].col != stub {
			continue
		}
		ks[i].lower = startsLower(lcs[0].ws[0].text)
		ks[i].alone = len(lcs) == 1 && !numericCell(lcs[0].ws)
		for _, lc := range lcs[1:] {
			ks[i].nums = ks[i].nums || numericCell(lc.ws)
		}
	}
	up := 0
	for i := 1; i < len(band); i++ {
		a, b := band[i-1], band[i]
		if b.bb.Y0-a.bb.Y1 > 0.8*math.Max(a.size, b.size) || !ks[i].lower {
			continue
		}
		switch {
		case ks[i-1].alone && ks[i].nums:
			up++
		case ks[i-1].nums && ks[i].alone:
			return false
		}
	}
	return up >= 2
}

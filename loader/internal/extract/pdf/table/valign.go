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
	// kind of line k: alone (the stub only, no number), nums (the stub
	// and a number beside it); asked only around lower-case lines
	kind := func(k int) (alone, nums bool) {
		lcs := c.cellsOf(band[k])
		if len(lcs) == 0 || lcs[0].col != stub {
			return false, false
		}
		for _, lc := range lcs[1:] {
			nums = nums || numericCell(lc.ws)
		}
		return len(lcs) == 1 && !numericCell(lcs[0].ws), nums
	}
	up := 0
	for i := 1; i < len(band); i++ {
		a, b := band[i-1], band[i]
		if !startsLower(b.ws[0].text) || b.bb.Y0-a.bb.Y1 > 0.8*math.Max(a.size, b.size) {
			continue
		}
		aAlone, aNums := kind(i - 1)
		bAlone, bNums := kind(i)
		switch {
		case aAlone && bNums:
			up++
		case aNums && bAlone:
			return false
		}
	}
	return up >= 2
}

package table

import "sort"

// tightSides splits lines holding two tables side by side whose rows are
// level and whose own columns stand closer than a word space (a
// browser's unstyled table: 1px of padding each side of a cell, its
// widest cell 1.5pt from the next column): the phrases at gap run a
// table's columns together, so levelSides and sideBySide, which count
// columns in phrases, see one column a side, or none. It measures the
// whitespace left free by every word of every line instead. The widest
// such stretch (the gutter) is a phrase gap wide or more and four times
// as wide as every other one; every other one is narrower than 0.45 of
// a size (noWordSpace's measure: no padding's gap, which levelSides
// reads); each side has one narrower than any word space (tightGap: a
// column gap of 1px padding) with a word starting right after it on
// three lines or more (a column's cells set left; a space between two
// words of one line free all the way down has one); and three lines or
// more have words on both sides.
// In one table sized to its content every column gap is its cells'
// padding, the same at each column; a stretch four times as wide is a
// margin between two tables. (A table stretched to a width gives the
// room to its widest column, with a padding's gap or more after every
// other: not taken.)
func tightSides(lines []*textLine, gap float64) [][]*textLine {
	if len(lines) < 3 {
		return nil
	}
	occ := coveredSpans(lines)
	if len(occ) < 4 {
		return nil // two columns a side are three free stretches
	}
	k := 0 // the gutter: after occ[k]
	for j := 1; j+1 < len(occ); j++ {
		if occ[j+1].a-occ[j].b > occ[k+1].a-occ[k].b {
			k = j
		}
	}
	gutter := occ[k+1].a - occ[k].b
	if gutter < gap {
		return nil
	}
	size := medianLineSize(lines)
	tightLeft, tightRight := false, false
	for j := 0; j+1 < len(occ); j++ {
		g := occ[j+1].a - occ[j].b
		switch {
		case j == k:
			continue
		case 4*g > gutter || g >= 0.45*size:
			return nil // a column gap of a padding: not this kind
		case g < tightGap*size && startsAt(lines, occ[j+1].a) >= 3:
			tightLeft = tightLeft || j < k
			tightRight = tightRight || j > k
		}
	}
	if !tightLeft || !tightRight {
		return nil
	}
	x := (occ[k].b + occ[k+1].a) / 2
	both := 0
	for _, l := range lines {
		if l.bb.X0 < x && l.bb.X1 > x {
			both++
		}
	}
	if both < 3 {
		return nil
	}
	// the tight stretches are the two tables' column gaps (a column
	// whose cells are all as wide, years or codes, has every row a
	// padding from the next column, which markColumnStarts does not
	// take): the word after each starts a phrase and a column. A wider
	// one may be a space between a head's words over shorter cells.
	for j := 1; j < len(occ); j++ {
		if j == k+1 || occ[j].a-occ[j-1].b >= tightGap*size || startsAt(lines, occ[j].a) < 3 {
			continue
		}
		for _, l := range lines {
			for i, w := range l.ws {
				if i > 0 && w.bb.X0 >= occ[j].a && w.bb.X0 <= occ[j].a+0.3 {
					w.col, w.edge = true, true
				}
			}
		}
	}
	return splitAt(lines, x)
}

// tightGap is, in sizes, a gap narrower than any word space (a Latin
// text face's is a quarter to a third of a size): two cells 1px of
// padding apart each side (1.5pt) at 8pt or more.
const tightGap = 0.2

// coveredSpans are the stretches of x the lines' words cover, left to
// right: the whitespace between two is free all the way down.
func coveredSpans(lines []*textLine) []span {
	var ws []span
	for _, l := range lines {
		for _, w := range l.ws {
			ws = append(ws, span{w.bb.X0, w.bb.X1})
		}
	}
	sort.Slice(ws, func(i, j int) bool { return ws[i].a < ws[j].a })
	var occ []span
	for _, s := range ws {
		if n := len(occ); n > 0 && s.a <= occ[n-1].b {
			occ[n-1].b = max(occ[n-1].b, s.b)
			continue
		}
		occ = append(occ, s)
	}
	return occ
}

// startsAt counts the lines with a word after their first starting at x
// (within 0.3pt: a column's cells set left start at one x).
func startsAt(lines []*textLine, x float64) int {
	n := 0
	for _, l := range lines {
		for _, w := range l.ws[1:] {
			if w.bb.X0 >= x && w.bb.X0 <= x+0.3 {
				n++
				break
			}
		}
	}
	return n
}

package table

import "math"

// numbersLast: the band's wrapped row labels carry their numbers on their
// last line: two or more times a line of the stub without a number (alone
// or beside text cells set on the label's first line) is followed,
// a leading below, by a line of the stub with numbers beside it
// ("Agriculture, forestry and", then "fishing 76.4 70.2"), and never a
// line of the stub with numbers by a line of the stub alone (the same
// label set with its numbers on its first line). The lower line is the
// same label's when it goes on lower-case, or when the two lines stand
// closer together than the upper one to the line above it (rows set
// apart, a label's lines at the font's leading), starting at the same x
// (a line indented under a label is an item under a group label).
func numbersLast(c *columnStats, band []*textLine) bool {
	if len(band) < 4 {
		return false
	}
	stub := c.stub()
	// kind of line k: alone (the stub and no number: a label's first
	// line, alone or beside text cells set top-aligned), nums (the stub
	// and a number beside it); asked only around lower-case lines
	kind := func(k int) (alone, nums bool) {
		lcs := c.cellsOf(band[k])
		if len(lcs) == 0 || lcs[0].col != stub || numericCell(lcs[0].ws) {
			return false, false
		}
		for _, lc := range lcs[1:] {
			nums = nums || numericCell(lc.ws)
		}
		return !nums, nums
	}
	gap := func(k int) float64 { return band[k].bb.Y0 - band[k-1].bb.Y1 }
	// together: lines k-1 and k are closer than the pair (j-1, j) is
	together := func(k, j int) bool {
		a, b := band[k-1], band[k]
		size := max(a.size, b.size)
		return j >= 1 && j < len(band) && math.Abs(a.ws[0].bb.X0-b.ws[0].bb.X0) <= 1 &&
			gap(j)-gap(k) > 0.25*size
	}
	up := 0
	for i := 1; i < len(band); i++ {
		a, b := band[i-1], band[i]
		if gap(i) > 0.8*max(a.size, b.size) {
			continue
		}
		lower := startsLower(b.ws[0].text)
		aAlone, aNums := kind(i - 1)
		bAlone, bNums := kind(i)
		switch {
		case aAlone && bNums && (lower || together(i, i-1)):
			up++
		case aNums && bAlone && (lower || together(i, i+1)):
			return false
		}
	}
	return up >= 2
}

// labelGoesOn: in a band whose wrapped labels carry their numbers on
// their last line (numbersLast), line band[i] (cells lcs) is the next
// line of row a's label though capitalised and at the rows' own leading:
// a is a label without numbers yet, the line is the stub alone starting
// where a's label starts, in its size and weight, and the lines under it
// (the stub alone at that x, a leading apart) reach a line of the label
// with the row's numbers beside it ("Grants social", "Imports areas",
// then "Employees (47) $502"). A group label over indented items starts
// left of them, and a label at the rows' leading whose numbers never
// come is no row's label.
func (c *columnStats) labelGoesOn(a *rowAcc, band []*textLine, i int, lcs []lineCell) bool {
	stub := c.stub()
	if !c.numbersLast || a.top || a.closed || numericRow(a) || len(lcs) != 1 || lcs[0].col != stub {
		return false
	}
	for j, cs := range a.cells {
		if (j == stub) != (len(cs) > 0) {
			return false // a's label alone
		}
	}
	x0 := a.cells[stub][0][0].bb.X0
	prev := band[i-1]
	for j := i; j < len(band); j++ {
		l := band[j]
		size := max(prev.size, l.size)
		if l.bb.Y0-prev.bb.Y1 > 0.8*size || math.Abs(prev.size-l.size) > 0.05*size || l.ws[0].bold != a.bold {
			return false
		}
		cs := c.cellsOf(l)
		if cs[0].col != stub || math.Abs(cs[0].ws[0].bb.X0-x0) > 1 || numericCell(cs[0].ws) {
			return false
		}
		if len(cs) > 1 {
			// the label's last line: numbers beside it
			for _, lc := range cs[1:] {
				if !numericCell(lc.ws) {
					return false
				}
			}
			return j > i
		}
		prev = l
	}
	return false
}

// numbersBelow: line band[i] (cells lcs) is the first line of a row of
// its own whose numbers sit on its last line, under row a that has its
// numbers: the line holds a label in the stub and no number, and the
// first line under it with a number (each a leading below the one above,
// none with a label: the row's text cells wrapping) holds them in
// columns where row a has them ("Married | shared with neighbouring",
// then "2021 88.4% districts", under "Total | 2019 62.0% approved"). A
// label wrapped under a row whose numbers sit on its first line has no
// numbers under it.
func (c *columnStats) numbersBelow(a *rowAcc, band []*textLine, i int, lcs []lineCell) bool {
	if i+1 >= len(band) || len(lcs) == 0 || lcs[0].col != c.stub() || !numericRow(a) {
		return false
	}
	for _, lc := range lcs {
		if numericCell(lc.ws) {
			return false
		}
	}
	// down the lines of the wrapped cells (no label, no number) to the
	// first with numbers
	for j := i + 1; j < len(band); j++ {
		l, next := band[j-1], band[j]
		if next.bb.Y0-l.bb.Y1 > 0.8*max(l.size, next.size) {
			return false
		}
		nums, has := 0, false
		for _, lc := range c.cellsOf(next) {
			if lc.col == c.stub() {
				return false
			}
			if !numericCell(lc.ws) {
				continue
			}
			has = true
			for _, ws := range a.cells[lc.col] {
				if numericCell(ws) {
					nums++
					break
				}
			}
		}
		if has {
			return nums > 0
		}
	}
	return false
}

// numbersUnderLabel: line lcs brings only numbers to a row of text cells
// and shares one text column with it: the numbers of a row set on the
// last line of its wrapped label or text cell, where the row's other text
// cells sit on its first ("Account administration | planned", then
// "Imports | 605,994 228"; "Net | shared with neighbouring", then
// "districts | 87.3%"). Whether that cell wrapped is still for continues
// to decide.
func numbersUnderLabel(a *rowAcc, lcs []lineCell) bool {
	if numericRow(a) {
		return false
	}
	shared := 0
	for _, lc := range lcs {
		if len(a.cells[lc.col]) > 0 {
			shared++
		} else if !numericCell(lc.ws) {
			return false
		}
	}
	return shared == 1
}

// leadsDown returns the line of band holding the numbers when line
// band[i] (cells lcs), a label in the stub (text cells beside it, set
// top-aligned, and no number) under row a that has its numbers, is the
// first line of the next row's label when it stands closer to the line
// under it than to the line above by 0.12 of a size (a label's lines at
// the font's leading, rows set apart: by a browser's 1px cell padding
// over and under a row, 1.5pt at 10pt, a fifth of a line before) and the lines
// under it, the stub alone at its x and as close, reach a line of the
// stub with a number beside it: that label's numbers on its last line
// ("Northern electricity", then "Imports 15.6%", under "Water transport
// and fishing areas 61.3%"). numbersLast reads the same spacing over a
// band of such rows; this is the one row that shows it. 0: not so.
func (c *columnStats) leadsDown(a *rowAcc, band []*textLine, i int, lcs []lineCell) int {
	stub := c.stub()
	if i+1 >= len(band) || !numericRow(a) || lcs[0].col != stub || !isWordOfLetters(lcs[0].ws[0].text) {
		return 0 // a label begins with a word (a date under a section number is the number's)
	}
	for _, lc := range lcs[1:] {
		if numericCell(lc.ws) {
			return 0 // text cells beside the label's first line, set top-aligned, and no number
		}
	}
	gap := func(k int) float64 { return band[k].bb.Y0 - band[k-1].bb.Y1 }
	x0 := lcs[0].ws[0].bb.X0
	for j := i + 1; j < len(band); j++ {
		l := band[j]
		if gap(i)-gap(j) <= 0.12*max(band[j-1].size, l.size) || math.Abs(band[j-1].size-l.size) > 0.05*l.size {
			return 0
		}
		cs := c.cellsOf(l)
		if cs[0].col != stub || math.Abs(cs[0].ws[0].bb.X0-x0) > 1 || numericCell(cs[0].ws) {
			return 0
		}
		for _, lc := range cs[1:] {
			if numericCell(lc.ws) {
				return j
			}
		}
		if len(cs) > 1 {
			return 0 // text cells beside the label: not its numbers
		}
	}
	return 0
}

// headApart: line band[i] (cells lcs), no number in it, stands closer to
// the line under it than to the line above by a fifth of a line, in the
// same size as both: the first line of column heads wrapped under a group
// head set apart above them ("Budget Unemployed", then "Change" over
// "Unemployed" over "of").
func headApart(band []*textLine, i int, lcs []lineCell) bool {
	if i+1 >= len(band) {
		return false
	}
	for _, lc := range lcs {
		if numericCell(lc.ws) {
			return false
		}
	}
	a, l, b := band[i-1], band[i], band[i+1]
	size := max(a.size, max(l.size, b.size))
	if math.Abs(a.size-l.size) > 0.05*size || math.Abs(b.size-l.size) > 0.05*size {
		return false
	}
	up, down := l.bb.Y0-a.bb.Y1, b.bb.Y0-l.bb.Y1
	return down <= 0.8*size && up-down > 0.2*size
}

// centredBeside: line band[i] sits half a line between the two lines
// around it, which hold cells of other columns only, a leading apart (the
// lines of cells wrapped over two lines): the row's other cells set in
// the middle of its height (a browser's default for table cells), on no
// line of the wrapped ones. The three lines are one row. Lines that close
// together (half a leading) are set so by nothing else a table holds but
// a label centred on two rows it spans: their lower line holds numbers
// (tabula/eu-017's accuracy levels), a wrapped cell's next line text.
func (c *columnStats) centredBeside(band []*textLine, i int) bool {
	if i < 1 || i+1 >= len(band) {
		return false
	}
	a, x, b := band[i-1], band[i], band[i+1]
	size := max(x.size, max(a.size, b.size))
	if math.Abs(a.size-b.size) > 0.05*size || math.Abs(a.size-x.size) > 0.15*size {
		return false
	}
	pitch := b.cy() - a.cy()
	if pitch < 0.9*size || pitch > 1.6*size || math.Abs(x.cy()-(a.cy()+b.cy())/2) > 0.15*size {
		return false
	}
	in := map[int]bool{}
	for _, lc := range c.cellsOf(x) {
		in[lc.col] = true
	}
	shared := false
	above := map[int]bool{}
	for _, lc := range c.cellsOf(a) {
		if in[lc.col] {
			return false
		}
		above[lc.col] = true
	}
	for _, lc := range c.cellsOf(b) {
		if in[lc.col] || !above[lc.col] || numericCell(lc.ws) {
			return false // a number under: rows of their own beside a label spanning both
		}
		shared = true
	}
	return shared
}

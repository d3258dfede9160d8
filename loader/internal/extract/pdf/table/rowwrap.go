package table

import (
	"math"
	"strings"
	"unicode"
)

// continues reports whether line l (below prev; lcs its cells) is more
// of row a, its
// cells the next lines of a's wrapped cells, and adds it to a if so.
//
// A cell wraps onto the next line when its next word does not fit the
// column: a line continues a cell when it starts with a lower-case letter
// or when the cell's last line plus a space and the line's first word
// would be wider than anything in the column. Numbers do not wrap, and a
// line standing apart by more than the leading of a paragraph is a row of
// its own, and so is a line in another font size. When the line fills
// every column the row has (a full row), only lower-case starts count: a
// full row after a wide one would otherwise "fit" the test. The line may
// fill columns the row lacks (the numbers of a label wrapped above them)
// or lack columns the row has (a label's second line), not both.
func (c *columnStats) continues(a *rowAcc, prev, l *textLine, lcs []lineCell) bool {
	size := max(prev.size, l.size)
	if l.bb.Y0-prev.bb.Y1 > 0.8*size || (math.Abs(prev.size-l.size) > 0.05*size && !c.runsOn(prev, l)) {
		return false // apart, or in another size: a heading or a note
	}
	shared, lExcl := 0, false
	for _, lc := range lcs {
		if len(a.cells[lc.col]) > 0 {
			shared++
		} else {
			lExcl = true
		}
	}
	filled := 0
	for _, cs := range a.cells {
		if len(cs) > 0 {
			filled++
		}
	}
	aExcl := shared < filled
	// under the heads a row's pitch is a cell's padding over the leading
	// (1px: 0.07 of a size); heads wrapped bottom-aligned stand further
	// apart in some producers' tables, so there 0.15
	margin := 0.07
	if a.top {
		margin = 0.15
	}
	hiddenEnd := false // the row would end here but for the lead hidden
	if (aExcl || lExcl) && !startsLower(lcs[0].ws[0].text) && !openEnded(a, lcs) && pitchApart(prev, l, margin) {
		// capitalised in other cells than the row's, a row's pitch below
		// it where a cell's next line would stand at the text's leading:
		// the next row, with blank cells ("| Opening remarks" under
		// "12 April | Workshop A", then "21 June | Budget review"), unless
		// the row's cell over it ends mid-phrase ("*PDT* or"). With the
		// lead hidden (hideLead) the row goes on to the tests below, as
		// with no lead known; if they let the line go on the row, the
		// lead would have changed the answer (addLine notes it).
		if !l.ws[0].leadHidden {
			return false
		}
		hiddenEnd = true
	}
	if a.top && !numericRow(a) && yearHeads(a, lcs) {
		return false // a row of year heads under a group head over them
	}
	full := !lExcl && !aExcl
	late := lExcl && aExcl
	// values' margins of error under them go on a row its numbers would
	// have closed
	margins := c.marginsUnder(a, prev, lcs)
	if !margins && (a.closed || c.numbersLast && numericRow(a)) || shared == 0 || late && !numbersUnderLabel(a, lcs) {
		return false
	}
	if a.top && filled >= 2 && len(lcs) == 1 && lcs[0].col == firstFilled(a) && !startsLower(lcs[0].ws[0].text) && !numericRow(a) {
		// under a header row of text cells, a capitalised line in the
		// stub column alone is the label of the first group of rows
		// ("Sex", then "Male", "Female"), not more of the stub head
		return false
	}
	// a column head wrapped over several lines, set bottom-aligned (or
	// centred) over its column: under the row's first lines of heads, a
	// line of text in the same columns, none of them the stub, is more
	// of those heads when its first word would not have fit beside them
	// ("Change" over "Amount", then "Country persons Q3"); a full row
	// of the body has a label in the stub
	headAbove := a.top && !numericRow(a) && !stubOrNumber(c, lcs)
	if a.top && !numericRow(a) && c.spansOver(prev, lcs) {
		return false
	}
	if !late && lcs[0].col == c.stub() && len(lcs[0].ws) == 1 && totalWord(lcs[0].ws[0].text) {
		// a total row's label ("Total", "TOTAL") is a row of its own,
		// unless the line brings the numbers the row lacks (a label
		// wrapped over its numbers, ending in the word)
		return false
	}
	if c.stubWraps(a, lcs) {
		return c.addLine(a, l, lcs, late, hiddenEnd)
	}
	if !margins && capitalisedRow(a, lcs, shared) {
		return false
	}
	allLower, bold := true, true
	wrap := c.wrapsLower(a, prev, l, lcs)
	for _, lc := range lcs {
		for _, w := range lc.ws {
			bold = bold && w.bold
		}
		if len(a.cells[lc.col]) == 0 {
			continue
		}
		first := lc.ws[0]
		lower := startsLower(first.text)
		if margins && marginCell(lc.ws) {
			continue
		}
		// a word that would not have fit, on a line another cell of which
		// goes on lower-case (wrap), goes on its cell too, capitalised
		// in a full line or after a number ("21", then "November" beside
		// "Poster", then "session")
		goesOn := wrap && len(a.cells[lc.col]) == 1 && c.wrapsUnder(a, lc)
		if full && !lower && !headAbove && !dangling(a, lcs) && !goesOn {
			return false
		}
		if numericCell(lc.ws) && !unit(lc.ws) && !yearEnding(a, lc, lcs) {
			return false
		}
		for _, ws := range a.cells[lc.col] {
			if numericCell(ws) && !goesOn {
				return false
			}
		}
		if cs := a.cells[lc.col]; codeWord(lc.ws) && codeWord(cs[len(cs)-1]) {
			return false
		}
		if lower {
			continue
		}
		if x0 := a.cells[lc.col][0][0].bb.X0; lc.col == c.stub() && x0 > c.left[lc.col]+2 && first.bb.X0 <= c.left[lc.col]+1 {
			// back at the stub's left edge under an indented item,
			// capitalised: the next group's label ("  Mining", then
			// "Type of area"); a label wraps under its own start
			return false
		}
		if x0 := a.cells[lc.col][0][0].bb.X0; lExcl && lc.col == c.stub() && x0 <= c.left[lc.col]+2 && first.bb.X0 > x0+2 {
			// indented in the stub under a label at its left edge,
			// capitalised and bringing cells the row lacks: an item
			// under a group label ("Elementary",
			// then "  Kindergarten 3,210"), where a label wrapped above
			// its numbers goes on lower-case
			return false
		}
		allLower = false
		if c.fits(a, lc.col, first) {
			return false
		}
	}
	if bold != a.bold && !allLower && !margins {
		return false // a heading in another weight
	}
	return c.addLine(a, l, lcs, late, hiddenEnd)
}

// addLine adds line l's cells lcs to row a, late: the numbers on the
// label's last line, which end the row; hiddenEnd: the row would have
// ended over the line but for the lead hidden, noted on its first word
// (leadAsked, see hideLead). It is continues' true.
func (c *columnStats) addLine(a *rowAcc, l *textLine, lcs []lineCell, late, hiddenEnd bool) bool {
	if hiddenEnd {
		l.ws[0].leadAsked = true
	}
	c.add(a, lcs)
	a.closed = late
	return true
}

// wrapsLower: in a band whose rows stand a row's pitch apart (pitched),
// line l stands at the text's leading under prev and one of its cells
// goes on a text
// cell of row a lower-case, with a word that would not have fit on that
// cell's line above: the line is the row's next line, its cells wrapped
// ("Poster", then "session"). In a band pitched but for the lead hidden
// (pitchedHidden) it is false, and a true answer it would have given
// with the lead is noted on the line's first word (leadAsked).
func (c *columnStats) wrapsLower(a *rowAcc, prev, l *textLine, lcs []lineCell) bool {
	if !c.pitched && !c.pitchedHidden || pitchApart(prev, l, 0.07) {
		return false
	}
	for _, lc := range lcs {
		cell := a.cells[lc.col]
		if len(cell) == 0 || !startsLower(lc.ws[0].text) || c.fits(a, lc.col, lc.ws[0]) {
			continue
		}
		text := true
		for _, ws := range cell {
			text = text && !numericCell(ws)
		}
		if text {
			if c.pitchedHidden {
				l.ws[0].leadAsked = true
				return false
			}
			return true
		}
	}
	return false
}

// pitchedBand: the text's leading is known and half the steps from a
// line of the band to the next, two at least, of those a leading or more
// (a cell centred beside a taller one stands half a line from its
// neighbours), are a row's pitch (rowPitch): a browser's table, its cells
// padded, where a step at the leading is a cell's next line. In a table
// set without padding every row stands at the leading, as a cell's next
// line does, and says nothing. With the lead hidden (hideLead) the band
// is not pitched, and hidden says it would be with the lead.
func pitchedBand(band []*textLine) (pitched, hidden bool) {
	n, np := 0, 0
	for i := 1; i < len(band); i++ {
		prev, l := band[i-1], band[i]
		r := float64(l.ws[0].lead) / 100
		if r == 0 {
			return false, false
		}
		if l.bb.Y0-prev.bb.Y0 < 0.9*r*max(prev.size, l.size) {
			continue
		}
		n++
		if pitchApart(prev, l, 0.07) {
			np++
		}
	}
	if np < 2 || 2*np < n {
		return false, false
	}
	if band[1].ws[0].leadHidden {
		return false, true
	}
	return true, false
}

// wrapsUnder: the cell lc of a line is words (no number, no code) whose
// first would not have fit on the line above of row a's cell in its
// column: that cell's next line, where the line is one (wrapsLower).
func (c *columnStats) wrapsUnder(a *rowAcc, lc lineCell) bool {
	return !numericCell(lc.ws) && !codeWord(lc.ws) && !c.fits(a, lc.col, lc.ws[0])
}

// capitalisedRow: below the header, a line that goes on in two or more
// of row a's cells, none of them starting lower-case, is a row of its
// own, whatever cells it lacks or brings: the next row of a table whose
// blank cells leave it with fewer or more cells than the row above ("3
// October | | Mr Boateng" under "8 October | Poster session | Mr
// Boateng"; "27 June | Closing | Ms Haddad | 11:30" under a row without
// a time). Two cells wrapping at once go on lower-case in one of them at
// least; short cells of dates and names fail the would-it-have-fit test
// (fits), as a full row's do. Column heads wrap capitalised ("Change
// Actual", then "Share"): not in the header (a.top without numbers), and
// not after a word that ends no phrase (dangling); values' margins of
// error under them ("(+/-7.6)") are more of their row (continues).
func capitalisedRow(a *rowAcc, lcs []lineCell, shared int) bool {
	if shared < 2 || a.top && !numericRow(a) || dangling(a, lcs) {
		return false
	}
	for _, lc := range lcs {
		if len(a.cells[lc.col]) > 0 && startsLower(lc.ws[0].text) {
			return false
		}
	}
	return true
}

// codeWord: the words are one word with a digit and no lower-case
// letter: a code, a room, a range ("WS-9929", "A-296", "52–64"). Like a
// number it does not wrap: one under another in a column, each is a
// cell of its own ("SK-8386", then "WS-9929" in a row whose label is
// blank), not a cell's two lines.
func codeWord(ws []*word) bool {
	if len(ws) != 1 {
		return false
	}
	t := ws[0].text
	return strings.ContainsAny(t, "0123456789") && strings.IndexFunc(t, unicode.IsLower) < 0
}

// wrapsAll: line lcs fills two or more of row a's cells and goes on
// with each: in every one, its first word would not have fit on the
// cell's line above ("My Journey Kit: Breast Cancer", then "Network
// Australia's ..." beside a web address under a phone number), the
// first cell running text (lower-case letters in it). A line whose first
// word would have fit somewhere starts a row of its own, and so does one
// set in capitals (a report's heading lines: "JOB 0014 GENERAL
// ELECTION", then "PRECINCT 0050003A ACTON").
func (c *columnStats) wrapsAll(a *rowAcc, lcs []lineCell) bool {
	if len(lcs) < 2 || !hasLower(lcs[0].ws) {
		return false
	}
	for _, lc := range lcs {
		if len(a.cells[lc.col]) == 0 || c.fits(a, lc.col, lc.ws[0]) {
			return false
		}
	}
	return true
}

// runsOn: line prev's words in the column where line l starts mix
// sizes, one of them the size l starts in: a lead-in in a larger size
// ("YWCA Encore:" at 10pt, then "This free eight-week" at 9.25pt) opens
// a cell whose text runs on under it, where a heading or a note is in
// another size throughout.
func (c *columnStats) runsOn(prev, l *textLine) bool {
	col, first := c.col(l.ws[0]), l.ws[0].size
	mixed, same := false, false
	for _, w := range prev.ws {
		if c.col(w) != col {
			continue
		}
		if math.Abs(w.size-first) <= 0.05*first {
			same = true
		} else {
			mixed = true
		}
	}
	return same && mixed
}

// stubWraps: line lcs goes on with row a's label: its stub cell starts
// lower-case (after an opening bracket: "(intermediate" under "Grade 2"),
// or capitalised when each of its cells goes on with the row's
// (wrapsAll: "Network Australia's" under "Breast Cancer", "bcna.org.au"
// under a phone number), with a word that would not have fit on the
// label's last line, and none of its other cells is a number. A label does not wrap into the
// next row's, so the line is more of the row whatever its other cells
// hold: a new sentence of a text cell ("They are growing ..."), or the
// next item of a cell that lists several (a web address under a phone
// number). A lower-case word that would have fit (the labels "cat" then
// "dog") is a row of its own. Only where rules run between the body's
// rows (ruledRows), each band between them meant as one row: in a band of
// many one-line rows (a table ruled only at its head and foot, or not at
// all) a column of lower-case labels ("max_connections", then "timeout")
// would be glued row onto row.
func (c *columnStats) stubWraps(a *rowAcc, lcs []lineCell) bool {
	stub := c.stub()
	if !c.ruledRows || lcs[0].col != stub || len(a.cells[stub]) == 0 {
		return false
	}
	first := lcs[0].ws[0]
	if !startsLower(strings.TrimLeft(first.text, "([")) && !c.wrapsAll(a, lcs) {
		return false
	}
	for _, lc := range lcs[1:] {
		if numericCell(lc.ws) {
			return false
		}
	}
	return !c.fits(a, stub, first)
}

// fits: word w would have fit on the last line of row a's cell in column
// col, a space after it, within the widest extent of the column's text.
func (c *columnStats) fits(a *rowAcc, col int, w *word) bool {
	width := c.right[col] - c.left[col]
	need := a.right[col] - c.left[col] + 0.25*w.size + (w.bb.X1 - w.bb.X0)
	return need <= width+0.5
}

// dangling: a text cell of row a ends its last line in a word that ends
// no phrase ("funded by the"), and line lcs goes on in that column
// lower-case ("regional authority"): the line is more of the row, the
// label beside it too ("Transport services over", then "Public").
func dangling(a *rowAcc, lcs []lineCell) bool {
	for _, lc := range lcs {
		cell := a.cells[lc.col]
		if len(cell) == 0 || !startsLower(lc.ws[0].text) {
			continue
		}
		last := cell[len(cell)-1]
		if openWords[last[len(last)-1].text] {
			return true
		}
	}
	return false
}

// openEnded: a cell of row a that a cell of the line goes on under ends
// with a comma or a word that ends no phrase (openWords): the line is
// more of it.
func openEnded(a *rowAcc, lcs []lineCell) bool {
	for _, lc := range lcs {
		cell := a.cells[lc.col]
		if len(cell) == 0 {
			continue
		}
		last := cell[len(cell)-1]
		t := last[len(last)-1].text
		if openWords[t] || strings.HasSuffix(t, ",") {
			return true
		}
	}
	return false
}

// openWords end no phrase of English: articles, prepositions and
// conjunctions.
var openWords = map[string]bool{"the": true, "a": true, "an": true, "of": true, "and": true, "or": true,
	"by": true, "for": true, "to": true, "with": true, "from": true, "in": true, "on": true, "at": true}

// hasLower: a word of ws has a lower-case letter.
func hasLower(ws []*word) bool {
	for _, w := range ws {
		if strings.IndexFunc(w.text, unicode.IsLower) >= 0 {
			return true
		}
	}
	return false
}

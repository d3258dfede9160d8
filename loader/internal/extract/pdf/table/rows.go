package table

import (
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/document"
)

// rowSeps returns the row boundaries of a table region, box edges
// included: the horizontal rules rh inside the box, and between rules,
// where a band of lines looks like rows of its own (with no rules inside,
// always), a virtual boundary between lines that do not continue the
// row above. A band whose lines do not look like rows (a ruled cell that
// wraps) stays one row.
func rowSeps(box document.BBox, lines []*textLine, xs []sep, rh []rule) []sep {
	var ys []sep
	for _, p := range positions(rh, 3) {
		ys = append(ys, sep{p, true})
	}
	edges := make([]float64, 0, len(ys)+2)
	edges = append(edges, box.Y0)
	for _, y := range ys {
		edges = append(edges, y.pos)
	}
	edges = append(edges, box.Y1)
	cols := newColumnStats(lines, xs)
	cols.ruledRows = textBands(edges, lines) >= 3
	// the right edge of the first column holding text (a rule of a header
	// cell's background left of the labels makes an empty column first)
	firstCol := xs[1].pos
	for k := 1; k+1 < len(xs) && math.IsInf(cols.left[k-1], 1); k++ {
		firstCol = xs[k+1].pos
	}
	bands := make([][]*textLine, len(edges)-1)
	for k := range bands {
		for _, l := range lines {
			if cy := l.cy(); cy > edges[k] && cy < edges[k+1] {
				bands[k] = append(bands[k], l)
			}
		}
	}
	// a band of the body holding three lines or more of a label and a
	// number each (numbers do not wrap: three rows) says the rules do
	// not run between the rows: they part groups of rows, or a group
	// head from the heads under it
	grouped := false
	for k := 1; k < len(bands) && len(ys) > 2 && !grouped; k++ {
		grouped = numberRows(cols, bands[k], firstCol) >= 3
	}
	seen := false
	for k, band := range bands {
		header := !seen // the first band of text: the column heads
		seen = seen || len(band) > 0
		if len(band) < 2 {
			continue
		}
		split := len(ys) == 0
		if !split && len(band) >= 3 {
			label, multi := labelLines(cols, band, firstCol)
			split = float64(label) >= 0.7*float64(len(band)) && multi >= 2
			// the body of a table ruled under its header (and over a
			// total) only is set like an unruled one: its lines are rows
			// unless continues says they wrap, in whichever column
			split = split || len(ys) <= 2 && k > 0 && label >= 2 && multi >= 2
		}
		if !split && len(band) == 2 && k > 0 && (len(ys) <= 2 || grouped) {
			// two body lines between the few rules of a table ruled
			// under its header (and over a total) only, or between
			// rules that part groups of rows (grouped),
			// each filling the same two or more columns from the first:
			// two rows unless the second continues the first (continues
			// decides); where rules run between most rows, a band is
			// one row
			a, b := cols.cellsOf(band[0]), cols.cellsOf(band[1])
			same := len(a) >= 2 && len(a) == len(b) && band[0].ws[0].cx() < firstCol && band[1].ws[0].cx() < firstCol
			for i := 0; same && i < len(a); i++ {
				same = a[i].col == b[i].col
			}
			split = same
		}
		body := false
		if !split && header && k == 0 && len(ys) > 0 {
			if h := headsOverRows(cols, band, firstCol); h > 0 {
				// the column heads over the first group's rows, no rule
				// under the heads: a header row, then the rows line by line
				ys = append(ys, sep{(band[h-1].bb.Y1 + band[h].bb.Y0) / 2, false})
				band, split, body = band[h:], true, true
			}
		}
		if !split && header && k == 0 && len(ys) > 0 && labelledLast(cols, band, firstCol) {
			// the heads (no stub label) over the first body row, shaded
			// or ruled below (zebra rows): the row is not the heads'
			n := len(band)
			ys = append(ys, sep{(band[n-2].bb.Y1 + band[n-1].bb.Y0) / 2, false})
			continue
		}
		if !split && header && k == 0 && len(ys) > 0 {
			if cuts := stubHeadRows(cols, band, firstCol); len(cuts) > 0 {
				// rows of heads each with its stub head: a row per line
				ys = append(ys, cuts...)
				continue
			}
		}
		if !split && k > 0 && !header {
			// rows in groups between group rules
			ys = append(ys, groupRows(cols, band, xs)...)
			continue
		}
		if !split {
			continue
		}
		cols.numbersLast = numbersLast(cols, band)
		cols.pitched, cols.pitchedHidden = pitchedBand(band)
		acc := cols.start(cols.cellsOf(band[0]))
		acc.top = k == 0 && !body
		for i := 1; i < len(band); i++ {
			lcs := cols.cellsOf(band[i])
			if same, known := sameCentredRow(band[i-1], band[i]); known {
				// the rows of cells set centred (topAlignCentred) are known
				if same {
					cols.add(&acc, lcs)
				} else {
					ys = append(ys, sep{(band[i-1].bb.Y1 + band[i].bb.Y0) / 2, false})
					acc = cols.start(lcs)
				}
				continue
			}
			if cols.centredBeside(band, i) || cols.centredBeside(band, i-1) || cols.labelGoesOn(&acc, band, i, lcs) || cols.valueOfCell(&acc, band, i, lcs) {
				cols.add(&acc, lcs)
				continue
			}
			if acc.top && !numericRow(&acc) && firstFilled(&acc) != cols.stub() && headApart(band, i, lcs) {
				// a head line set apart from a group head above it (right
				// of the stub) and close to the lines under it: a row of
				// column heads of its own, still the header's (acc.top)
				ys = append(ys, sep{(band[i-1].bb.Y1 + band[i].bb.Y0) / 2, false})
				acc = cols.start(lcs)
				acc.top = true
				continue
			}
			if j := cols.leadsDown(&acc, band, i, lcs); j > i {
				// the next row's label, down to its numbers: one row
				ys = append(ys, sep{(band[i-1].bb.Y1 + band[i].bb.Y0) / 2, false})
				acc = cols.start(lcs)
				for ; i < j; i++ {
					cols.add(&acc, cols.cellsOf(band[i+1]))
				}
				acc.closed = true
				continue
			}
			// the sub-heads' row under a group head is a row of its own
			sub := acc.top && !numericRow(&acc) && i+1 < len(band) && cols.subHeads(band[i-1], band[i], band[i+1], lcs)
			if !sub && !cols.numbersBelow(&acc, band, i, lcs) && cols.continues(&acc, band[i-1], band[i], lcs) {
				continue
			}
			ys = append(ys, sep{(band[i-1].bb.Y1 + band[i].bb.Y0) / 2, false})
			// under a head row standing right of the stub (a group head
			// over some columns), the next row is still the header's:
			// the column heads with the stub head, so the body's first
			// label under them is a row of its own (acc.top)
			top := acc.top && !numericRow(&acc) && firstFilled(&acc) != cols.stub()
			acc = cols.start(lcs)
			acc.top = top
		}
	}
	sort.Slice(ys, func(i, j int) bool { return ys[i].pos < ys[j].pos })
	return append(append([]sep{{box.Y0, true}}, ys...), sep{box.Y1, true})
}

// textBands counts the intervals between sorted edges holding a line's
// centre.
func textBands(edges []float64, lines []*textLine) int {
	n := 0
	for k := 0; k+1 < len(edges); k++ {
		for _, l := range lines {
			if cy := l.cy(); cy > edges[k] && cy < edges[k+1] {
				n++
				break
			}
		}
	}
	return n
}

// columnStats are a table region's column boundaries and each column's
// text extent, for telling a wrapped cell's next line from a new row.
type columnStats struct {
	xs          []sep
	left, right []float64 // per column: the least X0 and greatest X1 of its words
	// numbersLast: the band's wrapped row labels carry their numbers on
	// their last line (numbersLast), so a row with numbers is complete
	numbersLast bool
	// ruledRows: rules run between the body's rows (three bands of text
	// or more between the region's rules), each band meant as one row
	ruledRows bool
	// pitched: the band's rows stand a row's pitch apart, further than
	// its cells' lines (pitchedBand); pitchedHidden: they would, but the
	// lead is hidden (hideLead), so they do not
	pitched, pitchedHidden bool
}

func newColumnStats(lines []*textLine, xs []sep) *columnStats {
	n := len(xs) - 1
	c := &columnStats{xs: xs, left: make([]float64, n), right: make([]float64, n)}
	for j := range c.left {
		c.left[j], c.right[j] = math.Inf(1), math.Inf(-1)
	}
	for _, l := range lines {
		for _, w := range l.ws {
			j := c.col(w)
			c.left[j] = min(c.left[j], w.bb.X0)
			c.right[j] = max(c.right[j], w.bb.X1)
		}
	}
	return c
}

func (c *columnStats) col(w *word) int {
	j := sort.Search(len(c.xs), func(i int) bool { return c.xs[i].pos > w.cx() }) - 1
	return min(max(j, 0), len(c.xs)-2)
}

// stub is the first column holding text (the row labels).
func (c *columnStats) stub() int {
	for j, x := range c.left {
		if !math.IsInf(x, 1) {
			return j
		}
	}
	return 0
}

// lineCell is a line's words in one column.
type lineCell struct {
	col int
	ws  []*word
}

// cellsOf splits a line by column, left to right. A cell's words are a
// run of the line's (capped: appending to them copies).
func (c *columnStats) cellsOf(l *textLine) []lineCell {
	var out []lineCell
	start := 0
	for i, w := range l.ws {
		j := c.col(w)
		if n := len(out); n > 0 && out[n-1].col == j {
			out[n-1].ws = l.ws[start : i+1 : i+1]
			continue
		}
		start = i
		out = append(out, lineCell{j, l.ws[i : i+1 : i+1]})
	}
	return out
}

// rowAcc is a row being grown line by line: per column, its cells' words
// line by line and the right edge of its last line; and whether the last
// line is bold.
type rowAcc struct {
	cells [][][]*word
	right []float64
	bold  bool
	top   bool // the table's first row
	// closed: the row's numbers came on its label's last line
	// (numbersUnderLabel), so no line below is more of it
	closed bool
}

func (c *columnStats) start(lcs []lineCell) rowAcc {
	n := len(c.xs) - 1
	a := rowAcc{cells: make([][][]*word, n), right: make([]float64, n)}
	c.add(&a, lcs)
	return a
}

func (c *columnStats) add(a *rowAcc, lcs []lineCell) {
	bold := true
	for _, lc := range lcs {
		a.cells[lc.col] = append(a.cells[lc.col], lc.ws)
		// the text's right edge, leader dots left out: "Gambling . . . ."
		// ends where "Gambling" does, so the next label would have fit
		k := len(lc.ws) - 1
		for k > 0 && leader(lc.ws[k].text) {
			k--
		}
		a.right[lc.col] = lc.ws[k].bb.X1
		for _, w := range lc.ws {
			bold = bold && w.bold
		}
	}
	a.bold = bold
}

// spansOver: a phrase of line prev (words a space apart) runs over two
// or more columns in each of which line lcs has a cell: a group head over
// the column heads under it ("Females Units" over "Founded" and
// "Index"), a header row of its own, where a head wrapped within its
// column stays in it.
func (c *columnStats) spansOver(prev *textLine, lcs []lineCell) bool {
	for _, w := range prev.ws {
		if c.col(w) == c.stub() {
			return false // a group head stands over the columns right of the stub
		}
	}
	for k := 0; k < len(prev.ws); {
		c0 := c.col(prev.ws[k])
		c1 := c0
		e := k + 1
		for ; e < len(prev.ws) && prev.ws[e].bb.X0-prev.ws[e-1].bb.X1 < 0.6*prev.ws[e].size; e++ {
			c1 = c.col(prev.ws[e])
		}
		if c1 > c0 {
			under := 0
			for _, lc := range lcs {
				if lc.col >= c0 && lc.col <= c1 {
					under++
				}
			}
			if under >= 2 {
				return true
			}
		}
		k = e
	}
	return false
}

// headsOverRows: the first band of a table ruled in groups of rows (no
// rule under its heads) holds the column heads, lines with no label in
// the stub, over two or more lines of the first group's rows, each a
// label and cells right of it ("Lower secondary ... Primary" over "West
// Midlands 3190.3 ...", "North West 228 769 ..."). It returns the index
// of the first row's line, 0 when the band is not such. Each row has a
// number right of the stub (not a year).
func headsOverRows(c *columnStats, band []*textLine, firstCol float64) int {
	h := 0
	for h < len(band) && band[h].ws[0].cx() >= firstCol {
		h++
	}
	rows := band[h:]
	if h == 0 || len(rows) < 2 {
		return 0
	}
	stub := c.stub()
	for _, l := range rows {
		if l.ws[0].cx() >= firstCol {
			return 0
		}
		num := false
		for _, lc := range c.cellsOf(l) {
			// a number, not a year: a stub head on the heads' last line
			// ("Industry", then heads and years) is no row
			num = num || lc.col != stub && numericCell(lc.ws) && !(len(lc.ws) == 1 && yearRe.MatchString(lc.ws[0].text))
		}
		if !num {
			return 0
		}
	}
	return h
}

// labelledLast: the band's last line starts with a label left of
// firstCol (the stub's right edge) and has a number (no year) right of
// the stub, and the lines above it have no label (heads right of the
// stub), or the line above is a row of heads of its own: a label and two
// cells or more right of the stub, the last line with two values (numbers
// or times) right of it (a timetable's "Route 293 778 ..." over "Mill
// Lane 05:08 06:06 ..."). That line is the table's first body row (a
// stub head on the heads' last line has no number; a wrapped label's
// first line no cells right of the stub).
func labelledLast(c *columnStats, band []*textLine, firstCol float64) bool {
	n := len(band)
	if band[n-1].ws[0].cx() >= firstCol {
		return false
	}
	stub := c.stub()
	num, values := false, 0
	for _, lc := range c.cellsOf(band[n-1]) {
		if lc.col == stub {
			continue
		}
		if numericCell(lc.ws) && !(len(lc.ws) == 1 && yearRe.MatchString(lc.ws[0].text)) {
			num = true
		}
		if numericCell(lc.ws) || dateTime(lineText(&textLine{ws: lc.ws})) {
			values++
		}
	}
	labelled := 0
	for _, l := range band[:n-1] {
		if l.ws[0].cx() < firstCol {
			labelled++
		}
	}
	if labelled == 0 {
		return num
	}
	if labelled > 1 || band[n-2].ws[0].cx() >= firstCol || values < 2 {
		return false
	}
	cells := 0
	for _, lc := range c.cellsOf(band[n-2]) {
		if lc.col != stub {
			cells++
		}
	}
	return cells >= 2
}

// totalWord: w is a total row's label.
func totalWord(w string) bool {
	switch strings.TrimRight(w, ":") {
	case "Total", "Totals", "TOTAL", "TOTALS":
		return true
	}
	return false
}

// stubOrNumber: one of the line's cells is in the stub column or is a
// number.
func stubOrNumber(c *columnStats, lcs []lineCell) bool {
	for _, lc := range lcs {
		if lc.col == c.stub() || numericCell(lc.ws) {
			return true
		}
	}
	return false
}

// yearEnding: cell lc of line lcs is a year alone under a cell of words
// of row a: the end of a text cell wrapped before it ("transferred in",
// then "2019"), where numbers do not wrap otherwise. The line's other
// cells, if any, are numbers the row lacks (its numbers set on its last
// line: "81.4 2019") or words under its other text cells (more of them
// wrapping, as continues decides: "supply 2019").
func yearEnding(a *rowAcc, lc lineCell, lcs []lineCell) bool {
	cell := a.cells[lc.col]
	if len(lc.ws) != 1 || !yearRe.MatchString(lc.ws[0].text) || len(cell) == 0 {
		return false
	}
	for _, o := range lcs {
		if o.col != lc.col && (len(a.cells[o.col]) > 0) == numericCell(o.ws) {
			return false
		}
	}
	last := cell[len(cell)-1]
	return !numericCell(last) && isWordOfLetters(last[len(last)-1].text)
}

// firstFilled is the first column in which row a has text.
func firstFilled(a *rowAcc) int {
	for j, cs := range a.cells {
		if len(cs) > 0 {
			return j
		}
	}
	return -1
}

// numericRow: some cell of row a is a number or a placeholder.
func numericRow(a *rowAcc) bool {
	for _, cs := range a.cells {
		for _, ws := range cs {
			if numericCell(ws) {
				return true
			}
		}
	}
	return false
}

// numericCell: the words make a number or a placeholder.
func numericCell(ws []*word) bool {
	// a word starting with a letter is neither, unless it is "n/a" or
	// "x" (placeholders) or a currency's code ("CHF 1,234"): skip the
	// regular expressions for text
	if r, _ := utf8.DecodeRuneInString(ws[0].text); unicode.IsLetter(r) && !strings.ContainsRune("nNxX", r) && !currencyCodes[ws[0].text] {
		return false
	}
	if len(ws) == 1 {
		return numeric(ws[0].text) || placeholder(ws[0].text)
	}
	s := ws[0].text
	for _, w := range ws[1:] {
		s += " " + w.text
	}
	return numeric(s) || placeholder(s)
}

// unit: the words are one parenthesised or bracketed phrase ("($1,000)",
// "[%]"): under a text cell (continues checks the cell above is no
// number) it is the unit of a column header, not a number of its own.
func unit(ws []*word) bool {
	a, b := ws[0].text, ws[len(ws)-1].text
	if len(ws) == 1 && placeholder(a) {
		return false // "(NA)": a missing number, not a unit
	}
	return (strings.HasPrefix(a, "(") && strings.HasSuffix(b, ")")) || (strings.HasPrefix(a, "[") && strings.HasSuffix(b, "]"))
}

// leader: a word of dot leaders only ("." or "....").
func leader(s string) bool {
	return s != "" && strings.Trim(s, ".…·") == ""
}

func startsLower(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLower(r)
}

// mergeHeaderColumns drops a text-gap column boundary between a column
// that holds only header text (three rows at most, all above the other's
// first row) and a column that holds only body text, when no row has
// text in both: a header centred or left-aligned over right-aligned
// numbers leaves a gap of its own between them. The header goes with the
// body column nearest to it.
func mergeHeaderColumns(xs, ys []sep, ws []*word) []sep {
	edgesY := make([]float64, len(ys))
	for i, y := range ys {
		edgesY[i] = y.pos
	}
	nr := len(ys) - 1
	for {
		nc := len(xs) - 1
		type colInfo struct {
			nRows      int
			minR, maxR int
			x0, x1     float64
		}
		info := make([]colInfo, nc)
		for j := range info {
			info[j] = colInfo{minR: math.MaxInt, maxR: -1, x0: math.Inf(1), x1: math.Inf(-1)}
		}
		edgesX := make([]float64, len(xs))
		for i, x := range xs {
			edgesX[i] = x.pos
		}
		occ := make([]bool, nr*nc)
		for _, w := range ws {
			i, j := band(edgesY, w.cy()), band(edgesX, w.cx())
			c := &info[j]
			if !occ[i*nc+j] {
				occ[i*nc+j] = true
				c.nRows++
			}
			c.minR, c.maxR = min(c.minR, i), max(c.maxR, i)
			c.x0, c.x1 = min(c.x0, w.bb.X0), max(c.x1, w.bb.X1)
		}
		dist := func(a, b int) float64 {
			return max(info[a].x0, info[b].x0) - min(info[a].x1, info[b].x1)
		}
		// header-only column h beside body-only column b
		pair := func(h, b int) bool {
			H, B := info[h], info[b]
			if H.nRows == 0 || H.nRows > 3 || B.nRows < 2 || H.maxR >= B.minR {
				return false
			}
			// the header's other neighbour, if it has body text, is not nearer
			o := h - (b - h)
			return o < 0 || o >= nc || info[o].nRows == 0 || info[o].maxR < B.minR || dist(h, o) > dist(h, b)
		}
		merged := false
		for k := 1; k < nc; k++ {
			if xs[k].real {
				continue
			}
			if pair(k-1, k) || pair(k, k-1) {
				xs = append(xs[:k:k], xs[k+1:]...)
				merged = true
				break
			}
		}
		if !merged {
			return xs
		}
	}
}

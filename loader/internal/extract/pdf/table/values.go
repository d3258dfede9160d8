package table

import (
	"math"
	"regexp"
	"strings"
)

// numRange is a range of two whole numbers of up to four digits
// ("17-22", "01-03"): the positions a record's field takes.
func numRange(s string) bool { return rangeRe.MatchString(s) }

var rangeRe = regexp.MustCompile(`^\d{1,4}[-–]\d{1,4}$`)

// valueLine: l is one phrase naming a value a field takes and what it
// means, as a description of a record's field goes on under it
// ("0 = not present", "6020B = present", "01-99: yes", "2 - filed
// late", "R -- refused"): a short value (six characters at most), then
// "=", a dash (a hyphen, two hyphens standing for one, an en dash) or a
// colon, then words.
func valueLine(l *textLine) bool {
	if len(l.ws) < 2 {
		return false
	}
	v := l.ws[0].text
	switch sep := l.ws[1].text; {
	case len(l.ws) >= 3 && len(v) <= 6 && (sep == "=" || sep == "-" || sep == "--" || sep == "–"):
		return true
	case len(v) >= 2 && len(v) <= 7 && strings.HasSuffix(v, ":"):
		return true
	}
	return false
}

// starredValue: l, which starts with "*" (a caption start: a note under
// a table), is instead a value line under a column of the run
// (valueUnder: "* = not known" or "*: not known" in a field's list of values, indented
// under the description's column, a line's gap under the line above). A
// note set at the table's left edge, or apart from it, still ends the
// run. Found on tune pages of tablegen v10, whose value lists draw "*".
func starredValue(cols []span, prev, l *textLine, gap float64) bool {
	return len(l.ws) > 0 && (l.ws[0].text == "*" || l.ws[0].text == "*:") && valueUnder(cols, prev, l, gap)
}

// maxValueLines is how many value lines (valueUnder, not in a column of
// the run) under a run's last row join its description; the lines after
// them are the text's. Chosen on the generated tune split (tablegen v9,
// whose lists run to 7 lines, in a last row too): caps 0/2/3/4/5/6/7/none
// gave cell content 0.958/0.962/0.962/0.964/0.964/0.965/0.965/0.965,
// adjacency 0.982/0.983/0.983/0.983/0.983/0.984/0.984/0.984, detection
// 0.984 at all; 6 is the least at the best. 01b10c2's 3 had been chosen
// on a visible page without truth.
const maxValueLines = 6

// valueUnder: l (under prev) is a value line (valueLine) set under a
// column of the run that is not its first (cols: where the run's phrases
// start and end), flush with the column's start or indented up to 2.5
// sizes, a line's gap under prev at most: more of the cell above it, not
// a line ending the run.
func valueUnder(cols []span, prev, l *textLine, gap float64) bool {
	if l.bb.Y0-prev.bb.Y1 > 0.8*max(l.size, prev.size) || l.nSegments(gap) != 1 || !valueLine(l) {
		return false
	}
	first := math.Inf(1)
	for _, c := range cols {
		first = min(first, c.a)
	}
	for _, c := range cols {
		if c.a > first+gap && l.bb.X0 >= c.a-2 && l.bb.X0 <= c.a+2.5*l.size {
			return true
		}
	}
	return false
}

// valueOfCell: line i of band (its cells lcs) is a value line (valueLine)
// in one column only, not the stub, under a text cell the row a has in
// that column, a line's gap under the line above at most: more of that
// cell (a field's description, then the values the field takes), not a
// row of its own nor the next row's first line. Under the column heads
// (a.top) such lines are rows of their own: a page's first lines going on
// from a table's last row on the page before.
func (c *columnStats) valueOfCell(a *rowAcc, band []*textLine, i int, lcs []lineCell) bool {
	l, prev := band[i], band[i-1]
	if a.top || len(lcs) != 1 || lcs[0].col == c.stub() || len(a.cells[lcs[0].col]) == 0 ||
		l.bb.Y0-prev.bb.Y1 > 0.8*max(l.size, prev.size) || !valueLine(l) {
		return false
	}
	return !numericCell(a.cells[lcs[0].col][0])
}

// meaningGoesOn: l, one phrase naming no value, set a line's gap at most
// under a value line prev (valueLine), starting past prev's value and
// before its end, goes on with the value's meaning ("R = refused by the
// office," / "unless a later entry replaces it").
func meaningGoesOn(prev, l *textLine, gap float64) bool {
	if !valueLine(prev) || valueLine(l) || l.nSegments(gap) != 1 ||
		l.bb.Y0-prev.bb.Y1 > 0.8*max(l.size, prev.size) {
		return false
	}
	return l.bb.X0 > prev.ws[0].bb.X1 && l.bb.X0 < prev.bb.X1
}

// sharedNumbers: the first column under a head that is no number holds
// whole numbers (three or more, at least 0.6 of its filled cells below
// the head), and some row repeats the number of the row above: numbers
// that rows share (a record's line numbers, "2, 2, 2, 3"), which a
// numbered list's items never do.
func sharedNumbers(rows [][]string) bool {
	if len(rows) < 4 || rows[0][0] == "" || wholeRe.MatchString(rows[0][0]) {
		return false
	}
	nums, filled, shared, prev := 0, 0, false, ""
	for _, r := range rows[1:] {
		if r[0] == "" {
			continue
		}
		filled++
		if wholeRe.MatchString(r[0]) {
			nums++
			shared = shared || r[0] == prev
		}
		prev = r[0]
	}
	return shared && nums >= 3 && float64(nums) >= 0.6*float64(filled)
}

var wholeRe = regexp.MustCompile(`^\d{1,4}$`)

package table

import (
	"math"
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
)

// headAndRow reads a run of exactly two lines as a table of one row under
// its column heads, when the two say so by themselves: as many phrases a
// cell's padding apart on each (two or more), each phrase of the second
// starting or ending where the one above it does (2pt: left- or
// right-aligned columns), the first line's phrases short heads of words
// (no number, no label's colon, no running text, none repeated under
// itself), and the second holding a value (a number or a placeholder
// after the first column, a date or time) unless there are three columns
// or more.
// The line right under the two, when inside their width (from a gap
// left of their start to a gap past their end) and in their size, may be
// a row the run did not take (a lone value): then it is not one row (a
// note under it is set smaller; a paragraph's line beside them, a table
// floating right of the text, is no row of theirs). A run of
// three such lines or more is scan's; two lines of running text
// never line up phrase by phrase, and two lines of two text phrases (a
// name over a name) are too little to tell from a form or a signature.
func (d *Detector) headAndRow(part []*textLine, next *textLine, size, gap float64, hs, vs []rule) (textFound, bool) {
	if len(part) != 2 {
		return textFound{}, false
	}
	head, row := part[0], part[1]
	if next != nil && next.bb.Y0-row.bb.Y1 <= 1.8*size && next.bb.X1 <= math.Max(head.bb.X1, row.bb.X1)+gap &&
		next.bb.X0 >= math.Min(head.bb.X0, row.bb.X0)-gap && math.Abs(next.size-row.size) <= 0.1*row.size {
		return textFound{}, false // a line close under, inside the width, in the rows' size: more rows, maybe
	}
	if head.ws[0].used || row.ws[0].used || lineIsCaption(head) {
		return textFound{}, false
	}
	pad := math.Min(gap, gridGap(size))
	hp, rp := head.segments(pad), row.segments(pad)
	k := len(hp)
	if k < 2 || len(rp) != k {
		return textFound{}, false
	}
	value := false
	for c := range k {
		hb, rb := boxOf(hp[c]), boxOf(rp[c])
		if math.Abs(hb.X0-rb.X0) > 2 && math.Abs(hb.X1-rb.X1) > 2 {
			return textFound{}, false
		}
		h := cellText(hp[c])
		if len(h) > maxHeadBytes/2 || strings.ContainsAny(h, "0123456789") || strings.HasSuffix(h, ":") || proseWords(hp[c]) {
			return textFound{}, false // a number, a label ("GDP:"), a sentence: no head
		}
		r := cellText(rp[c])
		if len(r) > maxHeadBytes || proseWords(rp[c]) || r == h {
			return textFound{}, false // a head is not its column's value
		}
		// a value after the first column (a number or mark first is a
		// note's or a list item's), or a date or time anywhere
		value = value || c > 0 && numericCell(rp[c]) || dateTime(r)
	}
	if !value && k < 3 {
		return textFound{}, false
	}
	// the cells are the phrases, column by column (the alignment above
	// is the grid: buildGrid's gaps, made for several rows, may join two
	// heads a padding apart over one row)
	t := document.Table{BBox: boxOf(part), Header: make([]string, k), Rows: [][]string{make([]string, k)}}
	for c := range k {
		t.Header[c], t.Rows[0][c] = cellText(hp[c]), cellText(rp[c])
	}
	for _, l := range part {
		for _, w := range l.ws {
			w.used = true
		}
	}
	return textFound{t, part, false}, true
}

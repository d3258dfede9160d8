package table

import (
	"math"
	"slices"
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
)

// headAndRow reads a run of two lines as a table of one row under its
// column heads (and up to maxRowWraps lines under them its row's cells
// wrap onto: rowWraps), when the two say so by themselves: as many phrases a
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
// name over a name) are too little to tell from a form or a signature,
// unless a "Table N" caption stands right over or under them
// (captioned): then the caption says table where no value does.
func (d *Detector) headAndRow(part []*textLine, next *textLine, size, gap float64, hs, vs []rule, captioned bool) (textFound, bool) {
	if len(part) < 2 || len(part) > 2+maxRowWraps {
		return textFound{}, false
	}
	head, row, pb := part[0], part[1], boxOf(part)
	if next != nil && !(captioned && lineIsCaption(next)) && next.bb.Y0-pb.Y1 <= 1.8*size && next.bb.X1 <= pb.X1+gap &&
		next.bb.X0 >= pb.X0-gap && math.Abs(next.size-row.size) <= 0.1*row.size {
		return textFound{}, false // a line close under, inside the width, in the rows' size: more rows, maybe
	}
	if head.ws[0].used || row.ws[0].used || lineIsCaption(head) {
		return textFound{}, false
	}
	pad := min(gap, gridGap(size))
	hp, rp := head.segments(pad), row.segments(pad)
	if len(hp) < 2 || len(rp) != len(hp) {
		return textFound{}, false
	}
	return oneRowTable(part, hp, rp, pad, captioned)
}

// oneRowTable is headAndRow's table of the head line's phrases hp over
// the row line's rp (part: the head, the row and its wrapped lines), when
// they read as one: see headAndRow. A caption over or under the two
// (captioned) says table where no value does.
func oneRowTable(part []*textLine, hp, rp [][]*word, pad float64, captioned bool) (textFound, bool) {
	k := len(hp)
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
	if !value && k < 3 && !captioned {
		return textFound{}, false
	}
	wraps, ok := rowWraps(rp, part[1:], pad)
	if !ok {
		return textFound{}, false
	}
	// the cells are the phrases, column by column (the alignment above
	// is the grid: buildGrid's gaps, made for several rows, may join two
	// heads a padding apart over one row)
	t := document.Table{BBox: boxOf(part), Header: make([]string, k), Rows: [][]string{make([]string, k)}}
	for c := range k {
		t.Header[c], t.Rows[0][c] = cellText(hp[c]), cellText(rp[c])
		for _, w := range wraps[c] {
			t.Rows[0][c] += " " + w
		}
	}
	for _, l := range part {
		for _, w := range l.ws {
			w.used = true
		}
	}
	return textFound{t, part, false}, true
}

// maxRowWraps is how many lines a one-row table's row may wrap onto.
const maxRowWraps = 2

// rowWraps reads the lines under a one-row table's row (lines[0], its
// phrases rp at pad) as its cells wrapped: each one phrase starting where
// one of the row's cells starts (2pt) and ending a padding short of the
// next cell's start, less than half a size under the line above and no
// row's pitch under it (rowPitch: a cell's next line stands the text's
// leading apart). It returns each cell's wrapped lines' text; false when
// a line is no such wrap.
func rowWraps(rp [][]*word, lines []*textLine, pad float64) ([][]string, bool) {
	wraps := make([][]string, len(rp))
	for i := 1; i < len(lines); i++ {
		prev, l := lines[i-1], lines[i]
		if l.nSegments(pad) != 1 || l.bb.Y0-prev.bb.Y1 >= 0.5*max(l.size, prev.size) || rowPitch(prev, l, 0.07) {
			return nil, false
		}
		c := slices.IndexFunc(rp, func(p []*word) bool { return math.Abs(boxOf(p).X0-l.bb.X0) <= 2 })
		if c < 0 || c+1 < len(rp) && l.bb.X1 > boxOf(rp[c+1]).X0-pad {
			return nil, false
		}
		wraps[c] = append(wraps[c], lineText(l))
	}
	return wraps, true
}

// twoOneRow reads a run of four lines that is no table as two tables of
// one row stacked (a head and a row, then another head and row), when
// the gap between the pairs is wider than the gap inside each by a
// quarter of a size and each pair is a table of one row by itself
// (headAndRow: the first pair's line close under is the second pair's
// head, no more rows of it).
func (d *Detector) twoOneRow(part []*textLine, next *textLine, size, gap float64, hs, vs []rule) []textFound {
	g := func(k int) float64 { return part[k].bb.Y0 - part[k-1].bb.Y1 }
	if g(2) < max(g(1), g(3))+0.25*size {
		return nil
	}
	lower, ok := d.headAndRow(part[2:], next, size, gap, hs, vs, false)
	if !ok {
		return nil
	}
	upper, ok := d.headAndRow(part[:2], nil, size, gap, hs, vs, false)
	if !ok {
		for _, l := range part[2:] {
			for _, w := range l.ws {
				w.used = false // as headAndRow found them
			}
		}
		return nil
	}
	return []textFound{upper, lower}
}

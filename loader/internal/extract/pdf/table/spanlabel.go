package table

import (
	"cmp"
	"math"
	"slices"

	"github.com/docket-dev/docket/loader/internal/document"
)

// A web table's cell spanning two rows (rowspan) is vertically centred on
// them by default: a stub label ("Total" over the rows "35–49" and
// "Manufacturing") or a head spanning the group heads' row and the
// sub-heads' row ("Indicator" beside "Urban" and "2024") stands on a line
// of its own, half a row under the first row's line, overlapping both
// rows' lines. Read as it is, it is a row with one cell, and its column
// (no other line has a word there) no column of the rows. The cell's text
// belongs to the first row it spans (HTML's order, and where a spanning
// cell's text is read in a ruled grid): spanLabels moves it up there,
// and the grid's cell spans the row under it too (downSpans).
// topAlignCentred does not: its rows are blocks of heights a line apart
// or more, and the label and the rows' cells are each one line.

// spanLabels moves each line standing centred between the lines above
// and below it, half a row from each, none of its phrases sharing width
// with either, up to the line above (see above), and says whether it
// moved any: the lines must then be built again. Either the line is one
// phrase and both neighbours hold two phrases or more (rows of a table),
// or the line above is group heads over the line under it (groupHeads:
// "Year ended 31 December" over "2021 2020 2019", "Staff" over "n" and
// "2026"), and then the line may hold several phrases (the stub head and
// the other heads spanning both head rows: "Category", "Site" and
// "Status" beside "Staff"). All three lines are of one size, and
// the rows are less than two lines apart (the label overlaps or nearly
// overlaps each: running text never stands closer than its leading) and
// further apart than a wrapped cell's lines (a cell's padding and the
// rows' border spacing, centredLeading: a cell's first line centred
// between two lines of taller cells beside it is no label), and
// no other line as near as a row's pitch shares the label's width: a
// cell's first line over its next (a calendar's "12. November" over
// "2020", between the lines of taller cells beside it) is no label.
func spanLabels(lines []*textLine, gap float64) bool {
	moved := false
	for i := 1; i+1 < len(lines); i++ {
		a, l, b := lines[i-1], lines[i], lines[i+1]
		pad, ok := spanLabel(lines, i, gap)
		if !ok || !aloneInColumn(lines, i, 1.1*(b.bb.Y0-a.bb.Y0), pad, gap) {
			continue
		}
		dy := a.bb.Y0 - l.bb.Y0
		for _, w := range l.ws {
			w.bb.Y0 += dy
			w.bb.Y1 += dy
			w.down = true
		}
		moved = true
		i++ // b is no label then
	}
	return moved
}

// spanLabel says whether l, lines[i], is a label spanning the rows of a
// and b, the lines around it (see spanLabels), and how far (pad) from
// its phrases the words of other lines must stand.
func spanLabel(lines []*textLine, i int, gap float64) (pad float64, ok bool) {
	a, l, b := lines[i-1], lines[i], lines[i+1]
	lh := l.bb.Y1 - l.bb.Y0
	if lh <= 0 || math.Abs(a.size-l.size) > 0.1*l.size || math.Abs(b.size-l.size) > 0.1*l.size {
		return 0, false
	}
	if pitch := b.bb.Y0 - a.bb.Y0; pitch <= lh || pitch >= 2*lh || b.bb.Y0-a.bb.Y1 < centredLeading*l.size {
		return 0, false
	}
	if mid := (a.cy() + b.cy()) / 2; math.Abs(l.cy()-mid) > max(1, 0.1*lh) {
		return 0, false
	}
	pad = gridGap(l.size)
	if na, nb := a.nSegments(gap), b.nSegments(gap); l.nSegments(gap) != 1 || na < 2 || nb < 2 {
		// a line of heads beside a group head: the heads' phrases may
		// stand a cell's padding apart (a browser's default 2px of border
		// spacing and 1px of padding set them 3pt apart)
		rg := min(gap, pad)
		switch {
		case groupHeads(a, b, rg) && (!rowsApart(lines, i, gap) || clearOf(a, l, gap, pad) && clearOf(b, l, gap, pad)):
		case groupHeads(a, b, rg):
			// the heads beside a group head stand a browser's
			// default 3pt from it, the rows as far apart as rows
			pad = 0.05 * l.size
		case (na >= 2 && nb >= 2 || groupHeadsOver(a, b, gap)) && rowsApart(lines, i, gap):
			// several labels of a body row spanning it and the next
			// ("Central ... closed" beside "Laboratory" over "Call
			// centre"), or heads beside a group head as wide as its
			// sub-heads together ("Staff" over "2025 2026", one phrase
			// at the padding gap): the rows stand as far apart as rows
			// do, and the labels' phrases may stand as close to the
			// rows' cells as a browser's default cells (3pt)
			pad = 0.05 * l.size
		default:
			return 0, false
		}
	}
	for _, n := range [2]*textLine{a, b} {
		if !clearOf(n, l, gap, pad) {
			return 0, false
		}
	}
	return pad, true
}

// rowsApart: a and b, the lines around lines[i] (labels or heads
// spanning both), stand as far apart as rows do, less a pixel (0.75pt):
// as far as b from the next line under the three across their width
// (the body's first row under two head rows), or, for two rows of cells
// (two phrases each, rows of a body), as a from the line over the three
// when that is a row of cells too: two rows, each a cell's padding and
// the rows' spacing from the next, not a row whose cells wrap onto a
// second line ("Treatment" over "(n = 254)", at the text's leading, a
// padding closer than the body's first row: "Characteristic" and "p"
// centred beside them are no spanning heads), nor a cell's wrapped lines
// ("from stock" over "in reserve" beside a number centred on both).
func rowsApart(lines []*textLine, i int, gap float64) bool {
	a, l, b := lines[i-1], lines[i], lines[i+1]
	x0, x1 := min(a.bb.X0, l.bb.X0, b.bb.X0), max(a.bb.X1, l.bb.X1, b.bb.X1)
	across := func(n *textLine) bool { return min(n.bb.X1, x1) > max(n.bb.X0, x0) }
	pitch := b.bb.Y0 - a.bb.Y0
	for _, n := range lines[i+2:] {
		if n.bb.Y0 >= b.bb.Y1-0.25*b.size && across(n) {
			if pitch >= n.bb.Y0-b.bb.Y0-0.75 {
				return true
			}
			break
		}
	}
	if a.nSegments(gap) < 2 || b.nSegments(gap) < 2 {
		return false
	}
	for k := i - 2; k >= 0; k-- {
		if n := lines[k]; n.bb.Y1 <= a.bb.Y0+0.25*a.size && across(n) {
			return n.nSegments(gap) >= 2 && pitch >= a.bb.Y0-n.bb.Y0-0.75
		}
	}
	return false
}

// groupHeadsOver: each phrase of a stands over words of b, sharing their
// width (group heads over their sub-heads: "Staff" over "2025 2026"),
// and no phrase of either is longer than a line of heads (maxHeadBytes:
// two lines of a paragraph beside a table's row are no heads).
func groupHeadsOver(a, b *textLine, gap float64) bool {
	for sg := range b.eachSegment(gap) {
		if len(lineText(&textLine{ws: sg})) > maxHeadBytes {
			return false
		}
	}
	for sg := range a.eachSegment(gap) {
		if len(lineText(&textLine{ws: sg})) > maxHeadBytes {
			return false
		}
		x0, x1 := sg[0].bb.X0, sg[len(sg)-1].bb.X1
		over := false
		for _, w := range b.ws {
			over = over || min(w.bb.X1, x1) > max(w.bb.X0, x0)
		}
		if !over {
			return false
		}
	}
	return true
}

// groupHeads: line a is group heads over line b's heads: b holds two
// phrases or more, a fewer than b, each over one of b's at least (sharing
// some of its width). Heads wrapped in their cells, a phrase over each of
// the next line's ("Treatment", "Control" over "(n = 254)", "(n = 169)",
// the heads beside them centred on both lines), are no group heads.
func groupHeads(a, b *textLine, gap float64) bool {
	na, nb := a.nSegments(gap), b.nSegments(gap)
	if nb < 2 || na >= nb {
		return false
	}
	for sa := range a.eachSegment(gap) {
		x0, x1 := sa[0].bb.X0, sa[len(sa)-1].bb.X1
		over := false
		for sb := range b.eachSegment(gap) {
			if min(x1, sb[len(sb)-1].bb.X1) > max(x0, sb[0].bb.X0) {
				over = true
				break
			}
		}
		if !over {
			return false
		}
	}
	return true
}

// clearOf: no word of line n stands within pad of the width of one of
// line l's phrases.
func clearOf(n, l *textLine, gap, pad float64) bool {
	for seg := range l.eachSegment(gap) {
		s := boxOf(seg)
		for _, w := range n.ws {
			if w.bb.X1 > s.X0-pad && w.bb.X0 < s.X1+pad {
				return false
			}
		}
	}
	return true
}

// aloneInColumn: no line but lines[i] within pitch of it (tops; the
// lines are in order of their tops) has a word within pad of the width of
// one of its phrases.
func aloneInColumn(lines []*textLine, i int, pitch, pad, gap float64) bool {
	l := lines[i]
	clear := func(n *textLine) bool { return clearOf(n, l, gap, pad) }
	for j := i - 1; j >= 0 && l.bb.Y0-lines[j].bb.Y0 < pitch; j-- {
		if !clear(lines[j]) {
			return false
		}
	}
	for j := i + 1; j < len(lines) && lines[j].bb.Y0-l.bb.Y0 < pitch; j++ {
		if !clear(lines[j]) {
			return false
		}
	}
	return true
}

// downSpans joins the cell of each word spanLabels moved up (down) with
// the cell under it, when that one holds no word: the cell spans both
// rows, as a missing rule makes a ruled grid's cell span.
func downSpans(cells unionFind, edgesX, edgesY []float64, ws []*word) {
	nr, nc := len(edgesY)-1, len(edgesX)-1
	var at []bool // cells holding a word, made at the first moved word
	for _, w := range ws {
		if !w.down {
			continue
		}
		if at == nil {
			at = make([]bool, nr*nc)
			for _, v := range ws {
				at[band(edgesY, v.cy())*nc+band(edgesX, v.cx())] = true
			}
		}
		i, j := band(edgesY, w.cy()), band(edgesX, w.cx())
		if k := (i+1)*nc + j; i+1 < nr && !at[k] && cells.find(k) == k {
			cells.join(i*nc+j, k)
		}
	}
}

// centredGroups moves the labels of a first column of group labels, each
// vertically centred on its group's rows, to the group's first row and
// spans them over the group: a label over an odd number of rows stands
// level with the middle one, k blank cells above it and k or more below
// ("", "North", "" beside three row labels). The column must be centred
// so: its first body row blank, or a label spanLabels moved (a group of
// two); the column right of it a label in every body row; its labels no
// numbers. The rows above the first with a number (not a year) are heads,
// never a group's. Groups are read top-down, each from the row after the
// one before (a label over k blank cells above takes k below too).
func centredGroups(l layout) layout {
	rows := l.rows
	if len(rows) < 4 || len(rows[0]) < 3 {
		return l
	}
	body := -1
	for i, r := range rows {
		for _, c := range r {
			if numeric(c) && !yearRe.MatchString(c) {
				body = i
				break
			}
		}
		if body >= 0 {
			break
		}
	}
	if body < 0 || len(rows)-body < 3 {
		return l
	}
	spanAt := map[int]int{} // body rows of column 0 where a span starts: its rows
	for _, s := range l.spans {
		if s.Col == 0 && s.Row >= body {
			spanAt[s.Row] = s.Rows
		} else if s.Col <= 1 && s.Row+s.Rows > body {
			return l // the first columns' cells span otherwise: not a column of group labels
		}
	}
	centred := rows[body][0] == "" || len(spanAt) > 0
	for _, r := range rows[body:] {
		if r[1] == "" || r[0] != "" && numeric(r[0]) {
			return l
		}
	}
	if !centred {
		return l
	}
	moved := false
	for i, free := body, body; i < len(rows); i++ {
		if rows[i][0] == "" {
			continue
		}
		if n, ok := spanAt[i]; ok {
			free = i + n
			i = free - 1
			continue
		}
		k, below := i-free, 0
		for j := i + 1; j < len(rows) && rows[j][0] == "" && below < k; j++ {
			if _, ok := spanAt[j]; ok {
				break
			}
			below++
		}
		if k == 0 || below < k {
			free = i + 1
			continue
		}
		rows[i-k][0], rows[i][0] = rows[i][0], ""
		l.spans = append(l.spans, document.CellSpan{Row: i - k, Col: 0, Rows: 2*k + 1, Cols: 1})
		moved = true
		free = i + k + 1
		i = free - 1
	}
	if moved {
		slices.SortFunc(l.spans, func(a, b document.CellSpan) int { return cmp.Or(cmp.Compare(a.Row, b.Row), cmp.Compare(a.Col, b.Col)) })
	}
	return l
}

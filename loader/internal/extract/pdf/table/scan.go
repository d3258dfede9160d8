package table

import (
	"math"
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
)

// unruled finds tables from text alignment among words no ruled table took.
func (d *Detector) unruled(all []*word, hs, vs []rule) []document.Table {
	ws := freeWords(all, nil)
	if len(ws) < 6 {
		return nil
	}
	size := medianSize(ws)
	gap := phraseGap(size)
	var found []textFound
	var taken []*word // by the tables found so far (ruled ones)
	for _, w := range all {
		if w.used {
			taken = append(taken, w)
		}
	}
	lines := lineUp(ws)
	if topAlignCentred(lines, size, gap) {
		lines = lineUp(ws)
	}
	markColumnStarts(lines, size)
	if runningHead(lines, gap, hs) {
		lines = lines[1:] // the page's running head is no table's
	}
	var regions [][]*textLine
	for _, part := range pageColumns(lines, gap) {
		regions = append(regions, gutterRegions(part, taken, size, gap)...)
	}
	for _, region := range regions {
		// a block set apart by a gutter in a smaller size than the page's
		// text (a table beside a paragraph or another table) has its
		// columns closer: its gaps are measured in its own size
		rs, rg := size, gap
		if len(regions) > 1 {
			if s := medianLineSize(region); s < size {
				rs, rg = s, phraseGap(s)
			}
		}
		found = append(found, d.scan(region, rs, rg, hs, vs)...)
	}
	found = d.joinSplit(found, all, hs, vs, size, gap)
	out := make([]document.Table, len(found))
	for k, f := range found {
		out[k] = f.t
	}
	return out
}

// scan finds unruled tables in runs of aligned lines (top to bottom).
func (d *Detector) scan(lines []*textLine, size, gap float64, hs, vs []rule) []textFound {
	multi := multiPhrase(lines, size, gap)
	var found []textFound
	for i := 0; i < len(lines); {
		if !multi[i] {
			i++
			continue
		}
		// the run: lines close together with several phrases, and the
		// lines between them; a line with one phrase inside a column of
		// the run (a wrapped cell) does not count towards the three
		// single-phrase lines that end it
		j, last, kept, nMulti := i+1, i, i, 1
		cols := phraseCols(nil, lines[i], gap)
		for j < len(lines) {
			l, prev := lines[j], lines[j-1]
			lh := math.Max(l.size, prev.size)
			if l.bb.Y0-prev.bb.Y1 > 1.8*lh || j-kept > 2 || (lineIsCaption(l) && !starredValue(cols, prev, l, gap)) || footerUnder(lines, i, j, gap, hs) ||
				!multi[j] && runsPast(cols, l, gap) {
				break
			}
			if multi[j] {
				last, kept = j, j
				nMulti++
				cols = phraseCols(cols, l, gap)
			} else if inCentredRow(prev, l) || inColumn(cols, l) || wrappedOn(cols, prev, l, gap) || valueUnder(cols, prev, l, gap) ||
				meaningGoesOn(prev, l, gap) || groupLabel(cols, l, gap) {
				kept = j
			}
			j++
		}
		// wrapped lines of the last row, as close as the run's lines
		// (and up to maxValueLines lines of the values its description
		// goes on with, a value's meaning going on under its words: a
		// longer list is the text's, not a cell's)
		values := 0
		for k := last + 1; k <= kept && lines[k].bb.Y0-lines[k-1].bb.Y1 <= 0.8*math.Max(lines[k].size, lines[k-1].size); k++ {
			if !inCentredRow(lines[k-1], lines[k]) && !inColumn(cols, lines[k]) && !meaningGoesOn(lines[k-1], lines[k], gap) {
				if values++; values > maxValueLines || !valueUnder(cols, lines[k-1], lines[k], gap) {
					break
				}
			}
			last = k
		}
		if i == 0 && wideHead(lines[i], lines[i+1:last+1], gap) || multi[i] && titleFirst(lines, i, last, gap) {
			i++ // the run starts under a running head or a title: read it again from there
			continue
		}
		if multi[last] && noteUnder(lines[last], lines[max(i, last-12):last], gap) {
			last-- // the run ends over a note or the next title
		}
		next := last + 1
		if i > 0 && labelFirstLine(lines, multi, i, last) {
			i-- // the first row's label began on the line above
		}
		start := i
		prev, prevFound := -1, true // the part before: its first line, a table came of it
		parts := splitRun(lines[i:last+1], multi[i:last+1], gap, hs)
		for pi, part := range parts {
			first := start
			start += len(part)
			for pi > 0 && len(part) > 0 && !multi[first] && paragraphLine(part[0]) {
				// a paragraph's line the run went on through, between two
				// tables: the later one starts under it
				first++
				part = part[1:]
			}
			for pi+1 < len(parts) && len(part) > 0 && !multi[first+len(part)-1] && paragraphLine(part[len(part)-1]) {
				// and the earlier one ends over it
				part = part[:len(part)-1]
			}
			if countTrue(multi[first:first+len(part)]) < 3 {
				prev, prevFound = first, false
				if len(parts) == 1 && len(part) == 2 && multi[first] && multi[first+1] {
					var next *textLine
					if first+2 < len(lines) {
						next = lines[first+2]
					}
					if f, ok := d.headAndRow(part, next, size, gap, hs, vs); ok {
						found = append(found, f)
						prevFound = true
					}
				}
				continue
			}
			n := len(found)
			switch {
			case pi == 0:
				found = d.scanPart(found, lines, headerAbove(lines, first, part, size, gap, hs), first, part, gap, hs, vs)
				if len(found) == n && headsMerge(part, hs) {
					// heads over the body's column gaps merged its columns:
					// the body read alone, with the heads when they keep its columns apart
					found = d.headedPart(found, lines, first, first+1, part[1:], gap, hs, vs)
				}
			case !prevFound && headOver(lines[prev:first], part, size):
				// the part before, no table of its own, is the header:
				// column heads wrapped over several lines, their phrases
				// across the body's columns; kept when the body's columns
				// stay apart under it (heads that would merge two columns
				// are left out, as before)
				found = d.headedPart(found, lines, prev, first, part, gap, hs, vs)
			default:
				// a later part's lines above belong to the table before it
				found = d.scanPart(found, lines, first, first, part, gap, hs, vs)
			}
			prev, prevFound = first, len(found) > n
		}
		i = next
	}
	return found
}

// groupLabel: l is a label of a group of rows in the run's stub (a
// statement's "Non-current assets", "Equity"): one phrase, no number,
// short as a head, starting at most a size left of the run's leftmost
// phrases (outdented) or a size right of them, and ending a gap short of
// the run's next column. Two such lines in a row (a section and its first
// group) do not end the run as two lines of text would.
func groupLabel(cols []span, l *textLine, gap float64) bool {
	if len(cols) < 2 || len(l.ws) > 6 || l.nSegments(gap) != 1 || numericCell(l.ws) || len(lineText(l)) > maxHeadBytes {
		return false
	}
	left, next := cols[0].a, math.Inf(1)
	for _, c := range cols {
		left = math.Min(left, c.a)
	}
	for _, c := range cols {
		if c.a > left+2 {
			next = math.Min(next, c.a)
		}
	}
	return l.bb.X0 >= left-l.size && l.bb.X0 <= left+l.size && l.bb.X1 < next-gap
}

// maxHeadBytes is the longest a line of column heads is; a longer line
// over a table is text (a paragraph's, a caption's).
const maxHeadBytes = 50

// paragraphLine: l is a line of running text, not a head: one phrase of
// prose (proseWords) longer than a head's 50 bytes (as headerAbove has it).
func paragraphLine(l *textLine) bool {
	return len(lineText(l)) > maxHeadBytes && proseWords(l.ws)
}

// wrappedOn: l goes on the cell of the line above it: one phrase, no
// number, a leading under prev (half a line's gap at most), starting
// where prev's first phrase starts and ending a gap short of the next
// column start of the run's phrases (a wrapped label's next line may be
// wider than its first, which inColumn does not take).
func wrappedOn(cols []span, prev, l *textLine, gap float64) bool {
	if l.nSegments(gap) != 1 || numericCell(l.ws) || math.Abs(l.bb.X0-prev.bb.X0) > 2 ||
		l.bb.Y0-prev.bb.Y1 > 0.5*math.Max(l.size, prev.size) {
		return false
	}
	for _, c := range cols {
		if c.a > l.bb.X0+2 && c.a < l.bb.X1+gap {
			return false
		}
	}
	return true
}

// scanPart appends to found the tables of a part of a run (lines[first:]
// on) read with the lines from top above it: the lines beside a paragraph
// left out, split where two tables stand side by side. textTable needs a
// column with two numeric or placeholder cells, each made of at least one
// such word, unless the layout itself says table (rules above and below,
// or a bold header over aligned columns): without either the grid is not
// worth building.
func (d *Detector) scanPart(found []textFound, lines []*textLine, top, first int, part []*textLine, gap float64, hs, vs []rule) []textFound {
	cand := within(besideParagraph(lines, top, first+len(part), gap), gap, hs)
	sides, level := splitSides(cand, gap)
	for _, c := range sides {
		layoutSays := level || framed(c, hs) || centredRows(c) || boldHeaded(c, gap) || boldHeadsOver(c, gap) || captioned(lines, c, gap) ||
			len(sides) == 1 && textColumns(c, gap) && !captionedBy(figureCaptionRe, lines, c, gap)
		if !layoutSays && !twoNumeric(c) {
			continue
		}
		if t, ok := d.textTable(c, hs, vs, layoutSays); ok {
			found = append(found, textFound{t, c, layoutSays})
		}
	}
	return found
}

// headedPart is scanPart with the lines from top as the part's header,
// when every table read so has as many columns and body rows as the part
// read alone (heads that merge columns or make the body's rows merge are
// read wrong); otherwise the part read alone.
func (d *Detector) headedPart(found []textFound, lines []*textLine, top, first int, part []*textLine, gap float64, hs, vs []rule) []textFound {
	var ws []*word
	for _, l := range lines[top : first+len(part)] {
		ws = append(ws, l.ws...)
	}
	used := make([]bool, len(ws))
	for i, w := range ws {
		used[i] = w.used
	}
	reset := func() {
		for i, w := range ws {
			w.used = used[i]
		}
	}
	headed := d.scanPart(nil, lines, top, first, part, gap, hs, vs)
	reset()
	alone := d.scanPart(nil, lines, first, first, part, gap, hs, vs)
	ok := len(headed) > 0 && len(headed) == len(alone)
	for k := 0; ok && k < len(headed); k++ {
		ok = nCols(headed[k].t) == nCols(alone[k].t) && len(headed[k].t.Rows) >= len(alone[k].t.Rows)
	}
	if !ok {
		return append(found, alone...)
	}
	reset()
	for _, f := range headed {
		for _, l := range f.lines {
			for _, w := range l.ws {
				w.used = true // as textTable marks them
			}
		}
	}
	return append(found, headed...)
}

func nCols(t document.Table) int {
	if len(t.Header) > 0 {
		return len(t.Header)
	}
	if len(t.Rows) > 0 {
		return len(t.Rows[0])
	}
	return 0
}

// headOver: the lines can head the part under them: six lines at most,
// close above it (two lines' gap), inside its width (lines wider are
// text over the table: a form's fields over a list of results).
func headOver(head, part []*textLine, size float64) bool {
	if len(head) == 0 || len(head) > 6 {
		return false
	}
	hb, pb := boxOf(head), boxOf(part)
	return pb.Y0-hb.Y1 <= 2*size && hb.X0 >= pb.X0-size && hb.X1 <= pb.X1+size
}

// headerAbove extends a run of table lines starting at lines[i] upwards
// by header lines: up to three, short, close, inside the run's width,
// not a caption and with no rule across between them. A line with a
// phrase from the first column out into the gap after it is running text
// (a header's stub label fits its column; a single word may stick out,
// short of the next column: "Household" over "size"), and the lines that
// continue a
// caption (as close to it as its own lines) are the caption's. A line a
// table found above holds (its rows) is no head of this one.
func headerAbove(lines []*textLine, i int, run []*textLine, size, gap float64, hs []rule) int {
	rb := boxOf(run)
	var cols []span // of the run, when a line above needs them
	top := i
	apart := runApart(run, size)
	for k := i - 1; k >= 0 && top-k <= 3; k-- {
		l := lines[k]
		far := lines[k+1].bb.Y0-l.bb.Y1 > apart || ruleBetween(hs, l.bb.Y1, lines[k+1].bb.Y0, rb)
		if !far && lineIsCaption(l) {
			// the lines under a caption as close to it as its own
			// lines are the caption's (wrapped: also under a caption
			// wider than the table)
			c := k + 1
			for c < i && lines[c].bb.Y0-lines[c-1].bb.Y1 <= 0.5*size && captionGoesOn(l, lines[c]) {
				c++
			}
			top = max(top, c)
			break
		}
		if far || l.size > 1.25*size || len(lineText(l)) > maxHeadBytes || l.ws[0].used {
			break // (used: a row of a table found above)
		}
		if k > 0 && paragraphTail(lines[k-1], l, lines[k+1]) {
			break // the last line of the paragraph above
		}
		if boldTitle(l, lines[k+1], gap) {
			break // a title in bold over heads in the body's weight
		}
		if under := append(lines[k+1:i:i], run...); !overPhrase(l, lines[k+1], gap) && subtitles(lines[k+1:i], under, gap) && titleOver(l, under, gap) {
			top = i // a title over the table and its subtitle: no heads
			break
		}
		if cols == nil {
			cols = columns(run, gap)
		}
		if (l.bb.X0 < rb.X0-size || l.bb.X1 > rb.X1+size) && !centredOver(l, cols, gap, size) {
			break
		}
		if len(cols) >= 2 {
			// heads a cell's padding apart are phrases of their own
			// (the grid's phrase gap, buildGrid), a head word reaching
			// to a padding short of the next column
			pad := math.Min(gap, gridGap(size))
			cross := false
			for _, seg := range l.segments(pad) {
				b := boxOf(seg)
				if centredOnPhrase(b, lines[k+1], gap) {
					continue // a wrapped head's line over its last
				}
				reach := cols[0].b + gap
				if len(seg) == 1 {
					reach = math.Max(reach, cols[1].a-pad) // a word does not wrap
				}
				cross = cross || b.X0 < cols[0].b && b.X1 > reach
			}
			if cross {
				break
			}
		}
		top = k
	}
	return top
}

// boldTitle: line l is one phrase, all bold, starting where line next
// starts, over next with two phrases or more and no bold word: a table's
// title ("Market period") over its column heads, which are set alike, in
// one weight.
func boldTitle(l, next *textLine, gap float64) bool {
	if l.nSegments(gap) != 1 || next.nSegments(gap) < 2 || math.Abs(l.bb.X0-next.bb.X0) > 1 {
		return false // (a group head stands over columns right of the stub)
	}
	for _, w := range l.ws {
		if !w.bold {
			return false
		}
	}
	for _, w := range next.ws {
		if w.bold {
			return false
		}
	}
	return true
}

// runApart is how far above a run of table lines a line stands apart
// from it: 1.5 sizes, or less in a run set at its leading (its usual line
// gap under half a size): that gap and half a size more (a statement's
// title and unit line are set apart above its heads, which are as close
// as its rows).
func runApart(run []*textLine, size float64) float64 {
	if len(run) < 3 {
		return 1.5 * size
	}
	gaps := make([]float64, 0, len(run)-1)
	for k := 1; k < len(run); k++ {
		gaps = append(gaps, run[k].bb.Y0-run[k-1].bb.Y1)
	}
	usual := median(gaps)
	if usual < 0 || usual > 0.5*size {
		return 1.5 * size
	}
	return math.Min(1.5*size, usual+0.5*size)
}

// centredOnPhrase: b is centred on a phrase of the line under it (within
// a tenth of its width, 2pt at least), as a column head wrapped over
// several lines, each centred in the head's cell, is: the lines above the
// last are no text crossing the body's columns, even where the body's
// cells run on so that two columns merge in its phrases.
func centredOnPhrase(b document.BBox, under *textLine, gap float64) bool {
	for _, seg := range under.segments(gap) {
		u := boxOf(seg)
		if math.Abs((b.X0+b.X1)/2-(u.X0+u.X1)/2) <= math.Max(2, 0.1*(b.X1-b.X0)) {
			return true
		}
	}
	return false
}

// captionGoesOn: l, under the caption cap, can be its wrapped next line:
// it starts where the caption starts, or is centred under it (a centred
// caption). A phrase centred over the table's columns, away from the
// caption's start, is a spanning column head, not the caption's.
func captionGoesOn(cap, l *textLine) bool {
	if math.Abs(l.bb.X0-cap.bb.X0) <= 2 {
		return true
	}
	mc, ml := (cap.bb.X0+cap.bb.X1)/2, (l.bb.X0+l.bb.X1)/2
	return math.Abs(mc-ml) <= math.Max(2, 0.05*(cap.bb.X1-cap.bb.X0))
}

// centredOver: the line sticks out of the run's width by no more than
// three text sizes, each of its phrases centred over one of the run's
// columns (a wrapped column head wider than the column under it).
func centredOver(l *textLine, cols []span, gap, size float64) bool {
	if len(cols) < 2 || l.bb.X0 < cols[0].a-3*size || l.bb.X1 > cols[len(cols)-1].b+3*size {
		return false
	}
	for _, seg := range l.segments(gap) {
		b := boxOf(seg)
		m := (b.X0 + b.X1) / 2
		ok := false
		for _, c := range cols {
			ok = ok || math.Abs(m-(c.a+c.b)/2) <= math.Max(2, 0.15*(c.b-c.a))
		}
		if !ok {
			return false
		}
	}
	return true
}

func countTrue(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// twoNumeric: the lines hold at least two words that contain a digit or
// are a placeholder ("-", "n/a"): a numeric cell contains a digit, and a
// placeholder cell is a single word.
func twoNumeric(lines []*textLine) bool {
	n := 0
	for _, l := range lines {
		for _, w := range l.ws {
			if strings.ContainsAny(w.text, "0123456789") || placeholder(w.text) {
				if n++; n >= 2 {
					return true
				}
			}
		}
	}
	return false
}

// ruleBetween: a horizontal rule across most of box lies between y0 and y1.
func ruleBetween(hs []rule, y0, y1 float64, box document.BBox) bool {
	for _, h := range hs {
		if h.pos > y0 && h.pos < y1 && math.Min(h.b, box.X1)-math.Max(h.a, box.X0) > 0.5*(box.X1-box.X0) {
			return true
		}
	}
	return false
}

// textTable checks the evidence for an unruled table over some lines.
func (d *Detector) textTable(lines []*textLine, hs, vs []rule, layoutSays bool) (document.Table, bool) {
	var ws []*word
	for _, l := range lines {
		ws = append(ws, l.ws...)
	}
	box := boxOf(lines)
	box.X0 -= 1
	box.Y0 -= 1
	box.X1 += 1
	box.Y1 += 1
	l := trimNotes(prune(buildGrid(box, ws, hs, vs)))
	rows := l.rows
	if !plausible(rows, 3) {
		return document.Table{}, false
	}
	multiRows, cells, chars := fillStats(rows)
	if multiRows < 3 || chars > 40*cells && !oneTextColumn(rows) && !centredRows(lines) {
		return document.Table{}, false
	}
	// a column of numbers after the first (numbers first are list
	// items or years as labels), or of ranges of them (a record's
	// positions, "17-22"), or of dates or times anywhere (a schedule's
	// dates come first)
	numCols := 0
	for j := 0; j < len(rows[0]); j++ {
		num, n := 0, 0
		for _, r := range rows {
			if r[j] == "" {
				continue
			}
			n++
			if j > 0 && (numeric(r[j]) || placeholder(r[j]) || numRange(r[j])) || dateTime(r[j]) {
				num++
			}
		}
		if num >= 2 && float64(num) >= 0.6*float64(n) {
			numCols++
		}
	}
	if numCols == 0 && !layoutSays && !sharedNumbers(rows) {
		return document.Table{}, false
	}
	l = withoutUnderlines(l, box, ws, hs, vs)
	for _, w := range ws {
		w.used = true
	}
	return finish(l, boxOf(lines)), true
}

// medianLineSize is the median size of the lines' words.
func medianLineSize(lines []*textLine) float64 {
	var ws []*word
	for _, l := range lines {
		ws = append(ws, l.ws...)
	}
	return medianSize(ws)
}

// within drops the lines of one phrase that lie wholly beside the extent
// of the lines of several phrases, a gap or more away, under a rule that
// ends before that extent (within three lines): a note under a ruled
// table beside, falling between this one's rows, not a cell of it (a
// group label in a stub column left of the rows stays).
func within(ls []*textLine, gap float64, hs []rule) []*textLine {
	x0, x1 := math.Inf(1), math.Inf(-1)
	for _, l := range ls {
		if l.nSegments(gap) >= 2 {
			x0, x1 = math.Min(x0, l.bb.X0), math.Max(x1, l.bb.X1)
		}
	}
	if x0 > x1 {
		return ls
	}
	underRule := func(l *textLine) bool {
		for _, h := range hs {
			if h.pos < l.bb.Y0 && l.bb.Y0-h.pos <= 3*l.size && h.a <= l.bb.X0+l.size && h.b >= l.bb.X0 && (h.b < x0 || h.a > x1) {
				return true
			}
		}
		return false
	}
	out := ls[:0:0]
	for _, l := range ls {
		if l.nSegments(gap) == 1 && (l.bb.X1 < x0-gap || l.bb.X0 > x1+gap) && underRule(l) {
			continue
		}
		out = append(out, l)
	}
	return out
}

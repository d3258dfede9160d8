package table

import (
	"math"

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
	var moved movedRows // where topAlignCentred found the words, for besideText
	if interleaved(lines) {
		moved = boxesOf(ws)
	}
	if topAlignCentred(lines, size, gap) {
		lines = lineUp(ws)
	} else {
		moved = movedRows{}
	}
	if spanLabels(lines, gap) {
		lines = lineUp(ws)
	}
	markLeading(lines)
	markColumnStarts(lines, size)
	markFigureEnds(lines, size)
	markHeadStarts(lines, gap)
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
		found = append(found, d.scan(besideText(region, rg, moved), rs, rg, hs, vs)...)
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
			lh := max(l.size, prev.size)
			if l.bb.Y0-prev.bb.Y1 > 1.8*lh || j-kept > 2 || (lineIsCaption(l) && !starredValue(cols, prev, l, gap)) || footerUnder(lines, i, j, gap, hs) ||
				!multi[j] && runsPast(cols, l, gap) {
				break
			}
			if multi[j] {
				last, kept = j, j
				nMulti++
				cols = phraseCols(cols, l, gap)
			} else if inCentredRow(prev, l) || inColumn(cols, l) || wrappedOn(cols, prev, l, gap) || valueUnder(cols, prev, l, gap) ||
				meaningGoesOn(prev, l, gap) || groupLabel(cols, l, gap) || wrapsAligned(lines[last], prev, l, gap) {
				kept = j
			}
			j++
		}
		// wrapped lines of the last row, as close as the run's lines
		// (and up to maxValueLines lines of the values its description
		// goes on with, a value's meaning going on under its words: a
		// longer list is the text's, not a cell's)
		values := 0
		for k := last + 1; k <= kept && lines[k].bb.Y0-lines[k-1].bb.Y1 <= 0.8*max(lines[k].size, lines[k-1].size); k++ {
			if !inCentredRow(lines[k-1], lines[k]) && !inColumn(cols, lines[k]) && !meaningGoesOn(lines[k-1], lines[k], gap) &&
				!wrapsAligned(lines[last], lines[k-1], lines[k], gap) {
				if values++; values > maxValueLines || !valueUnder(cols, lines[k-1], lines[k], gap) {
					break
				}
			}
			last = k
		}
		if lastValueRow(lines, multi, i, last, gap) {
			last++ // a last row of one number, its other cells blank
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
				if len(parts) == 1 && len(part) >= 2 && multi[first] && multi[first+1] {
					var next *textLine
					if first+len(part) < len(lines) {
						next = lines[first+len(part)]
					}
					if f, ok := d.headAndRow(part, next, size, gap, hs, vs, captioned(lines, part, gap) || captionUnder(part, next, gap)); ok {
						found = append(found, f)
						prevFound = true
					}
				} else if len(parts) == 1 && first > 0 && multi[first] && !multi[first-1] {
					// a head too close-set for phrases over a rule
					var next *textLine
					if first+len(part) < len(lines) {
						next = lines[first+len(part)]
					}
					if f, ok := ruledHeadRow(lines[first-1], part, next, size, gap, hs); ok {
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
				if len(found) == n && len(parts) == 1 && len(part) == 4 {
					var next *textLine
					if first+4 < len(lines) {
						next = lines[first+4]
					}
					found = append(found, d.twoOneRow(part, next, size, gap, hs, vs)...)
				}
			case !prevFound && !headAgain(lines[prev], part[0]) && headOver(lines[prev:first], part, size):
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
		left = min(left, c.a)
	}
	for _, c := range cols {
		if c.a > left+2 {
			next = min(next, c.a)
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
		l.bb.Y0-prev.bb.Y1 > 0.5*max(l.size, prev.size) {
		return false
	}
	for _, c := range cols {
		if c.a > l.bb.X0+2 && c.a < l.bb.X1+gap {
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

// medianLineSize is the median size of the lines' words.
func medianLineSize(lines []*textLine) float64 {
	var ws []*word
	for _, l := range lines {
		ws = append(ws, l.ws...)
	}
	return medianSize(ws)
}

package table

import (
	"math"

	"github.com/docket-dev/docket/loader/internal/document"
)

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
		if cols == nil {
			cols = columns(run, gap)
		}
		ruled := ruleBetween(hs, l.bb.Y1, lines[k+1].bb.Y0, rb) && !underGroupHead(l, lines[k+1], gap, cols)
		far := lines[k+1].bb.Y0-l.bb.Y1 > apart || ruled
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
		var pp *textLine // the line above p, for its pitch
		if k > 1 {
			pp = lines[k-2]
		}
		if k > 0 && paragraphTail(pp, lines[k-1], l, lines[k+1]) {
			break // the last line of the paragraph above
		}
		if boldTitle(l, lines[k+1], gap) {
			break // a title in bold over heads in the body's weight
		}
		if under := append(lines[k+1:i:i], run...); !overPhrase(l, lines[k+1], gap) && subtitles(lines[k+1:i], under, gap) && titleOver(l, under, gap) {
			top = i // a title over the table and its subtitle: no heads
			break
		}
		if (l.bb.X0 < rb.X0-size || l.bb.X1 > rb.X1+size) && !centredOver(l, cols, gap, size) {
			break
		}
		if len(cols) >= 2 {
			// heads a cell's padding apart are phrases of their own
			// (the grid's phrase gap, buildGrid), a head word reaching
			// to a padding short of the next column
			pad := min(gap, gridGap(size))
			cross := false
			for _, seg := range l.segments(pad) {
				b := boxOf(seg)
				if centredOnPhrase(b, lines[k+1], gap) {
					continue // a wrapped head's line over its last
				}
				reach := cols[0].b + gap
				if len(seg) == 1 {
					reach = max(reach, cols[1].a-pad) // a word does not wrap
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
	return min(1.5*size, usual+0.5*size)
}

// centredOnPhrase: b is centred on a phrase of the line under it (within
// a tenth of its width, 2pt at least), as a column head wrapped over
// several lines, each centred in the head's cell, is: the lines above the
// last are no text crossing the body's columns, even where the body's
// cells run on so that two columns merge in its phrases.
func centredOnPhrase(b document.BBox, under *textLine, gap float64) bool {
	for _, seg := range under.segments(gap) {
		u := boxOf(seg)
		if math.Abs((b.X0+b.X1)/2-(u.X0+u.X1)/2) <= max(2, 0.1*(b.X1-b.X0)) {
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
	return math.Abs(mc-ml) <= max(2, 0.05*(cap.bb.X1-cap.bb.X0))
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
			ok = ok || math.Abs(m-(c.a+c.b)/2) <= max(2, 0.15*(c.b-c.a))
		}
		if !ok {
			return false
		}
	}
	return true
}

// underGroupHead: line l, one phrase in the weight of the line under it
// (next), stands right of the run's first column (cols), lined up with a
// phrase under it: its end on one's end (right-aligned over the last
// column it spans) or its start on one's start. A head over the columns
// it spans ("Year ended 31 December" over "Note 2020 2019"; "Year" over a
// booktabs midrule), whose rule under it (a web table's th border, a
// cmidrule) parts it from the lines under it no more than their own rule
// parts them from the body. A title over a table's first rule starts at
// the stub, or is centred over the table and lines up with no phrase.
func underGroupHead(l, next *textLine, gap float64, cols []span) bool {
	if len(cols) < 2 || l.bb.X0 <= cols[0].b || l.nSegments(gap) != 1 || allBold(l) != allBold(next) {
		return false
	}
	for _, seg := range next.segments(gap) {
		if b := boxOf(seg); math.Abs(b.X1-l.bb.X1) <= 1 || math.Abs(b.X0-l.bb.X0) <= 1 {
			return true
		}
	}
	return false
}

// ruleBetween: a horizontal rule across most of box lies between y0 and y1.
func ruleBetween(hs []rule, y0, y1 float64, box document.BBox) bool {
	for _, h := range hs {
		if h.pos > y0 && h.pos < y1 && min(h.b, box.X1)-max(h.a, box.X0) > 0.5*(box.X1-box.X0) {
			return true
		}
	}
	return false
}

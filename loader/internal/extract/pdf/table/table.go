// Package table finds tables on a PDF page. It takes a pdf.Layout (the
// page's characters with boxes and fonts, and its straight vector paths)
// and produces document.Table values: page box (points, top-left origin),
// an optional header row and the body rows as cell text.
//
// Three kinds are found. Ruled tables come from the page's rules: horizontal
// and vertical lines (and the edges of filled boxes) that meet form a
// grid; characters go to the cell holding their centre, and a missing rule
// inside the grid makes a spanning cell (its text in the top-left cell,
// the others empty). Unruled tables come from text alignment only where
// the evidence is strong: at least three lines with two or more cell-like
// segments, columns separated by whitespace gaps common to the rows, and
// at least one column that is mostly numbers. Row-ruled tables (stacked.go)
// have a horizontal rule of one width between every two rows and none
// between columns: each band between rules is a row.
//
// Use it as pdf.Extractor{Tables: table.New()}.
package table

import (
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
)

// Detector implements pdf.TableDetector. The zero value is not useful;
// use New.
type Detector struct {
	// Unruled enables tables found from text alignment alone.
	Unruled bool
	// MinRows is the least number of rows (header included) a table has.
	MinRows int

	// mu guards scratch, the page's word arrays kept from one
	// DetectTables call to the next (a call that finds it in use
	// allocates its own).
	mu      sync.Mutex
	scratch wordScratch
}

// New returns a Detector with ruled and unruled detection on.
func New() *Detector { return &Detector{Unruled: true, MinRows: 2} }

var _ pdf.TableDetector = (*Detector)(nil)

// DetectTables finds the tables of one page, top to bottom.
func (d *Detector) DetectTables(lay *pdf.Layout) []document.Table {
	if lay == nil {
		return nil
	}
	var sc *wordScratch
	if d.mu.TryLock() {
		defer d.mu.Unlock()
		sc = &d.scratch
	}
	ws := words(lay, sc)
	if len(ws) == 0 {
		return nil
	}
	var out []document.Table
	hs, vs, curves := rules(lay)
	var bands []headBand // header backgrounds over unruled bodies
	gs := splitGrids(stackGrids(grids(hs, vs), ws))
	markFramedLeading(gs, ws)
	var pt paint // lines drawn and shadings apart (zebraEdges)
	if len(gs) > 0 {
		pt = pagePaint(lay)
	}
	for _, g := range gs {
		if chart(g.bb, curves) {
			continue
		}
		if d.Unruled {
			if ok, beside := headerBand(g, ws); ok {
				bands = append(bands, headBand{g, beside})
				continue
			}
		}
		if bars(g.bb, hs, vs) {
			// the chart's labels are the chart's: no table of them either,
			// nor of a table right under it (its axis labels, under the
			// axis and left of it, are a line or two outside its box)
			lb := labelBox(g.bb, ws)
			for _, w := range freeWords(ws, &lb) {
				w.used = true
			}
			continue
		}
		if t, ok := d.ruled(zebraEdges(g, ws, hs, pt), ws, hs, vs); ok {
			out = append(out, t)
		}
	}
	if d.Unruled {
		for _, t := range d.bodies(ws, hs, vs, bands) {
			if !chart(t.BBox, curves) && !bars(t.BBox, hs, vs) {
				out = append(out, t)
			}
		}
	}
	for _, t := range d.stacked(ws, hs, vs) {
		if !chart(t.BBox, curves) && !bars(t.BBox, hs, vs) {
			out = append(out, t)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].BBox.Y0 < out[j].BBox.Y0 })
	return out
}

// labelBox is a bar chart's box b with room for its axis labels: 1.6
// of the page's text size under its lowest rule (the x axis) and three
// sizes left of it (the y axis's values).
func labelBox(b document.BBox, ws []*word) document.BBox {
	size := medianSize(ws)
	b.Y1 += 1.6 * size
	b.X0 -= 3 * size
	return b
}

// ruled reads one grid of rules as a table.
func (d *Detector) ruled(g grid, ws []*word, hs, vs []rule) (document.Table, bool) {
	box := g.bb
	box.X0 -= 1
	box.Y0 -= 1
	box.X1 += 1
	box.Y1 += 1
	in := freeWords(ws, &box)
	if len(in) == 0 || textBox(g, in) || crossedOnly(g, in) {
		return document.Table{}, false
	}
	if listing(g, in) {
		for _, w := range in {
			w.used = true
		}
		return document.Table{}, false
	}
	if len(g.hs) == 2 {
		// a frame with no rule between rows (a web table's outer
		// border): its lines are cut into rows as an unruled table's
		// (markFramedLeading), and a cell spanning two rows, centred on
		// them, is read in the first it spans, as the unruled scan reads
		// it (spanLabels)
		spanLabels(lineUp(in), phraseGap(medianSize(in)))
	}
	l := trimNotes(prune(buildGrid(box, in, g.hs, g.vs)))
	if !plausible(l.rows, d.MinRows) {
		return document.Table{}, false
	}
	for _, w := range in {
		w.used = true
	}
	return finish(l, g.bb), true
}

// band is the index of the interval of sorted edges holding v (clamped).
func band(edges []float64, v float64) int {
	i := sort.SearchFloat64s(edges, v) - 1
	if i < 0 {
		i = 0
	}
	if i > len(edges)-2 {
		i = len(edges) - 2
	}
	return i
}

// plausible rejects grids that are not tables: too few rows or columns,
// mostly empty, or a frame around running text.
func plausible(rows [][]string, minRows int) bool {
	if len(rows) < minRows || len(rows) == 0 || len(rows[0]) < 2 {
		return false
	}
	filled, total, long := 0, 0, 0
	for _, r := range rows {
		for _, c := range r {
			total++
			if c != "" {
				filled++
				if len(c) > 250 {
					long++
				}
			}
		}
	}
	if filled*4 < total || filled < 3 {
		return false
	}
	return long*3 < filled
}

// prune drops rows and columns with no text at all, and moves the spans
// with them.
func prune(l layout) layout {
	rows := l.rows
	if len(rows) == 0 {
		return l
	}
	nc := len(rows[0])
	keepCol := make([]bool, nc)
	keepRow := make([]bool, len(rows))
	for i, r := range rows {
		for j, c := range r {
			if c != "" {
				keepRow[i] = true
				keepCol[j] = true
			}
		}
	}
	// newIdx[i] is the index of kept position i after the drop: the
	// count of kept positions before it.
	newIdx := func(keep []bool) []int {
		out := make([]int, len(keep)+1)
		for i, k := range keep {
			out[i+1] = out[i]
			if k {
				out[i+1]++
			}
		}
		return out
	}
	ri, ci := newIdx(keepRow), newIdx(keepCol)
	var kept [][]string
	var bottom []float64
	for i, r := range rows {
		if !keepRow[i] {
			continue
		}
		if i < len(l.bottom) {
			bottom = append(bottom, l.bottom[i])
		}
		nr := make([]string, 0, ci[nc])
		for j, c := range r {
			if keepCol[j] {
				nr = append(nr, c)
			}
		}
		kept = append(kept, nr)
	}
	var spans []document.CellSpan
	for _, s := range l.spans {
		n := document.CellSpan{Row: ri[s.Row], Col: ci[s.Col], Rows: ri[s.Row+s.Rows] - ri[s.Row], Cols: ci[s.Col+s.Cols] - ci[s.Col]}
		if n.Rows > 1 || n.Cols > 1 {
			spans = append(spans, n)
		}
	}
	return layout{rows: kept, spans: spans, bottom: bottom}
}

// finish splits off a header row and builds the Table.
func finish(l layout, bb document.BBox) document.Table {
	if l.cut > 0 && l.cut < bb.Y1 {
		bb.Y1 = l.cut // the notes cut off stay paragraphs of the page
	}
	t := document.Table{BBox: bb, Spans: l.spans}
	rows := l.rows
	if hasHeader(rows) {
		t.Header = rows[0]
		t.Rows = rows[1:]
	} else {
		t.Rows = rows
	}
	return t
}

var yearRe = regexp.MustCompile(`^(?:1[89]|20)\d\d$`)

// hasHeader: the first row has no numbers (years are labels there) while
// some column below is mostly numeric.
func hasHeader(rows [][]string) bool {
	if len(rows) < 2 {
		return false
	}
	for _, c := range rows[0] {
		if numeric(c) && !yearRe.MatchString(c) {
			return false
		}
	}
	for j := range rows[0] {
		num, n := 0, 0
		for _, r := range rows[1:] {
			if j < len(r) && r[j] != "" {
				n++
				if numeric(r[j]) || placeholder(r[j]) || dateTime(r[j]) {
					num++
				}
			}
		}
		if n > 0 && num*2 > n {
			return true
		}
	}
	return false
}

// span is a column's horizontal extent.
type span struct{ a, b float64 }

// columns finds column extents from the gaps that (almost) no line's
// segments cross. Lines with a single segment (titles, spanning headers,
// wrapped labels) do not vote when enough lines have several, nor do the
// lines above the first one with the most segments.
func columns(lines []*textLine, gap float64) []span { return columnsIn(lines, gap, false) }

// columnsIn is columns; exact measures a gap the bins find a little
// narrower than gap on the phrases themselves (exactGap): the grid's
// columns of a table already found.
func columnsIn(lines []*textLine, gap float64, exact bool) []span {
	use := voters(lines, gap)
	x0, x1 := math.Inf(1), math.Inf(-1)
	for _, l := range lines {
		x0 = min(x0, l.bb.X0)
		x1 = max(x1, l.bb.X1)
	}
	const res = 0.5
	n := int((x1-x0)/res) + 2
	bins := binPool.Get().(*[]int32)
	defer binPool.Put(bins)
	// count[k]: the phrases over bin k, summed from where each phrase's
	// bins start (+1) and end (-1 after its last): one step a phrase, not
	// one a bin it covers (that walk was ~2 % of the instructions of a
	// PDF worker's extraction)
	count := zeroed(bins, n+1)
	for _, l := range use {
		for seg := range l.eachSegment(gap) {
			b := boxOf(seg)
			first, last := int((b.X0-x0)/res), min(int((b.X1-x0)/res), n-1)
			if first <= last {
				count[first]++
				count[last+1]--
			}
		}
	}
	for k := 1; k < n; k++ {
		count[k] += count[k-1]
	}
	count = count[:n]
	// the x of each column start (markColumnStarts) among the phrases: a
	// gap narrower than a cell's padding (the grid's gap, which nothing
	// else reads as a gutter) ending there is a column's gutter too
	// (and each column of figures set flush right, markFigureEnds: a
	// narrow gap starting at its right end or ending at its widest
	// figure's start)
	var starts []float64
	var figs []span
	narrow := 0.0
	for _, l := range use {
		narrow = max(narrow, gridGap(l.size))
		for i := 1; i < len(l.ws); i++ {
			if l.ws[i].edge && !slices.Contains(starts, l.ws[i].bb.X0) {
				starts = append(starts, l.ws[i].bb.X0)
			}
		}
		figs = figureColumns(figs, l.ws)
	}
	var ends []float64
	for _, f := range figs {
		starts = append(starts, f.a)
		ends = append(ends, f.b)
	}
	near := func(xs []float64, x float64) bool {
		for _, s := range xs {
			if math.Abs(s-x) <= 1 {
				return true
			}
		}
		return false
	}
	thr := int32(len(use) / 10)
	var cols []span
	start := x0
	for k := 0; k < n; {
		if count[k] > thr {
			k++
			continue
		}
		e := k
		for e < n && count[e] <= thr {
			e++
		}
		ga, gb := x0+float64(k)*res, x0+float64(e)*res
		if exact && k > 0 && e < n && gb-ga < gap && gb-ga >= gap-2*res {
			// the bins shave up to a bin off each side: a gap as wide
			// as gap between the phrases themselves is one
			if a, b := exactGap(use, gap, ga, gb, res); b-a >= gap {
				ga, gb = a, b
			}
		}
		if k > 0 && e < n && (gb-ga >= gap || gb-ga < narrow && (near(starts, gb) || near(ends, ga))) {
			cols = append(cols, span{start, ga})
			start = gb
		}
		k = e
	}
	cols = append(cols, span{start, x1})
	return cols
}

// voters are the lines whose phrases say where columns are (columns):
// those with several phrases (gap apart), when two lines or more have
// several, less the lines above the first one with the most phrases.
func voters(lines []*textLine, gap float64) []*textLine {
	var use []*textLine
	for _, l := range lines {
		if l.nSegments(gap) >= 2 {
			use = append(use, l)
		}
	}
	if len(use) < 2 {
		return lines
	}
	// Lines above the first one with the most phrases (spanning
	// headers over the body's columns) do not vote either: in a small
	// table one of them would close a gap that every body line has.
	most, first := 0, 0
	for i, l := range use {
		if n := l.nSegments(gap); n > most {
			most, first = n, i
		}
	}
	if first <= 3 && len(use)-first >= max(2, first) {
		use = use[first:] // (at most three header lines, fewer than the body's)
	}
	// nor do the first lines holding a group head (a phrase over two
	// phrases or more of the line under it: "Staff" over "2025  Q2",
	// beside the heads spanning both head lines, "Region  Team  Total")
	for k := 0; k < 2 && len(use) > 4 && groupHeadLine(use[0], use[1], gap); k++ {
		use = use[1:]
	}
	return use
}

// groupHeadLine: a phrase of line a stands over two phrases or more of
// line b, sharing some width with each.
func groupHeadLine(a, b *textLine, gap float64) bool {
	for sa := range a.eachSegment(gap) {
		x0, x1 := sa[0].bb.X0, sa[len(sa)-1].bb.X1
		n := 0
		for sb := range b.eachSegment(gap) {
			if min(x1, sb[len(sb)-1].bb.X1) > max(x0, sb[0].bb.X0) {
				n++
			}
		}
		if n >= 2 {
			return true
		}
	}
	return false
}

// binPool holds columnsIn's histograms between calls (a bin each half
// point of the lines' width: ~10 KB a call as []int, made afresh, were
// ~9 % of the bytes a PDF worker allocated over the 149 corpus PDFs).
var binPool = sync.Pool{New: func() any { return new([]int32) }}

// zeroed is *p's first n, zeroed, grown when it holds fewer.
func zeroed(p *[]int32, n int) []int32 {
	if cap(*p) < n {
		*p = make([]int32, n)
		return *p
	}
	s := (*p)[:n]
	clear(s)
	return s
}

// exactGap is the free run [ga, gb) of columns' bins measured on the
// phrases: from the right edge of the last phrase ending before it to
// the left edge of the first starting after it, when three lines and
// half of them at least have phrases on both sides of it, close (two
// gaps): rows that keep the gap, not a head's letter-spaced words over a
// column ("项 目") or a page's title lines.
func exactGap(use []*textLine, gap, ga, gb, res float64) (float64, float64) {
	a, b := ga-res, gb+res
	tight := 0 // lines with phrases close on both sides of the gap
	for _, l := range use {
		left, right := false, false
		for seg := range l.eachSegment(gap) {
			x0, x1 := seg[0].bb.X0, seg[len(seg)-1].bb.X1
			if x1 <= ga && x1 > a {
				a = x1
			}
			if x0 >= gb && x0 < b {
				b = x0
			}
			left = left || x1 <= ga && x1 > ga-2*gap
			right = right || x0 >= gb && x0 < gb+2*gap
		}
		if left && right {
			tight++
		}
	}
	if tight < 3 || 2*tight < len(use) {
		return ga, gb // a gap the rows themselves do not keep
	}
	return a, b
}

var captionStarts = []string{"table", "tab.", "figure", "fig.", "chart", "graph", "source", "note", "box ", "annex", "*"}

func isCaption(s string) bool {
	s = strings.TrimSpace(s)
	if startsLower(s) {
		return false // "table shows ..." inside a sentence: captions start capitalised
	}
	s = strings.ToLower(s)
	for _, p := range captionStarts {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// lineIsCaption is isCaption(lineText(l)) from the line's first words
// only (the longest caption start is 6 bytes), without joining the line.
// A "Note" standing alone, two sizes or more left of the line's next word,
// is the head of a statement's column of note numbers ("Note  2022
// 2021"), not a note.
func lineIsCaption(l *textLine) bool {
	if len(l.ws) >= 2 && (l.ws[0].text == "Note" || l.ws[0].text == "Notes") && l.ws[1].bb.X0-l.ws[0].bb.X1 >= 2*l.size {
		return false
	}
	var buf [32]byte
	b := buf[:0]
	for _, w := range l.ws {
		if len(b) > 0 {
			b = append(b, ' ')
		}
		b = append(b, w.text...)
		if len(b) >= 8 {
			break
		}
	}
	return isCaption(string(b))
}

func lineText(l *textLine) string {
	parts := make([]string, len(l.ws))
	for i, w := range l.ws {
		parts[i] = w.text
	}
	return strings.Join(parts, " ")
}

// fillStats counts a grid's rows with two or more filled cells, its filled
// cells and their characters (a table's plausibility: several multi-cell
// rows, and cells of words, not paragraphs).
func fillStats(rows [][]string) (multiRows, cells, chars int) {
	for _, r := range rows {
		n := 0
		for _, c := range r {
			if c != "" {
				n++
				cells++
				chars += len(c)
			}
		}
		if n >= 2 {
			multiRows++
		}
	}
	return multiRows, cells, chars
}

// oneTextColumn: the long text of rows is in one column, every other
// column's cells 20 bytes or less on average (a column of wrapped
// descriptions beside short codes, states, dates), and the table has
// three rows at least: a text-heavy table, not a paragraph cut in columns.
func oneTextColumn(rows [][]string) bool {
	if len(rows) < 3 || len(rows[0]) < 2 {
		return false
	}
	long := 0
	for j := range rows[0] {
		n, chars := 0, 0
		for _, r := range rows {
			if j < len(r) && r[j] != "" {
				n++
				chars += len(r[j])
			}
		}
		if n > 0 && chars > 20*n {
			long++
		}
	}
	return long == 1
}

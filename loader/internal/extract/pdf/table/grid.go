package table

import (
	"math"
	"sort"
	"unicode"

	"github.com/docket-dev/docket/loader/internal/document"
)

// sep is a column or row boundary: a rule of the drawing (real) or a
// whitespace gap of the text (virtual).
type sep struct {
	pos  float64
	real bool
}

// buildGrid lays the words of a table region out as rows × columns.
//
// Column boundaries are the vertical rules inside the box plus the
// whitespace gaps the text lines share (columns). Row boundaries are the
// horizontal rules when they separate most text lines (ruled rows, whose
// cells may wrap); otherwise every text line is a row, cut also at the
// rules there are. A boundary that is missing for a cell (no rule there,
// or a phrase crossing a text gap) merges it with its neighbour: the
// merged cell's text goes to its top-left position, the rest stay empty.
func buildGrid(box document.BBox, ws []*word, hs, vs []rule) layout {
	lines := lineUp(ws)
	if len(lines) == 0 {
		return layout{}
	}
	size := medianSize(ws)
	// Columns set a cell's padding apart (8px, 6pt at 9pt) stand closer
	// than 0.7 of a size: phrases are apart by 0.55 of a size (two word
	// spaces). Han text keeps 0.7: its heads are set letter-spaced ("项 目").
	gap := gridGap(size)
	if hasHan(ws) {
		gap = max(4, 0.7*size)
	}
	if !vRuled(box, vs) {
		defer headCells(lines, gap)()
		defer narrowGaps(lines, gap)()
	}
	nSegs := 0
	for _, l := range lines {
		nSegs += l.nSegments(gap)
	}
	// phrases, for the crossing test: one array, each line's phrases a
	// run of it (lineSegs), not two slices per line
	segs := make([]document.BBox, 0, nSegs)
	var multi []document.BBox // phrases of lines with several
	var multiLine []int       // the index in lineSegs of each one's line
	lineSegs := make([][]document.BBox, 0, len(lines))
	var single []document.BBox // phrases alone on their line
	for _, l := range lines {
		first := len(segs)
		segs = l.appendSegmentBoxes(segs, gap)
		bs := segs[first:len(segs):len(segs)]
		for _, b := range bs {
			if len(bs) > 1 {
				multi = append(multi, b)
				multiLine = append(multiLine, len(lineSegs))
			} else {
				single = append(single, b)
			}
		}
		lineSegs = append(lineSegs, bs)
	}

	// Rules of this box.
	var rv, rh []rule
	for _, v := range vs {
		if v.pos > box.X0+6 && v.pos < box.X1-6 && min(v.b, box.Y1)-max(v.a, box.Y0) > 4 {
			rv = append(rv, v)
		}
	}
	for _, h := range hs {
		if h.pos > box.Y0+3 && h.pos < box.Y1-3 && min(h.b, box.X1)-max(h.a, box.X0) > 0.3*(box.X1-box.X0) {
			rh = append(rh, h)
		}
	}

	// Columns: rules, then text gaps not already ruled.
	var xs []sep
	for _, p := range positions(rv, 6) {
		xs = append(xs, sep{p, true})
	}
	// a gap the bins find a little narrow is measured on the phrases
	// (exactGap) where no vertical rule frames the box: a ruled grid's
	// columns are its rules'
	framed := false
	for _, v := range vs {
		framed = framed || v.pos > box.X0-3 && v.pos < box.X1+3 && min(v.b, box.Y1)-max(v.a, box.Y0) > 4
	}
	cols := columnsIn(lines, gap, !framed)
	if len(rv) == 0 {
		cols = narrowGutters(cols, lines, gap)
	}
	nRuled := len(xs)
	// head phrases over the body's columns (headPhrases) stand where
	// they stand over them: no boundary is moved or dropped for them
	var heads []headPhrase
	var isHead map[document.BBox]headPhrase
	if len(rv) == 0 && !framed {
		heads = headPhrases(lines, lineSegs, cols, gap)
	}
	if len(heads) > 0 {
		isHead = make(map[document.BBox]headPhrase, len(heads))
		for _, h := range heads {
			isHead[h.bb] = h
		}
	}
	placed := func(sg document.BBox) bool {
		_, ok := isHead[sg]
		return ok
	}
	// spansGap: a head phrase spans the gap after column k
	spansGap := func(sg document.BBox, k int) bool {
		h, ok := isHead[sg]
		return ok && h.c0 <= k && h.c1 > k
	}
	for k := 0; k+1 < len(cols); k++ {
		a, b := cols[k].b, cols[k+1].a
		ruled := false
		for _, x := range xs {
			if x.real && x.pos >= a-2 && x.pos <= b+2 {
				ruled = true
			}
		}
		// A phrase across the gap's middle flush with the left column's
		// start or the right column's end is a wide cell of that column,
		// not a header spanning both. When its line has a phrase in the
		// other column too (the two are apart in that very row), the
		// boundary goes in what is left of the gap beside it; otherwise,
		// or when nothing is left, the gap is no column boundary.
		ga, gb := a, b
		for i, sg := range multi {
			if m := (ga + gb) / 2; sg.X1 <= m || sg.X0 >= m || spansGap(sg, k) {
				continue
			}
			left := math.Abs(sg.X0-cols[k].a) < 2
			if !left && math.Abs(sg.X1-cols[k+1].b) >= 2 {
				continue
			}
			other := false
			for _, o := range lineSegs[multiLine[i]] {
				other = other || left && o.X0 >= gb-2 || !left && o.X1 <= ga+2
			}
			switch {
			case !other && left && columnHeaded(lineSegs, cols[k+1]) && edgeLines(lineSegs, cols[k+1].a, true) && b-sg.X1 >= 2:
				// a head wider than its column's cells, the next
				// column's cells set flush left a padding after it
				// (headCells), under a head of their own (marks set
				// in a margin at one x are no column)
				a = max(a, sg.X1)
			case !other && !left && columnHeaded(lineSegs, cols[k]) && edgeLines(lineSegs, cols[k].b, false) && sg.X0-a >= 2:
				b = min(b, sg.X0)
			case !other:
				ruled = true
			case left:
				a = max(a, sg.X1)
			default:
				b = min(b, sg.X0)
			}
		}
		// A phrase alone on its line, flush with the left column's start
		// (or the right column's end) and leaving a gap before the other
		// column's text, is a wide cell of that column: the first line of
		// a wrapped label, whose other lines (and numbers) come below.
		// The boundary goes beside it.
		for _, sg := range single {
			if m := (a + b) / 2; sg.X1 <= m || sg.X0 >= m || spansGap(sg, k) {
				continue
			}
			switch {
			case math.Abs(sg.X0-cols[k].a) < 2 && sg.X1 <= b-gap:
				a = max(a, sg.X1)
			case math.Abs(sg.X1-cols[k+1].b) < 2 && sg.X0 >= a+gap:
				b = min(b, sg.X0)
			}
		}
		// A phrase across the gap's middle reaching into the right
		// column's text and well clear of the left column's (a column
		// head wider than the numbers under it, stacked over them) is a
		// cell of the right column: the boundary goes left of it.
		for _, sg := range segs {
			if m := (a + b) / 2; sg.X1 <= m || sg.X0 >= m || spansGap(sg, k) {
				continue
			}
			if sg.X1 > cols[k+1].a && sg.X1 <= cols[k+1].b+1 && sg.X0 >= cols[k].b+gap && sg.X0-a >= 2 {
				b = min(b, sg.X0)
			}
		}
		// a gap the phrases across it narrowed to less than 2pt is
		// none; one columnsIn found that narrow is a column's gutter
		// it took from the words aligned at its end (markColumnStarts:
		// cells set against each other, a browser's unstyled table)
		if b-a < 2 && (a != cols[k].b || b != cols[k+1].a) {
			ruled = true
		}
		mid := (a + b) / 2
		// With column rules drawn, a phrase crossing a text gap says the
		// gap is inside a column (a wrapped header over right-aligned
		// numbers), not a column of its own: a ruled table spans cells by
		// leaving out rules, not by text across them.
		if !ruled && nRuled > 0 {
			for _, sg := range segs {
				if sg.X0 < mid-0.5 && sg.X1 > mid+0.5 {
					ruled = true
					break
				}
			}
		}
		if !ruled {
			xs = append(xs, sep{mid, false})
		}
	}
	sort.Slice(xs, func(i, j int) bool { return xs[i].pos < xs[j].pos })
	xs = append(append([]sep{{box.X0, true}}, xs...), sep{box.X1, true})
	xs = currencyColumns(xs, ws)

	rh = sumLines(rh, rv, xs, lines)
	ys := rowSeps(box, lines, xs, rh)
	xs = mergeHeaderColumns(xs, ys, ws)
	wide := underlined(box, lines, xs, hs, gap)

	nr, nc := len(ys)-1, len(xs)-1
	cells := newUnionFind(nr * nc)
	for i := 0; i < nr; i++ {
		y0, y1 := ys[i].pos, ys[i+1].pos
		for j := 1; j < nc; j++ {
			x := xs[j]
			// Open (merged) where no rule runs and a phrase crosses, or
			// an underlined phrase spans the columns on both sides.
			open := false
			if !x.real || !covered(rv, x.pos, (y0+y1)/2, 6) {
				for _, s := range segs {
					cy := (s.Y0 + s.Y1) / 2
					if cy > y0 && cy < y1 && s.X0 < x.pos-0.5 && s.X1 > x.pos+0.5 && !placed(s) {
						open = true
						break
					}
				}
				for _, sp := range wide {
					if cy := (sp.bb.Y0 + sp.bb.Y1) / 2; cy > y0 && cy < y1 && sp.c0 < j && sp.c1 >= j {
						open = true
					}
				}
			}
			if open {
				cells.join(i*nc+j-1, i*nc+j)
			}
		}
	}
	edgesX := make([]float64, len(xs))
	for i, x := range xs {
		edgesX[i] = x.pos
	}
	edgesY := make([]float64, len(ys))
	for i, y := range ys {
		edgesY[i] = y.pos
	}
	headCol := placeHeads(cells, heads, lines, cols, edgesX, edgesY)
	for j := 0; j < nc; j++ {
		xmid := (xs[j].pos + xs[j+1].pos) / 2
		for i := 1; i < nr; i++ {
			if y := ys[i]; y.real && !covered(rh, y.pos, xmid, 3) {
				cells.join((i-1)*nc+j, i*nc+j)
			}
		}
	}
	centredSpans(cells, edgesX, edgesY, ws)
	labelSpans(cells, xs, ys, ws)
	downSpans(cells, edgesX, edgesY, ws)
	bottom := make([]float64, nr) // per row, the lowest edge of its words
	for i := range bottom {
		bottom[i] = math.Inf(-1)
	}
	// the words of each cell, by its root
	cellWords := byCell(ws, nr*nc, func(w *word) int {
		i, j := band(edgesY, w.cy()), band(edgesX, w.cx())
		if k, ok := headCol[w]; ok {
			j = k
		}
		bottom[i] = max(bottom[i], w.bb.Y1)
		return cells.find(i*nc + j)
	})
	rows := make([][]string, nr)
	texts := make([]string, nr*nc) // the rows' cells, one array
	for i := range rows {
		rows[i] = texts[i*nc : (i+1)*nc : (i+1)*nc]
		for j := range rows[i] {
			if k := i*nc + j; cells.find(k) == k {
				rows[i][j] = cellText(cellWords[k])
			}
		}
	}
	// a merged cell with text spans the rectangle of its positions
	ext := map[int]*document.CellSpan{}
	for k := range cells {
		r := cells.find(k)
		if r == k || rows[r/nc][r%nc] == "" {
			continue
		}
		i, j := k/nc, k%nc
		e := ext[r]
		if e == nil {
			e = &document.CellSpan{Row: r / nc, Col: r % nc, Rows: 1, Cols: 1}
			ext[r] = e
		}
		e.Rows = max(e.Rows, i-e.Row+1)
		e.Cols = max(e.Cols, j-e.Col+1)
	}
	var spans []document.CellSpan
	for _, e := range ext {
		spans = append(spans, *e)
	}
	sort.Slice(spans, func(a, b int) bool {
		return spans[a].Row < spans[b].Row || spans[a].Row == spans[b].Row && spans[a].Col < spans[b].Col
	})
	return layout{rows: rows, spans: spans, bottom: bottom}
}

// byCell files the words by cell: out[k] holds, in ws's order, the words
// whose cell (in [0, n)) is cell(w), called once per word. The cells are
// capped runs of one array, not a slice grown per cell (buildGrid's were
// 8 % of table detection's allocations).
func byCell(ws []*word, n int, cell func(*word) int) [][]*word {
	// ints: each word's cell, then the count of each cell's words and
	// where the next one goes
	ints := make([]int32, len(ws)+n+1)
	of, next := ints[:len(ws)], ints[len(ws):]
	for i, w := range ws {
		k := cell(w)
		of[i] = int32(k)
		next[k+1]++
	}
	for k := 1; k <= n; k++ {
		next[k] += next[k-1]
	}
	all := make([]*word, len(ws))
	out := make([][]*word, n)
	for k := range out {
		out[k] = all[next[k]:next[k]:next[k+1]]
	}
	for i, w := range ws {
		out[of[i]] = append(out[of[i]], w)
	}
	return out
}

// layout is a table's grid of cell texts (spanning cells at their
// top-left position, the positions they cover empty) and its spans.
type layout struct {
	rows   [][]string
	spans  []document.CellSpan
	bottom []float64 // per row, the lowest edge of its text
	cut    float64   // > 0: rows of notes were cut off the table below this
}

// wideCell is a phrase covering columns c0..c1.
type wideCell struct {
	bb     document.BBox
	c0, c1 int
}

// underlined finds header phrases that span columns by their rule: a
// horizontal rule just below a phrase, centred on it and longer than it
// (a booktabs \cmidrule), spans the columns whose text (on the other
// lines) is centred within the rule. The phrase covers those columns even
// where it does not reach their text.
func underlined(box document.BBox, lines []*textLine, xs []sep, hs []rule, gap float64) []wideCell {
	var out []wideCell
	for li, l := range lines {
		if li+1 == len(lines) {
			break
		}
		next := lines[li+1].bb.Y0
		segs := l.segments(gap)
		for si, seg := range segs {
			b := boxOf(seg)
			mid := (b.X0 + b.X1) / 2
			for _, h := range hs {
				if h.pos < b.Y1-1 || h.pos > next+0.5*l.size || h.pos-b.Y1 > l.size || h.a < box.X0-2 || h.b > box.X1+2 ||
					h.b-h.a < b.X1-b.X0 || math.Abs((h.a+h.b)/2-mid) > 0.1*(h.b-h.a) {
					continue
				}
				alone := true // no other phrase of the line over the rule
				for sj, o := range segs {
					if ob := boxOf(o); sj != si && ob.X1 > h.a && ob.X0 < h.b {
						alone = false
					}
				}
				if !alone {
					break
				}
				c0, c1 := -1, -1
				for j := 0; j+1 < len(xs); j++ {
					lo, hi := math.Inf(1), math.Inf(-1)
					for _, o := range lines {
						if o == l {
							continue
						}
						for _, w := range o.ws {
							if cx := w.cx(); cx > xs[j].pos && cx < xs[j+1].pos {
								lo, hi = min(lo, w.bb.X0), max(hi, w.bb.X1)
							}
						}
					}
					if c := (lo + hi) / 2; hi > lo && c > h.a && c < h.b {
						if c0 < 0 {
							c0 = j
						}
						c1 = j
					}
				}
				if c0 >= 0 && c1 > c0 {
					out = append(out, wideCell{b, c0, c1})
				}
				break
			}
		}
	}
	return out
}

// unionFind is a disjoint-set forest over 0..n-1; each set's root is its
// smallest member.
type unionFind []int

func newUnionFind(n int) unionFind {
	u := make(unionFind, n)
	for i := range u {
		u[i] = i
	}
	return u
}

// find returns the root of i's set, halving the path on the way.
func (u unionFind) find(i int) int {
	for u[i] != i {
		u[i] = u[u[i]]
		i = u[i]
	}
	return i
}

// join merges the sets of a and b under the smaller root.
func (u unionFind) join(a, b int) {
	ra, rb := u.find(a), u.find(b)
	if ra < rb {
		u[rb] = ra
	} else if rb < ra {
		u[ra] = rb
	}
}

// currencyColumns drops the text-gap boundary after a column of currency
// signs only: a "$" set apart at the left of a number column (on its
// first and total rows, as accounts are set) belongs to the numbers'
// cells, not to a column of its own.
func currencyColumns(xs []sep, ws []*word) []sep {
	for k := 1; k+1 < len(xs); k++ {
		if xs[k].real {
			continue
		}
		n, signs := 0, 0
		for _, w := range ws {
			if cx := w.cx(); cx > xs[k-1].pos && cx < xs[k].pos {
				n++
				if currencySign(w.text) {
					signs++
				}
			}
		}
		if n > 0 && signs == n {
			xs = append(xs[:k:k], xs[k+1:]...)
			k--
		}
	}
	return xs
}

func currencySign(s string) bool {
	switch s {
	case "$", "€", "£", "¥", "US$":
		return true
	}
	return false
}

// sumLines drops from rh the rules of a table with no column rules that
// start right of the first column's text and have a first-column label
// and amounts under their length on the lines right above and right
// below: an accountant's sum lines
// over the amounts of a subtotal or total (a double one under the last).
// They mark the amounts' sum, not cell boundaries missing for the stub:
// kept, they cut the table into bands whose stub labels merge into one
// cell. Without them the rows are the text's lines, as in an unruled
// table. A head underlined over its columns only (no amounts above the
// rule) stays, and so does a rule under the head of a table beside. A
// group's label alone above the rule (nothing under its length: "Equity"
// over "Net cash from operating activities 2,654,550") is as a label with
// amounts: the rule marks the amounts under it; so is one alone below
// the rule (a subtotal's double underline over the next section's label,
// "Subtotal $ 68,221" over "Investing activities"): the rule marks the
// amounts over it. Amounts stand on one side at least.
func sumLines(rh, rv []rule, xs []sep, lines []*textLine) []rule {
	if len(rv) > 0 || len(rh) == 0 || len(xs) < 3 {
		return rh
	}
	stubEnd := math.Inf(-1)
	for _, l := range lines {
		for _, w := range l.ws {
			if w.cx() < xs[1].pos {
				stubEnd = max(stubEnd, w.bb.X1)
			}
		}
	}
	// a label first, and amounts (one at least, nothing else) under the
	// rule's length
	summed := func(l *textLine, h rule) bool {
		if l == nil || l.ws[0].cx() >= xs[1].pos {
			return false
		}
		n := 0
		for _, w := range l.ws {
			if cx := w.cx(); cx < h.a || cx > h.b {
				continue
			}
			if !numericCell([]*word{w}) && !currencySign(w.text) {
				return false
			}
			n++
		}
		return n > 0
	}
	groupLine := func(l *textLine, h rule) bool {
		return l != nil && l.ws[0].cx() < xs[1].pos && l.bb.X1 < h.a
	}
	var keep []rule
	for _, h := range rh {
		var above, below *textLine
		for _, l := range lines {
			if cy := l.cy(); cy < h.pos && (above == nil || cy > above.cy()) {
				above = l
			} else if cy > h.pos && (below == nil || cy < below.cy()) {
				below = l
			}
		}
		sa, sb := summed(above, h), summed(below, h)
		if h.a < stubEnd-1 || !(sa || groupLine(above, h)) || !(sb || groupLine(below, h)) || !sa && !sb {
			keep = append(keep, h)
		}
	}
	return keep
}

// hasHan: some word holds a Han character.
func hasHan(ws []*word) bool {
	for _, w := range ws {
		for _, r := range w.text {
			if unicode.Is(unicode.Han, r) {
				return true
			}
		}
	}
	return false
}

package table

import (
	"math"
	"slices"

	"github.com/docket-dev/docket/loader/internal/document"
)

// A browser sets a table's head cells centred (th) in columns as wide as
// their widest cell: a head wider than the figures under it stands over
// its column's extent and into the gaps beside it, a group head
// (colspan) is centred over the extents of the columns it spans, and
// over a column set flush right or flush left under a wider group head a
// sub-head may stand in the gap beside its column's figures, nearer to
// them than to the next column's ("Planned" over "1,204", both in the
// group head's first half). The grid cuts columns mid-gap and opens a
// cell a phrase crosses: "2025" reaching past the middle of the gap
// after its column made "2025 2026" one cell, and a group head flush
// with its first column's start read as a wide cell of that column
// dropped the gap under it.
//
// headPhrases places the head lines' phrases on the body's columns
// instead, where a phrase stands as a browser centres a head in a cell:
// a cell's (or a span of cells') box has one side on its body's text
// (the first column's start when its text is set flush left, the last
// column's end when flush right), the phrase's centre is the box's, and
// the box holds its columns' text and keeps clear of the text beside it
// by a cell's padding and border spacing (2pt; a browser's default is
// 3pt). A phrase whose box is so for one column or one run of columns
// only stands over them; any other is left to the grid as it was. Head
// lines are the lines above the body: the lines columns does not let
// vote (those above the first line with the most phrases), three at
// most.

// headPhrase is a head line's phrase and the body's columns (indexes
// into the columns' extents) it stands over.
type headPhrase struct {
	line   int
	bb     document.BBox
	c0, c1 int
}

// bodyColumn is a body column's text extent and how it is set.
type bodyColumn struct {
	s, e        float64
	left, right bool
}

// headPhrases: the phrases of the head lines standing over the body's
// columns cols (see above).
func headPhrases(lines []*textLine, lineSegs [][]document.BBox, cols []span, gap float64) []headPhrase {
	if len(cols) < 3 {
		return nil
	}
	use := voters(lines, gap)
	if len(use) == len(lines) {
		return nil
	}
	first := slices.Index(lines, use[0])
	if first <= 0 || len(lines)-first < 3 {
		return nil
	}
	body := bodyColumns(lineSegs[first:], cols)
	var out []headPhrase
	for i := max(0, first-3); i < first; i++ {
		n := len(out)
		for _, bb := range lineSegs[i] {
			c0, c1, ok := cellOver(bb, body)
			if !ok {
				out = out[:n] // a line placed whole or not at all
				break
			}
			out = append(out, headPhrase{i, bb, c0, c1})
		}
	}
	return out
}

// bodyColumns: each column's text extent on the body's lines (their
// phrases, by centre) and whether three phrases or more start (left) or
// end (right) at one x, within 0.5pt, and all do.
func bodyColumns(lineSegs [][]document.BBox, cols []span) []bodyColumn {
	out := make([]bodyColumn, len(cols))
	for k, c := range cols {
		bc := bodyColumn{s: math.Inf(1), e: math.Inf(-1)}
		var x0s, x1s []float64
		for _, bs := range lineSegs {
			for _, b := range bs {
				if cx := (b.X0 + b.X1) / 2; cx >= c.a && cx <= c.b {
					x0s, x1s = append(x0s, b.X0), append(x1s, b.X1)
					bc.s, bc.e = min(bc.s, b.X0), max(bc.e, b.X1)
				}
			}
		}
		if len(x0s) >= 3 {
			bc.left = slices.Max(x0s)-slices.Min(x0s) <= 0.5
			bc.right = slices.Max(x1s)-slices.Min(x1s) <= 0.5
		}
		out[k] = bc
	}
	return out
}

// cellOver: the run of columns c0..c1 whose box bb stands centred in
// (see headPhrases), the narrowest when several fit (a head centred over
// one column's box may be centred over a wider run's too), and only one
// of that width.
func cellOver(bb document.BBox, body []bodyColumn) (c0, c1 int, ok bool) {
	const clear = 2.0
	pc := (bb.X0 + bb.X1) / 2
	found := 0
	fits := func(a, b int, l, r float64) {
		if l > body[a].s+0.5 || r < body[b].e-0.5 || l > bb.X0+0.5 || r < bb.X1-0.5 {
			return
		}
		if a > 0 && l < body[a-1].e+clear || b+1 < len(body) && r > body[b+1].s-clear {
			return
		}
		// a group head stands over the text of the columns at its ends
		if b > a && (bb.X0 >= body[a].e || bb.X1 <= body[b].s) {
			return
		}
		// nor past the table's sides (its text's or the phrase's own)
		if a == 0 && l < min(body[0].s, bb.X0)-clear || b+1 == len(body) && r > max(body[b].e, bb.X1)+clear {
			return
		}
		switch {
		case found > 0 && b-a > c1-c0:
			return // a narrower run fits: the head's
		case found > 0 && b-a == c1-c0:
			if a != c0 {
				found++
			}
			return
		}
		c0, c1, found = a, b, 1
	}
	// a head set flush with its column's text (th text-align), clear of
	// the text beside
	for k, c := range body {
		if c.left && math.Abs(bb.X0-c.s) <= 0.5 || c.right && math.Abs(bb.X1-c.e) <= 0.5 {
			if (k == 0 || bb.X0 >= body[k-1].e+clear) && (k+1 == len(body) || bb.X1 <= body[k+1].s-clear) {
				return k, k, true
			}
		}
	}
	for a := range body {
		for b := a; b < len(body); b++ {
			if math.IsInf(body[a].s, 0) || math.IsInf(body[b].e, 0) {
				continue
			}
			if body[a].left {
				fits(a, b, body[a].s, 2*pc-body[a].s)
			}
			if body[b].right {
				fits(a, b, 2*pc-body[b].e, body[b].e)
			}
		}
	}
	return c0, c1, found == 1
}

// placeHeads joins the grid's cells each head phrase spans (its first
// column's to its last's, in its row) and says in which grid column each
// of its words goes: its first.
func placeHeads(cells unionFind, heads []headPhrase, lines []*textLine, cols []span, ex, ey []float64) map[*word]int {
	if len(heads) == 0 {
		return nil
	}
	nc := len(ex) - 1
	out := map[*word]int{}
	for _, h := range heads {
		i := band(ey, (h.bb.Y0+h.bb.Y1)/2)
		j0 := band(ex, (cols[h.c0].a+cols[h.c0].b)/2)
		j1 := band(ex, (cols[h.c1].a+cols[h.c1].b)/2)
		for j := j0 + 1; j <= j1; j++ {
			cells.join(i*nc+j-1, i*nc+j)
		}
		for _, w := range lines[h.line].ws {
			if cx := w.cx(); cx >= h.bb.X0 && cx <= h.bb.X1 {
				out[w] = j0
			}
		}
	}
	return out
}

// subHeads: line l, no number in it, right over a line with a number
// (the body's first row), holds two phrases or more under one phrase of
// prev, the line over it, that spans a boundary of the grid's columns (a
// group head), each inside the group head's width (a padding more at
// most) and in a column of its own: the sub-heads' row under a group
// head ("Planned  Actual" under "Expenditure of the group in the year"),
// not the group head's wrapped line.
func (c *columnStats) subHeads(prev, l, next *textLine, lcs []lineCell) bool {
	for _, lc := range lcs {
		if numericCell(lc.ws) {
			return false
		}
	}
	if !slices.ContainsFunc(c.cellsOf(next), func(lc lineCell) bool { return numericCell(lc.ws) }) {
		return false
	}
	gap := gridGap(l.size)
	inner := c.xs[1 : len(c.xs)-1]
	for g := range prev.eachSegment(gap) {
		gb := boxOf(g)
		spans := false
		for _, x := range inner {
			spans = spans || x.pos > gb.X0 && x.pos < gb.X1
		}
		if !spans {
			continue
		}
		n, last := 0, -1
		for s := range l.eachSegment(gap) {
			sb := boxOf(s)
			if sb.X1 <= gb.X0 || sb.X0 >= gb.X1 {
				continue
			}
			col := c.col(s[0])
			if sb.X0 < gb.X0-gap || sb.X1 > gb.X1+gap || col == last {
				return false
			}
			n, last = n+1, col
		}
		if n >= 2 {
			return true
		}
	}
	return false
}

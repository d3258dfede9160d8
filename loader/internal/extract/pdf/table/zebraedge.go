package table

import (
	"cmp"
	"math"
	"slices"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
)

// A zebra table shades every other row. Where a cell spans two rows and
// is shaded with its first, the stripes of those rows touch and their
// edges make a grid of fills, which the ruled reader reads alone: the
// unshaded heads over the first stripe and the unshaded row under the
// last are not in the grid's box. No line is drawn along a shading's
// edge, so nothing parts them from the table but the paint.

// paint is what a page draws besides text, as zebraEdges needs it: its
// horizontal lines as drawn (thin strokes and thin filled boxes, the top
// and bottom of a stroked box; a shading's edge is none, where rules
// counts both) and its shadings (filled boxes thicker than a rule), none
// covering half the page.
type paint struct {
	lines []rule
	fills []document.BBox
}

func pagePaint(lay *pdf.Layout) paint {
	var p paint
	pageArea := lay.Width * lay.Height
	for _, v := range lay.Vectors {
		b := v.BBox
		if v.Curve || b.X1-b.X0 < minRule || (b.X1-b.X0)*(b.Y1-b.Y0) >= 0.5*pageArea {
			continue // (a page's background is no shading: rules skips it too)
		}
		switch {
		case b.Y1-b.Y0 <= thinMax:
			p.lines = append(p.lines, rule{(b.Y0 + b.Y1) / 2, b.X0, b.X1})
		case !v.Fill:
			p.lines = append(p.lines, rule{b.Y0, b.X0, b.X1}, rule{b.Y1, b.X0, b.X1})
		default:
			p.fills = append(p.fills, b)
		}
	}
	return p
}

// zebraGrid: g is a grid of shadings (no line drawn along any of its
// rows' edges ys) with a row shaded in part (a white cell beside a
// shaded one spanning from the row above): stripes that touch through
// a spanning cell.
func (p paint) zebraGrid(g grid, ys []float64) bool {
	mid := (g.bb.X0 + g.bb.X1) / 2
	for _, y := range ys {
		if covered(p.lines, y, mid, snapTol) {
			return false
		}
	}
	for k := 1; k < len(ys); k++ {
		if f := p.shaded(g.bb.X0, g.bb.X1, (ys[k-1]+ys[k])/2); f > 0.1 && f < 0.9 {
			return true
		}
	}
	return false
}

// shaded is the share of [x0, x1] at height y that shadings cover.
func (p paint) shaded(x0, x1, y float64) float64 {
	var iv [][2]float64
	for _, b := range p.fills {
		if b.Y0 < y && b.Y1 > y && b.X1 > x0 && b.X0 < x1 {
			iv = append(iv, [2]float64{max(b.X0, x0), min(b.X1, x1)})
		}
	}
	slices.SortFunc(iv, func(a, b [2]float64) int { return cmp.Compare(a[0], b[0]) })
	sum, end := 0.0, x0
	for _, v := range iv {
		if v[1] > end {
			sum += v[1] - max(v[0], end)
			end = v[1]
		}
	}
	return sum / (x1 - x0)
}

// zebraEdges is grid g with its box grown over an unshaded head above it
// (headAbove: a line of two phrases or more right over the top, in the
// table's size, inside its extent) and an unshaded last row under it
// (lastRowUnder), when g is a grid of stripes touching through a
// spanning cell (zebraGrid), two rows of its own at least (a lone stripe
// is no grid the ruled reader takes: the unruled reader reads its table
// whole); the lines taken must keep to g's columns (inColumns); and no
// stripe of g's columns may stand within a row's pitch beyond them (a
// longer table's rows: the grid is a part of it, read as before).
func zebraEdges(g grid, ws []*word, hs []rule, p paint) grid {
	box := g.bb
	ys := positions(g.hs, snapTol)
	if len(ys) < 3 || !p.zebraGrid(g, ys) {
		return g
	}
	in := freeWords(ws, &box)
	if len(in) == 0 {
		return g
	}
	size := medianSize(in)
	z := zebra{g: g, hs: hs, free: freeWords(ws, nil), pad: min(phraseGap(size), gridGap(size))}
	z.edges = append(positions(g.vs, snapTol), box.X0, box.X1)
	for _, l := range lineUp(in) {
		z.body = l.appendSegmentBoxes(z.body, z.pad)
	}
	pitch := (box.Y1 - box.Y0) / float64(len(ys)-1)
	s := stack{a: box.X0, b: box.X1}
	if lim, n := headAbove(s, box.Y0, z.free, size); n > 0 {
		if y0 := z.headTop(lim - 0.5); !z.stripeIn(y0-pitch, box.Y0-snapTol) {
			g.bb.Y0 = y0
		}
	}
	if y1, ok := lastRowUnder(s, box.Y1, z.free, size, z.pad, pitch); ok && z.inColumns(box.Y1, y1) && !z.stripeIn(box.Y1+snapTol, y1+pitch) {
		g.bb.Y1 = y1
	}
	return g
}

// zebra is what zebraEdges reads a grid's surroundings by: the grid,
// the page's rules and free words, the phrase gap of its size, its
// column edges (its column rules and its sides) and its body's phrases.
type zebra struct {
	g     grid
	hs    []rule
	free  []*word
	pad   float64
	edges []float64
	body  []document.BBox
}

// headTop is the top of the head lines from y0 down to g's top that
// keep to its columns (inColumns), from the one nearest g up to the
// first that does not, less those over the highest of two phrases or
// more: g's own top when there is none. A paragraph's last line over
// the heads is not the table's.
func (z zebra) headTop(y0 float64) float64 {
	var part []*word
	for _, w := range z.free {
		if cy := w.cy(); cy > y0 && cy < z.g.bb.Y0 && w.bb.X1 > z.g.bb.X0 && w.bb.X0 < z.g.bb.X1 {
			part = append(part, w)
		}
	}
	ls := lineUp(part)
	top := z.g.bb.Y0
	for k := len(ls) - 1; k >= 0; k-- {
		l := ls[k]
		if !z.inColumns(l.bb.Y0-0.5, z.g.bb.Y0) {
			break
		}
		if l.nSegments(z.pad) >= 2 {
			top = l.bb.Y0 - 0.5
		}
	}
	return top
}

// stripeIn: a rule of the page between y0 and y1 runs from one of g's
// column edges to another, inside its extent: a shading of its columns.
func (z zebra) stripeIn(y0, y1 float64) bool {
	at := func(x float64) bool {
		for _, e := range z.edges {
			if math.Abs(x-e) <= 3 {
				return true
			}
		}
		return false
	}
	for _, h := range z.hs {
		if h.pos > y0 && h.pos < y1 && h.a >= z.g.bb.X0-3 && h.b <= z.g.bb.X1+3 && at(h.a) && at(h.b) {
			return true
		}
	}
	return false
}

// inColumns: the free words between y0 and y1 inside g's extent keep to
// its columns: no rule runs between (other than on g's edges), no word
// crosses one of g's column rules, and each phrase stands in its cell
// as the body's phrases do (aligned).
func (z zebra) inColumns(y0, y1 float64) bool {
	b := z.g.bb
	mid := (b.X0 + b.X1) / 2
	for _, h := range z.hs {
		if h.pos > y0 && h.pos < y1 && math.Abs(h.pos-b.Y0) > snapTol && math.Abs(h.pos-b.Y1) > snapTol &&
			h.a-crossTol <= mid && h.b+crossTol >= mid {
			return false
		}
	}
	var part []*word
	for _, w := range z.free {
		if cy := w.cy(); cy < y0 || cy > y1 || w.bb.X1 < b.X0 || w.bb.X0 > b.X1 {
			continue
		}
		for _, v := range z.g.vs {
			if v.pos > b.X0+3 && v.pos < b.X1-3 && w.bb.X0 < v.pos-1 && w.bb.X1 > v.pos+1 {
				return false
			}
		}
		part = append(part, w)
	}
	var segs []document.BBox
	for _, l := range lineUp(part) {
		segs = l.appendSegmentBoxes(segs[:0], z.pad)
		for _, p := range segs {
			if !z.aligned(p) {
				return false
			}
		}
	}
	return true
}

// aligned: phrase p starts, ends or is centred where a phrase of the
// body in its column does (2pt), or stands as far into its cell as one does into its
// own (1.5pt; a head over an empty column). A paragraph's last line
// over a table starts at the text's margin, not where a cell's text does.
func (z zebra) aligned(p document.BBox) bool {
	left := func(x float64) float64 {
		e := math.Inf(-1)
		for _, v := range z.edges {
			if v <= x+1 && v > e {
				e = v
			}
		}
		return e
	}
	lp := left(p.X0)
	for _, b := range z.body {
		lb := left(b.X0)
		if lb == lp && (math.Abs(p.X0-b.X0) <= 2 || math.Abs(p.X1-b.X1) <= 2 || math.Abs(p.X0+p.X1-b.X0-b.X1) <= 4) ||
			math.Abs((p.X0-lp)-(b.X0-lb)) <= 1.5 {
			return true
		}
	}
	return false
}

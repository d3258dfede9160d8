package table

import (
	"math"

	"github.com/docket-dev/docket/loader/internal/document"
)

// Two framed tables set one right under the other (a browser's tables
// with borders and no margin between them) draw one grid: the lower
// frame's top rule meets, or lies within a point or two of, the upper
// one's bottom rule, and their left sides are one line. Their frames
// differ in width: a table's rows share its frame's sides, so a grid
// whose rows change sides is two tables.

// frameCut finds where g's rows change frame: two rows, one right under
// the other (or a sliver under 4pt with no side rules of its own between
// them, the white of two frames set a point apart), each with a frame
// (its outermost vertical rules end where its top or bottom rule ends),
// whose left or right sides stand more than crossTol apart, and neither
// side of one at a column rule of the other (a head cell framed over some
// of the body's columns keeps them). It returns the bottom of the upper
// rows, the top of the lower ones, and each part's sides (0 when there
// is no such cut).
func frameCut(g grid) (cut [2]float64, up, down [2]float64) {
	ys := positions(g.hs, snapTol)
	type side struct {
		l, r float64
		ok   bool
	}
	sides := make([]side, 0, len(ys))
	for i := 0; i+1 < len(ys); i++ {
		l, r, ok := frameSides(g, ys[i], ys[i+1])
		sides = append(sides, side{l, r, ok})
	}
	for i := 0; i+1 < len(sides); i++ {
		j := i + 1
		if !sides[j].ok && ys[j+1]-ys[j] < 4 && j+1 < len(sides) {
			j++ // the white between two frames
		}
		a, b := sides[i], sides[j]
		if !a.ok || !b.ok {
			continue
		}
		if math.Abs(a.l-b.l) <= crossTol && math.Abs(a.r-b.r) <= crossTol {
			continue
		}
		upper, lower := [2]float64{ys[0], ys[i+1]}, [2]float64{ys[j], ys[len(ys)-1]}
		if math.Abs(a.l-b.l) > crossTol && (colRuleAt(g, lower, a.l) || colRuleAt(g, upper, b.l)) ||
			math.Abs(a.r-b.r) > crossTol && (colRuleAt(g, lower, a.r) || colRuleAt(g, upper, b.r)) {
			continue
		}
		return [2]float64{ys[i+1], ys[j]}, [2]float64{a.l, a.r}, [2]float64{b.l, b.r}
	}
	return
}

// splitFrames cuts g where its rows change frame (frameCut), each part
// kept within its own sides.
func splitFrames(g grid) []grid {
	cut, up, down := frameCut(g)
	if cut[0] == 0 {
		return []grid{g}
	}
	top := clipX(clipGrid(g, math.Inf(-1), cut[0]), up)
	bottom := clipX(clipGrid(g, cut[1], math.Inf(1)), down)
	return append([]grid{top}, splitFrames(bottom)...)
}

// clipX is the part of g between the sides x[0] and x[1]: horizontal
// rules cut there, vertical ones outside dropped.
func clipX(g grid, x [2]float64) grid {
	var c grid
	first := true
	for _, h := range g.hs {
		h.a, h.b = max(h.a, x[0]), min(h.b, x[1])
		if h.b-h.a > crossTol {
			c.hs = append(c.hs, h)
			c.bb = grow(c.bb, document.BBox{X0: h.a, Y0: h.pos, X1: h.b, Y1: h.pos}, first)
			first = false
		}
	}
	for _, v := range g.vs {
		if v.pos >= x[0]-crossTol && v.pos <= x[1]+crossTol {
			c.vs = append(c.vs, v)
			c.bb = grow(c.bb, document.BBox{X0: v.pos, Y0: v.a, X1: v.pos, Y1: v.b}, first)
			first = false
		}
	}
	return c
}

// frameSides: the outermost of g's vertical rules over the middle of the
// band y0..y1, when there are two or more and each ends within crossTol
// of an end of a horizontal rule at y0 or y1 (the band's frame).
func frameSides(g grid, y0, y1 float64) (float64, float64, bool) {
	mid := (y0 + y1) / 2
	l, r, n := math.Inf(1), math.Inf(-1), 0
	for _, v := range g.vs {
		if v.a <= mid && v.b >= mid {
			l, r = min(l, v.pos), max(r, v.pos)
			n++
		}
	}
	if n < 2 {
		return 0, 0, false
	}
	endsL, endsR := false, false
	for _, h := range g.hs {
		if math.Abs(h.pos-y0) > snapTol && math.Abs(h.pos-y1) > snapTol {
			continue
		}
		endsL = endsL || math.Abs(h.a-l) <= crossTol
		endsR = endsR || math.Abs(h.b-r) <= crossTol
	}
	return l, r, endsL && endsR
}

// colRuleAt: a vertical rule of g stands at x (within crossTol) over
// some of the rows between ys[0] and ys[1].
func colRuleAt(g grid, ys [2]float64, x float64) bool {
	for _, v := range g.vs {
		if math.Abs(v.pos-x) <= crossTol && v.b > ys[0]+snapTol && v.a < ys[1]-snapTol {
			return true
		}
	}
	return false
}

package table

import (
	"math"
	"sort"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
)

// rule is a horizontal (y = pos, x from a to b) or vertical (x = pos, y
// from a to b) line of the page's drawing.
type rule struct {
	pos, a, b float64
}

const (
	thinMax  = 3.0 // thicker than this a filled box is not a rule but a box
	snapTol  = 1.5 // rules this close in position are one
	joinTol  = 2.0 // collinear pieces this close are joined
	crossTol = 2.5 // a rule ends this close to another still meets it
	minRule  = 4.0 // shorter pieces are ticks, dots, glyph parts
)

// rules turns the page's vectors into merged horizontal and vertical
// rules. Filled boxes count by their edges (cell backgrounds, frames);
// boxes covering most of the page (backgrounds) are skipped.
func rules(lay *pdf.Layout) (hs, vs []rule, curves []document.BBox) {
	pageArea := lay.Width * lay.Height
	nested := nestedFills(lay.Vectors)
	for i, v := range lay.Vectors {
		if nested != nil && nested[i] {
			continue
		}
		// drawing off the page (spreads, bleed) is cut at the page's edge
		b := document.BBox{X0: max(v.BBox.X0, 0), Y0: max(v.BBox.Y0, 0),
			X1: min(v.BBox.X1, lay.Width), Y1: min(v.BBox.Y1, lay.Height)}
		if b.X1 < b.X0 || b.Y1 < b.Y0 {
			continue
		}
		if v.Curve {
			curves = append(curves, b)
			continue
		}
		w, h := b.X1-b.X0, b.Y1-b.Y0
		switch {
		case h <= thinMax && w >= minRule:
			hs = append(hs, rule{(b.Y0 + b.Y1) / 2, b.X0, b.X1})
		case w <= thinMax && h >= minRule:
			vs = append(vs, rule{(b.X0 + b.X1) / 2, b.Y0, b.Y1})
		case w > thinMax && h > thinMax && w*h < 0.5*pageArea:
			hs = append(hs, rule{b.Y0, b.X0, b.X1}, rule{b.Y1, b.X0, b.X1})
			vs = append(vs, rule{b.X0, b.Y0, b.Y1}, rule{b.X1, b.Y0, b.Y1})
		}
	}
	return mergeRules(hs), mergeRules(vs), curves
}

// nestedFills marks the filled boxes drawn inside another filled box and
// inset from both its sides: the shading behind a cell's text lines (a
// word processor shades each line of a shaded paragraph), not the cell's
// edges; their edges would cut a wrapped header cell into rows. A stripe
// across a table's background reaches its sides and stays.
func nestedFills(vs []pdf.Vector) []bool {
	var boxes []int
	for i, v := range vs {
		if b := v.BBox; v.Fill && !v.Curve && b.X1-b.X0 > thinMax && b.Y1-b.Y0 > thinMax {
			boxes = append(boxes, i)
		}
	}
	if len(boxes) < 2 {
		return nil
	}
	out := make([]bool, len(vs))
	for _, i := range boxes {
		b := vs[i].BBox
		for _, j := range boxes {
			o := vs[j].BBox
			if j != i && b.X0 > o.X0+1 && b.X1 < o.X1-1 && b.Y0 >= o.Y0-0.5 && b.Y1 <= o.Y1+0.5 {
				out[i] = true
				break
			}
		}
	}
	return out
}

// chart reports whether the box is mostly drawing with slanted or curved
// paths (plot lines, pie slices): a chart with gridlines, not a table.
func chart(b document.BBox, curves []document.BBox) bool {
	area := (b.X1 - b.X0) * (b.Y1 - b.Y0)
	if area <= 0 {
		return false
	}
	cov := 0.0
	for _, c := range curves {
		w := min(b.X1, c.X1) - max(b.X0, c.X0)
		h := min(b.Y1, c.Y1) - max(b.Y0, c.Y0)
		if w > 0 && h > 0 {
			cov += w * h
		}
	}
	return cov > 0.15*area
}

// bars reports whether the vertical rules inside box are the ends of a
// bar chart's bars rather than a table's column rules: a column rule runs
// through several rows, or comes back at the same x in other rows (cells
// drawn one by one), while the ends of bars sit where the data puts them,
// each at an x of its own within one band between horizontal rules. Four
// or more such pieces, at least half of all, in three or more bands (one
// band of them is a header row's cell backgrounds) make a chart; six
// rules are enough to look (three bars' edges).
func bars(box document.BBox, hs, vs []rule) bool {
	var in []rule
	for _, v := range vs {
		if c := (v.a + v.b) / 2; v.pos >= box.X0-1 && v.pos <= box.X1+1 && c >= box.Y0 && c <= box.Y1 {
			in = append(in, v)
		}
	}
	if len(in) < 6 {
		return false
	}
	isolated := 0
	var bands []float64
	for i, v := range in {
		through := false
		for _, h := range hs {
			if h.pos > v.a+snapTol && h.pos < v.b-snapTol && h.a <= v.pos+crossTol && h.b >= v.pos-crossTol {
				through = true
				break
			}
		}
		if through {
			continue
		}
		alone := true
		for j, o := range in {
			if j != i && math.Abs(o.pos-v.pos) <= snapTol {
				alone = false
				break
			}
		}
		if !alone {
			continue
		}
		isolated++
		c, seen := (v.a+v.b)/2, false
		for _, y := range bands {
			seen = seen || math.Abs(y-c) <= snapTol
		}
		if !seen {
			bands = append(bands, c)
		}
	}
	return isolated >= 4 && 2*isolated >= len(in) && len(bands) >= 3
}

// mergeRules snaps rules to common positions and joins collinear pieces.
func mergeRules(rs []rule) []rule {
	if len(rs) == 0 {
		return nil
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].pos < rs[j].pos })
	var out []rule
	for i := 0; i < len(rs); {
		j := i + 1
		for j < len(rs) && rs[j].pos-rs[j-1].pos <= snapTol {
			j++
		}
		grp := append([]rule(nil), rs[i:j]...)
		pos := 0.0
		for _, r := range grp {
			pos += r.pos
		}
		pos /= float64(len(grp))
		sort.Slice(grp, func(a, b int) bool { return grp[a].a < grp[b].a })
		cur := rule{pos, grp[0].a, grp[0].b}
		for _, r := range grp[1:] {
			if r.a <= cur.b+joinTol {
				cur.b = max(cur.b, r.b)
				continue
			}
			out = append(out, cur)
			cur = rule{pos, r.a, r.b}
		}
		out = append(out, cur)
		i = j
	}
	return out
}

func crosses(h, v rule) bool {
	return v.pos >= h.a-crossTol && v.pos <= h.b+crossTol && h.pos >= v.a-crossTol && h.pos <= v.b+crossTol
}

// grid is a connected set of rules: a ruled table candidate.
type grid struct {
	hs, vs []rule
	bb     document.BBox
}

// grids groups rules that meet into connected components with at least
// two horizontal and two vertical rules.
func grids(hs, vs []rule) []grid {
	n := len(hs) + len(vs)
	sets := newUnionFind(n)
	for i, h := range hs {
		for j, v := range vs {
			if crosses(h, v) {
				sets.join(i, len(hs)+j)
			}
		}
	}
	comp := map[int]*grid{}
	var order []int
	for i := 0; i < n; i++ {
		r := sets.find(i)
		g := comp[r]
		if g == nil {
			g = &grid{}
			comp[r] = g
			order = append(order, r)
		}
		if i < len(hs) {
			h := hs[i]
			g.hs = append(g.hs, h)
			g.bb = grow(g.bb, document.BBox{X0: h.a, Y0: h.pos, X1: h.b, Y1: h.pos}, len(g.hs)+len(g.vs) == 1)
		} else {
			v := vs[i-len(hs)]
			g.vs = append(g.vs, v)
			g.bb = grow(g.bb, document.BBox{X0: v.pos, Y0: v.a, X1: v.pos, Y1: v.b}, len(g.hs)+len(g.vs) == 1)
		}
	}
	var out []grid
	for _, r := range order {
		g := comp[r]
		if len(g.hs) >= 2 && len(g.vs) >= 2 && g.bb.X1-g.bb.X0 > 20 && g.bb.Y1-g.bb.Y0 > 8 {
			out = append(out, *g)
		}
	}
	return out
}

func grow(a, b document.BBox, first bool) document.BBox {
	if first {
		return b
	}
	return a.Union(b)
}

// positions clusters rule positions (chains closer than tol) into sorted
// distinct values, each the position of the cluster's longest rule (an
// inset cell background's edge beside a real rule gives way to the rule).
func positions(rs []rule, tol float64) []float64 {
	sorted := append([]rule(nil), rs...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].pos < sorted[j].pos })
	var out []float64
	for i := 0; i < len(sorted); {
		j, best := i+1, i
		for j < len(sorted) && sorted[j].pos-sorted[j-1].pos <= tol {
			if sorted[j].b-sorted[j].a > sorted[best].b-sorted[best].a {
				best = j
			}
			j++
		}
		out = append(out, sorted[best].pos)
		i = j
	}
	return out
}

// covered: some rule at position pos (±tol) runs over [a, b]'s middle.
func covered(rs []rule, pos, mid, tol float64) bool {
	for _, r := range rs {
		if math.Abs(r.pos-pos) <= tol && r.a-crossTol <= mid && r.b+crossTol >= mid {
			return true
		}
	}
	return false
}

// splitGrids cuts a grid where one table drawn on another begins: at a
// horizontal rule with two or more rows on each side whose column rules
// just above and just below share no position (the frame's sides aside).
// A header row spanning columns has fewer column rules than the body,
// but the ones it has are the body's. Before that, a grid whose rows
// change frame (two bordered tables one right under the other) is cut
// there (splitFrames).
func splitGrids(gs []grid) []grid {
	var out []grid
	for _, g := range gs {
		for _, f := range splitFrames(g) {
			out = append(out, splitGrid(f)...)
		}
	}
	return out
}

func splitGrid(g grid) []grid {
	ys := positions(g.hs, snapTol)
	inner := func(y0, y1 float64) []float64 {
		var xs []float64
		mid := (y0 + y1) / 2
		for _, v := range g.vs {
			if v.pos > g.bb.X0+3 && v.pos < g.bb.X1-3 && v.a <= mid && v.b >= mid {
				xs = append(xs, v.pos)
			}
		}
		return xs
	}
	for k := 2; k+2 < len(ys); k++ {
		above, below := inner(ys[k-1], ys[k]), inner(ys[k], ys[k+1])
		if len(above) == 0 || len(below) == 0 {
			continue
		}
		shared := false
		for _, a := range above {
			for _, b := range below {
				shared = shared || math.Abs(a-b) <= crossTol
			}
		}
		if shared {
			continue
		}
		cut := ys[k]
		top, bottom := clipGrid(g, math.Inf(-1), cut), clipGrid(g, cut, math.Inf(1))
		return append([]grid{top}, splitGrid(bottom)...)
	}
	return []grid{g}
}

// clipGrid is the part of g between y0 and y1 (rules on the cut kept on
// both sides).
func clipGrid(g grid, y0, y1 float64) grid {
	var c grid
	first := true
	for _, h := range g.hs {
		if h.pos >= y0-snapTol && h.pos <= y1+snapTol {
			c.hs = append(c.hs, h)
			c.bb = grow(c.bb, document.BBox{X0: h.a, Y0: h.pos, X1: h.b, Y1: h.pos}, first)
			first = false
		}
	}
	for _, v := range g.vs {
		a, b := max(v.a, y0), min(v.b, y1)
		if b-a > snapTol {
			v.a, v.b = a, b
			c.vs = append(c.vs, v)
			c.bb = grow(c.bb, document.BBox{X0: v.pos, Y0: a, X1: v.pos, Y1: b}, first)
			first = false
		}
	}
	return c
}

package table

import (
	"math"
	"sort"

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
func buildGrid(box document.BBox, ws []*word, hs, vs []rule) [][]string {
	lines := lineUp(ws)
	if len(lines) == 0 {
		return nil
	}
	sizes := make([]float64, len(ws))
	for i, w := range ws {
		sizes[i] = w.size
	}
	size := median(sizes)
	gap := math.Max(4, 0.7*size)
	var segs []document.BBox  // phrases, for the crossing test
	var multi []document.BBox // phrases of lines with several
	for _, l := range lines {
		ss := l.segments(gap)
		for _, s := range ss {
			segs = append(segs, boxOf(s))
			if len(ss) > 1 {
				multi = append(multi, boxOf(s))
			}
		}
	}

	// Rules of this box.
	var rv, rh []rule
	for _, v := range vs {
		if v.pos > box.X0+6 && v.pos < box.X1-6 && math.Min(v.b, box.Y1)-math.Max(v.a, box.Y0) > 4 {
			rv = append(rv, v)
		}
	}
	for _, h := range hs {
		if h.pos > box.Y0+3 && h.pos < box.Y1-3 && math.Min(h.b, box.X1)-math.Max(h.a, box.X0) > 0.3*(box.X1-box.X0) {
			rh = append(rh, h)
		}
	}

	// Columns: rules, then text gaps not already ruled.
	var xs []sep
	for _, p := range positions(rv, 6) {
		xs = append(xs, sep{p, true})
	}
	cols := columns(lines, gap)
	for k := 0; k+1 < len(cols); k++ {
		a, b := cols[k].b, cols[k+1].a
		ruled := false
		for _, x := range xs {
			if x.real && x.pos >= a-2 && x.pos <= b+2 {
				ruled = true
			}
		}
		// A phrase crossing the gap flush with the left column's start
		// or the right column's end is a wide cell of that column, not
		// a header spanning both: then the gap is no column boundary.
		mid := (a + b) / 2
		for _, sg := range multi {
			if sg.X0 < mid && sg.X1 > mid && (math.Abs(sg.X0-cols[k].a) < 2 || math.Abs(sg.X1-cols[k+1].b) < 2) {
				ruled = true
				break
			}
		}
		if !ruled {
			xs = append(xs, sep{mid, false})
		}
	}
	sort.Slice(xs, func(i, j int) bool { return xs[i].pos < xs[j].pos })
	xs = append(append([]sep{{box.X0, true}}, xs...), sep{box.X1, true})

	// Rows: between rules, a band of lines is one row (its cells wrap)
	// unless its lines look like rows of their own: three or more, most
	// with a first-column label, several with two or more cells. With no
	// rules inside, every line is a row.
	var ys []sep
	for _, p := range positions(rh, 3) {
		ys = append(ys, sep{p, true})
	}
	edges := append(append([]float64{box.Y0}, func() []float64 {
		ps := make([]float64, len(ys))
		for i, y := range ys {
			ps[i] = y.pos
		}
		return ps
	}()...), box.Y1)
	firstCol := xs[1].pos
	for k := 0; k+1 < len(edges); k++ {
		var band []*textLine
		for _, l := range lines {
			if cy := l.cy(); cy > edges[k] && cy < edges[k+1] {
				band = append(band, l)
			}
		}
		if len(band) < 2 {
			continue
		}
		split := len(ys) == 0
		if !split && len(band) >= 3 {
			label, multi := 0, 0
			for _, l := range band {
				if l.ws[0].cx() < firstCol {
					label++
				}
				cells := map[int]bool{}
				for _, w := range l.ws {
					cells[sort.Search(len(xs), func(i int) bool { return xs[i].pos > w.cx() })] = true
				}
				if len(cells) >= 2 {
					multi++
				}
			}
			split = float64(label) >= 0.7*float64(len(band)) && multi >= 2
		}
		if split {
			for i := 1; i < len(band); i++ {
				ys = append(ys, sep{(band[i-1].bb.Y1 + band[i].bb.Y0) / 2, false})
			}
		}
	}
	sort.Slice(ys, func(i, j int) bool { return ys[i].pos < ys[j].pos })
	ys = append(append([]sep{{box.Y0, true}}, ys...), sep{box.Y1, true})

	nr, nc := len(ys)-1, len(xs)-1
	cells := newUnionFind(nr * nc)
	for i := 0; i < nr; i++ {
		y0, y1 := ys[i].pos, ys[i+1].pos
		for j := 1; j < nc; j++ {
			x := xs[j]
			// Open (merged) where no rule runs and a phrase crosses.
			open := false
			if !x.real || !covered(rv, x.pos, (y0+y1)/2, 6) {
				for _, s := range segs {
					cy := (s.Y0 + s.Y1) / 2
					if cy > y0 && cy < y1 && s.X0 < x.pos-0.5 && s.X1 > x.pos+0.5 {
						open = true
						break
					}
				}
			}
			if open {
				cells.join(i*nc+j-1, i*nc+j)
			}
		}
	}
	for j := 0; j < nc; j++ {
		xmid := (xs[j].pos + xs[j+1].pos) / 2
		for i := 1; i < nr; i++ {
			if y := ys[i]; y.real && !covered(rh, y.pos, xmid, 3) {
				cells.join((i-1)*nc+j, i*nc+j)
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
	cellWords := map[int][]*word{}
	for _, w := range ws {
		i, j := band(edgesY, w.cy()), band(edgesX, w.cx())
		k := cells.find(i*nc + j)
		cellWords[k] = append(cellWords[k], w)
	}
	rows := make([][]string, nr)
	for i := range rows {
		rows[i] = make([]string, nc)
		for j := range rows[i] {
			if k := i*nc + j; cells.find(k) == k {
				rows[i][j] = cellText(cellWords[k])
			}
		}
	}
	return rows
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

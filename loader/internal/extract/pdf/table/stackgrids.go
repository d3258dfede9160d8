package table

import (
	"math"
	"slices"
	"sort"
)

// stackGrids joins grids drawn one under the other as one table's parts:
// a rate sheet draws its head, then each section (a shaded band row
// "Complete" over its rows) as a box of its own, a few points of white
// between them. Two grids are one table when they have the same left
// and right edges, the white between them is under half the lower of
// their smallest row heights with no word in it, and the column rules of
// one are all the other's (a head row spanning columns has fewer). Two
// tables set one under the other stand farther apart (a caption, a line
// of text, a blank line), or their columns differ (splitGrid's cut).
func stackGrids(gs []grid, ws []*word) []grid {
	if len(gs) < 2 {
		return gs
	}
	order := make([]int, len(gs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return gs[order[i]].bb.Y0 < gs[order[j]].bb.Y0 })
	head := make([]int, len(gs)) // per grid, the first part of its table
	var last []int               // per table (by head), its lowest part so far
	joins := 0
	for _, i := range order {
		head[i] = i
		for k, l := range last {
			if stacked(gs[l], gs[i], ws) {
				head[i] = head[l]
				last[k] = i
				joins++
				break
			}
		}
		if head[i] == i {
			last = append(last, i)
		}
	}
	if joins == 0 {
		return gs
	}
	// the tables in the grids' own order (the order later rules see them)
	out := make([]grid, 0, len(gs))
	at := make(map[int]int, len(gs))
	for i, g := range gs {
		if k, ok := at[head[i]]; ok {
			out[k].hs = append(out[k].hs, g.hs...)
			out[k].vs = append(out[k].vs, g.vs...)
			out[k].bb = out[k].bb.Union(g.bb)
			continue
		}
		at[head[i]] = len(out)
		g.hs, g.vs = slices.Clone(g.hs), slices.Clone(g.vs)
		out = append(out, g)
	}
	return out
}

// stacked: grid b stands right under grid a as the same table's next part.
func stacked(a, b grid, ws []*word) bool {
	gap := b.bb.Y0 - a.bb.Y1
	if gap < 0 || math.Abs(a.bb.X0-b.bb.X0) > crossTol || math.Abs(a.bb.X1-b.bb.X1) > crossTol {
		return false
	}
	if gap >= 0.5*min(minPitch(a), minPitch(b)) {
		return false
	}
	for _, w := range ws {
		if cy := w.cy(); cy > a.bb.Y1 && cy < b.bb.Y0 && w.bb.X1 > a.bb.X0 && w.bb.X0 < a.bb.X1 {
			return false
		}
	}
	pa, pb := innerCols(a), innerCols(b)
	if len(pa) > len(pb) {
		pa, pb = pb, pa
	}
	if len(pa) == 0 {
		return false
	}
	for _, x := range pa {
		found := false
		for _, y := range pb {
			found = found || math.Abs(x-y) <= crossTol
		}
		if !found {
			return false
		}
	}
	return true
}

// minPitch is the smallest distance between two of g's horizontal rule
// positions (its lowest row's height, or less).
func minPitch(g grid) float64 {
	ys := positions(g.hs, snapTol)
	p := math.Inf(1)
	for i := 1; i < len(ys); i++ {
		p = min(p, ys[i]-ys[i-1])
	}
	return p
}

// innerCols are the distinct positions of g's vertical rules inside its
// frame.
func innerCols(g grid) []float64 {
	var in []rule
	for _, v := range g.vs {
		if v.pos > g.bb.X0+crossTol && v.pos < g.bb.X1-crossTol {
			in = append(in, v)
		}
	}
	return positions(in, snapTol)
}

package pdf

import (
	"math"
	"slices"
	"sort"
)

// Reading order by recursive XY-cut over paragraph boxes, with one twist:
// horizontal cuts come first (so rows of a form or table read left to
// right), but consecutive horizontal bands that share a vertical gutter and
// hold running text are merged back and cut vertically, so a two-column
// page reads column by column even where both columns happen to have a
// paragraph gap at the same height.

const minGutter = 7.0 // points: narrower vertical gaps are not column gutters

type span struct{ lo, hi float64 }

// readingOrder returns ps reordered.
func readingOrder(ps []*para) []*para {
	if len(ps) <= 1 {
		return ps
	}
	return cut(ps, false)
}

func cut(ps []*para, verticalFirst bool) []*para {
	if len(ps) <= 1 {
		return ps
	}
	if verticalFirst {
		if cols := splitX(ps, minGutter); len(cols) > 1 {
			var out []*para
			for _, c := range cols {
				out = append(out, cut(c, false)...)
			}
			return out
		}
	}
	bands := splitY(ps)
	if len(bands) > 1 {
		var out []*para
		for _, g := range groupBands(bands) {
			if len(g) == 1 {
				out = append(out, cut(g[0], false)...)
				continue
			}
			var all []*para
			for _, b := range g {
				all = append(all, b...)
			}
			if cols := splitX(all, minGutter); len(cols) > 1 {
				for _, c := range cols {
					out = append(out, cut(c, false)...)
				}
			} else {
				for _, b := range g {
					out = append(out, cut(b, false)...)
				}
			}
		}
		return out
	}
	if cols := splitX(ps, 0.5); len(cols) > 1 {
		var out []*para
		for _, c := range cols {
			out = append(out, cut(c, false)...)
		}
		return out
	}
	// Overlapping boxes: no cut. Keep MuPDF's content order, which is the
	// drawing order and usually right for such knots.
	out := append([]*para(nil), ps...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].seq < out[j].seq })
	return out
}

// splitY cuts into horizontal bands separated by empty rows.
func splitY(ps []*para) [][]*para {
	s := append([]*para(nil), ps...)
	slices.SortStableFunc(s, func(a, b *para) int { return less(a.bbox.Y0, b.bbox.Y0) })
	// the bands are runs of s (capped: appending to one copies it)
	var out [][]*para
	start := 0
	maxY := s[0].bbox.Y1
	for i := 1; i < len(s); i++ {
		p := s[i]
		h := min(height(p.bbox), 4)
		if p.bbox.Y0 >= maxY-0.25*h {
			out = append(out, s[start:i:i])
			start = i
		}
		maxY = max(maxY, p.bbox.Y1)
	}
	return append(out, s[start:len(s):len(s)])
}

// less orders by x < y for slices.SortStableFunc, exactly as a
// sort.SliceStable with that less did (the same merge sort, the same
// comparisons, NaN included), without sort.SliceStable's reflection.
func less(x, y float64) int {
	switch {
	case x < y:
		return -1
	case y < x:
		return 1
	}
	return 0
}

// splitX cuts into vertical strips separated by empty columns at least
// minGap wide.
func splitX(ps []*para, minGap float64) [][]*para {
	s := append([]*para(nil), ps...)
	slices.SortStableFunc(s, func(a, b *para) int { return less(a.bbox.X0, b.bbox.X0) })
	// the columns are runs of s (capped: appending to one copies it)
	var out [][]*para
	start := 0
	maxX := s[0].bbox.X1
	for i := 1; i < len(s); i++ {
		p := s[i]
		if p.bbox.X0-maxX >= minGap {
			out = append(out, s[start:i:i])
			start = i
		}
		maxX = max(maxX, p.bbox.X1)
	}
	return append(out, s[start:len(s):len(s)])
}

// gutters are the empty vertical strips of a band.
func gutters(band []*para) []span {
	if len(band) < 2 {
		return nil // one column (splitX), no gutter
	}
	cols := splitX(band, minGutter)
	if len(cols) < 2 {
		return nil
	}
	var out []span
	for i := 1; i < len(cols); i++ {
		lo := math.Inf(-1)
		for _, p := range cols[i-1] {
			lo = max(lo, p.bbox.X1)
		}
		hi := math.Inf(1)
		for _, p := range cols[i] {
			hi = min(hi, p.bbox.X0)
		}
		out = append(out, span{lo, hi})
	}
	return out
}

// narrow fits band's items on either side of gutter g, shrinking g; ok is
// false when an item spans g or less than 3pt of it is left.
func narrow(band []*para, g span) (span, bool) {
	for _, p := range band {
		switch {
		case p.bbox.X1 <= g.lo || p.bbox.X0 >= g.hi:
		case p.bbox.X0 < g.lo+0.5 && p.bbox.X1 > g.hi-0.5:
			return g, false
		case (p.bbox.X0+p.bbox.X1)/2 < (g.lo+g.hi)/2:
			g.lo = p.bbox.X1
		default:
			g.hi = p.bbox.X0
		}
		if g.hi-g.lo < 3 {
			return g, false
		}
	}
	return g, true
}

func textLines(ps []*para) (lines, items int) {
	for _, p := range ps {
		if !p.image {
			lines += len(p.lines)
			items++
		}
	}
	return
}

// groupBands merges runs of bands that share a gutter and hold running text
// (paragraphs of several lines), so they are read column by column.
func groupBands(bands [][]*para) [][][]*para {
	var out [][][]*para
	i := 0
	for i < len(bands) {
		gs := gutters(bands[i])
		if len(gs) == 0 {
			out = append(out, bands[i:i+1:i+1])
			i++
			continue
		}
		// widest gutter of the first band leads
		g := gs[0]
		for _, x := range gs[1:] {
			if x.hi-x.lo > g.hi-g.lo {
				g = x
			}
		}
		j := i + 1
		for j < len(bands) {
			ng, ok := narrow(bands[j], g)
			if !ok {
				break
			}
			g = ng
			j++
		}
		group := bands[i:j:j]
		lines, items, maxLines := 0, 0, 0
		for _, b := range group {
			l, n := textLines(b)
			lines, items = lines+l, items+n
			for _, p := range b {
				maxLines = max(maxLines, len(p.lines))
			}
		}
		if j-i > 1 && items > 0 && (float64(lines)/float64(items) >= 2 || maxLines >= 4) {
			out = append(out, group)
		} else {
			// not running text (a form, a table): this band alone, then try
			// again from the next one
			out = append(out, bands[i:i+1:i+1])
			j = i + 1
		}
		i = j
	}
	return out
}

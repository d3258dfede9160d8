package table

import (
	"math"
	"slices"
)

// centredSpans joins a group header's cell with the empty cells beside it
// when the header is centred over that group of columns and the row under
// it heads two or more of them ("Total", "Male", "Female" each over
// "Total / Under 18 / 18 and over"): a header narrower than the gap
// between columns crosses no gap, so nothing else says it spans. Only
// rows above the body (the first row with a number) are looked at;
// columns are measured by the body's text.
func centredSpans(cells unionFind, edgesX, edgesY []float64, ws []*word) {
	nr, nc := len(edgesY)-1, len(edgesX)-1
	if nr < 3 || nc < 3 {
		return
	}
	at := byCell(ws, nr*nc, func(w *word) int { return band(edgesY, w.cy())*nc + band(edgesX, w.cx()) })
	body := -1
	for i := 0; i < nr && body < 0; i++ {
		for j := 0; j < nc; j++ {
			if k := i*nc + j; len(at[k]) > 0 && numericCell(at[k]) && !yearRe.MatchString(at[k][0].text) {
				body = i
				break
			}
		}
	}
	if body < 2 || body > 5 {
		return // no header rows, or no clear body under a few of them
	}
	left, right := make([]float64, nc), make([]float64, nc)
	for j := range left {
		left[j], right[j] = math.Inf(1), math.Inf(-1)
		for i := body; i < nr; i++ {
			for _, w := range at[i*nc+j] {
				left[j], right[j] = min(left[j], w.bb.X0), max(right[j], w.bb.X1)
			}
		}
	}
	members := make([]int, nr*nc) // per root, the cells of its set
	for k := range members {
		members[cells.find(k)]++
	}
	alone := func(k int) bool { return cells.find(k) == k && members[k] == 1 } // a cell not merged
	for i := 0; i+1 < body; i++ {
		for j := 0; j < nc; j++ {
			k := i*nc + j
			if len(at[k]) == 0 || !alone(k) {
				continue
			}
			x0, x1 := math.Inf(1), math.Inf(-1)
			for _, w := range at[k] {
				x0, x1 = min(x0, w.bb.X0), max(x1, w.bb.X1)
			}
			xc := (x0 + x1) / 2
			free := func(c int) bool {
				return c >= 0 && c < nc && len(at[i*nc+c]) == 0 && alone(i*nc+c) && !math.IsInf(left[c], 1)
			}
			// the best centred group of two or more columns
			bestP, bestQ, bestErr := 0, 0, math.Inf(1)
			for p := 0; p == 0 || free(j-p); p++ {
				for q := 0; q == 0 || free(j+q); q++ {
					if p+q == 0 || math.IsInf(left[j], 1) {
						continue
					}
					a, b := left[j-p], right[j+q]
					e := math.Abs((a+b)/2 - xc)
					if b-a < x1-x0 || e > max(3, 0.08*(b-a)) || e > bestErr+0.5 {
						continue
					}
					under := 0 // columns of the group headed in the row below
					for c := j - p; c <= j+q; c++ {
						if len(at[(i+1)*nc+c]) > 0 {
							under++
						}
					}
					if under >= 2 && (e < bestErr-0.5 || p+q > bestP+bestQ) {
						bestP, bestQ, bestErr = p, q, e
					}
				}
			}
			for c := j - bestP; c <= j+bestQ; c++ {
				if c != j {
					cells.join(k, i*nc+c)
					members[i*nc+c] = 2 // no longer alone, whichever is the root
					members[k] = 2
				}
			}
		}
	}
}

// labelSpans joins a row label with the next row's first cell when that
// cell is the label's wrapped last line: it starts lower-case at the
// label's left edge, a line's leading under it ("Chronic fatigue" over
// "syndrome", beside "Count" and "Percentage" rows): the label spans both
// rows, even across a rule (the edge of the next row's cell backgrounds,
// drawn under the label too). An indented or capitalized line is a
// label of its own ("of which" items are indented), and so is a line
// whose first word would have fit on the label's last line inside a cell
// ruled on its right.
func labelSpans(cells unionFind, xs []sep, ys []sep, ws []*word) {
	edgesX := make([]float64, len(xs))
	for i, x := range xs {
		edgesX[i] = x.pos
	}
	nr, nc := len(ys)-1, len(edgesX)-1
	if nr < 2 || nc < 2 {
		return
	}
	edgesY := make([]float64, len(ys))
	for i, y := range ys {
		edgesY[i] = y.pos
	}
	first := nc
	at := make([][]*word, nr)
	for _, w := range ws {
		first = min(first, band(edgesX, w.cx()))
	}
	for _, w := range ws {
		if band(edgesX, w.cx()) == first {
			i := band(edgesY, w.cy())
			at[i] = append(at[i], w)
		}
	}
	ruledRight := first+1 < len(xs) && xs[first+1].real
	for i := 0; i+1 < nr; i++ {
		a, b := at[i], at[i+1]
		if len(a) == 0 || len(b) == 0 || cells.find((i+1)*nc+first) != (i+1)*nc+first {
			continue
		}
		// the next row's cell starts lower-case only if one of its words
		// does: most labels' cells are answered without lining them up
		if !slices.ContainsFunc(b, func(w *word) bool { return startsLower(w.text) }) {
			continue
		}
		la, lb := lineUp(a), lineUp(b)
		top, last := lb[0], la[len(la)-1]
		if same, known := sameCentredRow(last, top); known && !same {
			continue // rows of cells set centred are known (topAlignCentred)
		}
		if !startsLower(top.ws[0].text) || numericCell(top.ws) || len(lb) > 1 ||
			math.Abs(top.bb.X0-la[0].bb.X0) > 2 || top.bb.Y0-last.bb.Y1 > 0.8*max(top.size, last.size) {
			continue
		}
		if w := top.ws[0]; ruledRight && last.bb.X1+0.25*w.size+(w.bb.X1-w.bb.X0) <= edgesX[first+1]-(la[0].bb.X0-edgesX[first]) {
			// the word would have fit on the label's line inside its
			// cell, ruled on the right, and the cell's padding: a label
			// of its own ("Port", then "max_connections"); text wraps at
			// a rule, where a gap between columns is no cell's edge
			continue
		}
		cells.join(i*nc+first, (i+1)*nc+first)
	}
}

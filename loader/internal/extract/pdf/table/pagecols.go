package table

import "math"

// pageColumns cuts a page's lines (top to bottom) where its body is set
// in two columns of running text. Lined up across the page, a column's
// line beside a table's row in the other column makes one line of
// several phrases (the table merged with the text beside it), and the
// two columns' lines side by side make a run of "rows" that swallows a
// table set between them (gutterRegions splits blocks whose baselines
// differ; two columns of one font and leading share theirs). The columns
// are found from their prose: three lines or more of two phrases of four
// words or more mostly of letters (proseWords), the second starting at
// one x (the right column's left edge), a column gap or more right of
// the first's end. A stretch runs up and down from such lines while no
// line crosses the gutter (a word in the 3pt left of x, or a right part
// starting more than an indent of 3 sizes right of x: one line across)
// and no two lines in a row have words on both sides neither of which is
// prose (a page-wide table whose column gap falls in the gutter); a
// stretch holding three such lines is returned as its left column's
// lines and its right column's, the lines outside stretches as they are.
// Each part is then cut by gutterRegions as before.
func pageColumns(lines []*textLine, gap float64) [][]*textLine {
	x, at, ok := columnEdge(lines, gap)
	if !ok {
		return [][]*textLine{lines}
	}
	side := func(l *textLine) (left, right []*word, crosses bool) {
		for _, w := range l.ws {
			switch {
			case w.bb.X1 <= x-3:
				left = append(left, w)
			case w.bb.X0 >= x-0.5:
				right = append(right, w)
			default:
				return nil, nil, true
			}
		}
		if len(left) > 0 && len(right) > 0 && right[0].bb.X0 > x+3*l.size {
			return nil, nil, true
		}
		return left, right, false
	}
	// plain: a line with words both sides, neither of them prose
	plain := func(k int) bool {
		left, right, _ := side(lines[k])
		return len(left) > 0 && len(right) > 0 && !proseWords(left) && !proseWords(right)
	}
	// stops: a stretch growing to lines[k] does not take it (next is the
	// line after it in the direction of growth)
	stops := func(k, next int) bool {
		if _, _, crosses := side(lines[k]); crosses {
			return true
		}
		return plain(k) && next >= 0 && next < len(lines) && plain(next)
	}
	var out [][]*textLine
	start := 0 // first line not yet in a part
	for _, a := range at {
		if a < start {
			continue
		}
		top := a
		for top > start {
			next := top - 2
			if next < start {
				next = -1 // a line of the part above
			}
			if stops(top-1, next) {
				break
			}
			top--
		}
		end := a + 1
		for end < len(lines) && !stops(end, end+1) {
			end++
		}
		n := 0
		for _, b := range at {
			if b >= top && b < end {
				n++
			}
		}
		if n < 3 {
			continue
		}
		if top > start {
			out = append(out, lines[start:top])
		}
		for _, part := range splitAt(lines[top:end], x) {
			if len(part) > 0 {
				out = append(out, part)
			}
		}
		start = end
	}
	if start == 0 {
		return [][]*textLine{lines}
	}
	if start < len(lines) {
		out = append(out, lines[start:])
	}
	return out
}

// columnEdge is the x where most lines of two prose phrases (four words
// or more each, mostly of letters; not Han) start their second, three
// such lines at least, with a column gap or more between their first
// phrases' widest end and x; and those lines (indexes, top to bottom).
func columnEdge(lines []*textLine, gap float64) (float64, []int, bool) {
	type anchor struct {
		i       int
		x, left float64 // the second phrase's left edge, the first's right
	}
	var as []anchor
	for i, l := range lines {
		if l.nSegments(gap) != 2 || hasHan(l.ws) {
			continue
		}
		segs := l.segments(gap)
		if proseWords(segs[0]) && proseWords(segs[1]) {
			as = append(as, anchor{i, segs[1][0].bb.X0, boxOf(segs[0]).X1})
		}
	}
	best, bestN := 0.0, 0
	for _, a := range as {
		n := 0
		for _, b := range as {
			if math.Abs(a.x-b.x) <= 2 {
				n++
			}
		}
		if n > bestN {
			best, bestN = a.x, n
		}
	}
	if bestN < 3 {
		return 0, nil, false
	}
	lo := math.Inf(-1) // the left column's widest line's end
	var at []int
	for _, a := range as {
		if math.Abs(a.x-best) <= 2 {
			lo = max(lo, a.left)
			at = append(at, a.i)
		}
	}
	return best, at, best-lo >= gap
}

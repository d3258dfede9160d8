package table

import (
	"cmp"
	"math"
	"slices"
)

// A web table's cells are vertically centred in their rows by default
// (CSS vertical-align: middle): a one-line cell stands level with the
// middle of a three-line neighbour, and beside a two-line one it stands
// half a line lower than the neighbour's first line, so the page's lines
// interleave and no line holds a row's first line of every cell. The row
// builders read rows from lines whose cells start at the row's top;
// topAlignCentred puts the cells of such rows there first.
//
// The model is one of cell blocks: a block is words less than a cell's
// padding apart on a line, and the words of the nearest line below that
// share some of their width, at the text's leading; a row is the blocks
// that overlap vertically. A row is vertically centred when it has two
// or more blocks side by side (none sharing width), of heights most of a
// line apart or more, all on one centre (centredRow): then every block is
// moved up to the row's top. Text that is not such a row (a paragraph, a
// label beside one at its first line, blocks that only touch) is left as
// it is. Written here: no layout library models a PDF page's cells.

// centredLeading is the most by which two lines of one block stand
// further apart than the text's leading, in sizes (a cell's padding is
// 1px at least and rows have 2px of border spacing: 3pt or more).
const centredLeading = 0.15

// topAlignCentred moves the words of vertically centred rows' cells up to
// their row's top (see above) and says whether it moved any: the lines
// must then be built again.
func topAlignCentred(lines []*textLine, size, gap float64) bool {
	if !interleaved(lines) {
		return false
	}
	pad := min(gap, gridGap(size))
	var ws []*word
	first := make([]int, len(lines)+1) // lines[i]'s words are ws[first[i]:first[i+1]]
	for i, l := range lines {
		first[i] = len(ws)
		ws = append(ws, l.ws...)
	}
	first[len(lines)] = len(ws)
	// each word and the words of the nearest line below that share some
	// of its width (looking a few lines down: the lines between are
	// other cells' interleaved lines), and how far their tops stand apart
	type link struct {
		a, b  int
		pitch float64
	}
	var links []link
	for i, l := range lines {
		for ai, a := range l.ws {
			for j := i + 1; j < len(lines) && j <= i+4; j++ {
				shared := false
				for m := first[j]; m < first[j+1]; m++ {
					b := ws[m]
					if b.bb.X0 >= a.bb.X1 {
						break
					}
					if b.bb.X1 > a.bb.X0 {
						shared = true
						links = append(links, link{first[i] + ai, m, b.bb.Y0 - a.bb.Y0})
					}
				}
				if shared {
					break
				}
			}
		}
	}
	// the leading: the lower quartile of those pitches that can be one
	// (most pairs are a paragraph's or a cell's lines, the rest rows or
	// paragraphs set apart)
	var pitches []float64
	for _, k := range links {
		if k.pitch >= 0.8*size && k.pitch <= 2*size {
			pitches = append(pitches, k.pitch)
		}
	}
	if len(pitches) == 0 {
		return false
	}
	slices.Sort(pitches)
	leading := pitches[len(pitches)/4]
	// blocks: a phrase's words (a padding splits cells), and the lines
	// under it at the leading (a cell's padding, 1px at least, sets rows
	// further apart)
	u := newUnionFind(len(ws))
	for i, l := range lines {
		for ai := 1; ai < len(l.ws); ai++ {
			if l.ws[ai].bb.X0-l.ws[ai-1].bb.X1 < pad {
				u.join(first[i]+ai-1, first[i]+ai)
			}
		}
	}
	for _, k := range links {
		if k.pitch >= 0.8*leading && k.pitch <= leading+centredLeading*size {
			u.join(k.a, k.b)
		}
	}
	blk, blocks := cellBlocksOf(ws, u)
	numberLines(lines, first, blk, blocks)
	// rows: blocks overlapping vertically; a group that is no centred
	// row may hold rows side by side (two tables, their rows not level):
	// the rows of each side apart by a gutter no block crosses are tried
	shift := make([]float64, len(blocks))
	row := make([]uint16, len(blocks)) // the centred row's number, from 1
	lead := make([]bool, len(blocks))  // a cell moved level with the one left of it: its lines start phrases
	all := make([]int, len(blocks))
	for k := range all {
		all[k] = k
	}
	moved, n := false, 0
	for _, bs := range overlapRows(blocks, all) {
		rs := [][]int{bs}
		if !centredRow(blocks, bs) {
			rs = splitSidesRows(blocks, bs)
		}
		for _, r := range rs {
			if !centredRow(blocks, r) || tallBlocks(blocks, r) >= 3 {
				continue // (three tall blocks or more: columns of rows at the leading beside a group label centred on them, read as they are)
			}
			n++
			moved = levelRow(blocks, r, uint16(n), shift, row, lead) || moved
		}
	}
	if !moved {
		return false
	}
	for k, w := range ws {
		if b := blk[k]; row[b] != 0 {
			w.bb.Y0 += shift[b]
			w.bb.Y1 += shift[b]
			w.crow = row[b]
			// the first word of each of its lines starts a phrase: the
			// cell beside it ends before it, though the gap is a space
			// ("8 x 50 | Delfinbeine" once the cells stand level)
			w.col = w.col || lead[b] && (k == 0 || blk[k-1] != b)
		}
	}
	return true
}

// interleaved: two lines next to each other that share no width stand
// less than 0.8 of a size apart (tops), as the lines of cells centred
// beside cells one line taller do, half a leading (a paragraph's lines
// stand a leading apart): the page can hold centred rows. Rows whose
// cells differ by two lines have no such pair; they are read where some
// row of the page has one.
func interleaved(lines []*textLine) bool {
	for i := 1; i < len(lines); i++ {
		a, b := lines[i-1], lines[i]
		if b.bb.Y0-a.bb.Y0 < 0.8*max(a.size, b.size) && min(a.bb.X1, b.bb.X1) < max(a.bb.X0, b.bb.X0) {
			return true
		}
	}
	return false
}

// cellBlock is a block of topAlignCentred's model: its box and size,
// and whether two lines of it or more are each a number (numRows).
type cellBlock struct {
	x0, x1, y0, y1, sz float64
	numRows            bool
}

// cellBlocksOf is each word's block (the union-find u's sets, numbered
// from 0 in ws's order) and the blocks.
func cellBlocksOf(ws []*word, u unionFind) ([]int, []cellBlock) {
	blk := make([]int, len(ws))
	ids := map[int]int{}
	var blocks []cellBlock
	for k, w := range ws {
		r := u.find(k)
		id, ok := ids[r]
		if !ok {
			id = len(blocks)
			ids[r] = id
			blocks = append(blocks, cellBlock{x0: w.bb.X0, x1: w.bb.X1, y0: w.bb.Y0, y1: w.bb.Y1, sz: w.size})
		}
		blk[k] = id
		b := &blocks[id]
		b.x0, b.x1 = min(b.x0, w.bb.X0), max(b.x1, w.bb.X1)
		b.y0, b.y1 = min(b.y0, w.bb.Y0), max(b.y1, w.bb.Y1)
		b.sz = max(b.sz, w.size)
	}
	return blk, blocks
}

// overlapRows groups the blocks ids by vertical overlap (a quarter of a
// line or more, chained), top to bottom.
func overlapRows(blocks []cellBlock, ids []int) [][]int {
	order := slices.Clone(ids)
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(blocks[a].y0, blocks[b].y0) })
	var rows [][]int
	y1 := math.Inf(-1)
	for _, k := range order {
		b := blocks[k]
		if len(rows) == 0 || min(y1, b.y1)-b.y0 <= 0.25*b.sz {
			rows = append(rows, nil)
			y1 = math.Inf(-1)
		}
		rows[len(rows)-1] = append(rows[len(rows)-1], k)
		y1 = max(y1, b.y1)
	}
	return rows
}

// splitSidesRows: the centred rows of the blocks ids (a group that is no
// centred row, two tables side by side, their rows not level) cut at the
// gutter no block crosses that leaves the most centred rows on its two
// sides, each side's blocks grouped by overlap again, every other group
// of a side level (blocks of one height side by side: a row set as it
// is, or a block alone), and no block of the other side level with a
// centred row (its top and bottom); none when no gutter leaves any.
func splitSidesRows(blocks []cellBlock, ids []int) [][]int {
	order := slices.Clone(ids)
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(blocks[a].x0, blocks[b].x0) })
	var best [][]int
	x1 := math.Inf(-1)
	for i, k := range order {
		if i > 0 && blocks[k].x0 >= x1 {
			var rs [][]int
			ok := true
			sides := [2][]int{order[:i], order[i:]}
			for si, side := range sides {
				for _, r := range overlapRows(blocks, side) {
					switch {
					case centredRow(blocks, r):
						// a block of the other side level with the row
						// says the row goes on across the gutter
						ok = ok && !levelWith(blocks, r, sides[1-si])
						rs = append(rs, r)
					case !levelBlocks(blocks, r):
						ok = false
					}
				}
			}
			if ok && len(rs) > len(best) {
				best = rs
			}
		}
		x1 = max(x1, blocks[k].x1)
	}
	return best
}

// levelRow moves the blocks of the centred row r (numbered n) up to its
// top: their shift, row and lead (see topAlignCentred); it says whether
// any moves.
func levelRow(blocks []cellBlock, r []int, n uint16, shift []float64, row []uint16, lead []bool) bool {
	top := math.Inf(1)
	for _, k := range r {
		top = min(top, blocks[k].y0)
	}
	moved := false
	for _, k := range r {
		shift[k], row[k] = top-blocks[k].y0, n
		moved = moved || shift[k] != 0
	}
	for _, k := range r {
		// the cell left of it (if any) stood at another height: once
		// level, they may stand no more than a space apart
		left := -1
		for _, m := range r {
			if blocks[m].x1 <= blocks[k].x0 && (left < 0 || blocks[m].x1 > blocks[left].x1) {
				left = m
			}
		}
		lead[k] = left >= 0 && math.Abs(shift[left]-shift[k]) > 0.5
	}
	return moved
}

// centredRow: the blocks r stand side by side, none sharing width with
// another, two or more, their heights most of a line apart or more, and
// each centred on the tallest one's centre (centredTol), and none of
// them with lines of numbers (two tables side by side, one centred on
// the other, or a dense table's rows set at the leading: its columns
// are blocks too).
func centredRow(blocks []cellBlock, r []int) bool {
	if len(r) < 2 {
		return false
	}
	tall, hMin, lh := r[0], math.Inf(1), 0.0
	for i, k := range r {
		b := blocks[k]
		for _, m := range r[i+1:] {
			if min(b.x1, blocks[m].x1)-max(b.x0, blocks[m].x0) > 0 {
				return false
			}
		}
		if b.y1-b.y0 > blocks[tall].y1-blocks[tall].y0 {
			tall = k
		}
		hMin = min(hMin, b.y1-b.y0)
		lh = max(lh, b.sz)
	}
	t := blocks[tall]
	if t.y1-t.y0-hMin < 0.8*lh {
		return false
	}
	c := (t.y0 + t.y1) / 2
	for _, k := range r {
		if b := blocks[k]; math.Abs((b.y0+b.y1)/2-c) > centredTol(lh) {
			return false
		}
	}
	for _, k := range r {
		if blocks[k].numRows {
			return false // a column's rows (numbers do not wrap): no cell
		}
	}
	return true
}

// centredRows: two or more of the lines hold cells of vertically centred
// rows (topAlignCentred): the layout of a table, which prose never has.
func centredRows(lines []*textLine) bool {
	var first uint16
	for _, l := range lines {
		for _, w := range l.ws {
			if w.crow == 0 {
				continue
			}
			if first == 0 {
				first = w.crow
			} else if w.crow != first {
				return true
			}
		}
	}
	return false
}

// sameCentredRow: whether line b is in the same table row as line a
// above it, where a row of cells set centred says (known): b in a's
// centred row, or either of them in one and b not in a's.
func sameCentredRow(a, b *textLine) (same, known bool) {
	ra, rb := lineCrow(a), lineCrow(b)
	if ra == 0 && rb == 0 {
		return false, false
	}
	return ra == rb, true
}

// lineCrow is the centred row of l's words (0: none).
func lineCrow(l *textLine) uint16 {
	for _, w := range l.ws {
		if w.crow != 0 {
			return w.crow
		}
	}
	return 0
}

// centredTol is how far apart the centres of two blocks of one centred
// row may be: 0.15 of a line, 1.5pt at least (the browser rounds
// positions to its pixels).
func centredTol(lh float64) float64 { return max(1.5, 0.15*lh) }

// inCentredRow: l is a line of the centred row prev is in (a cell's
// next line).
func inCentredRow(prev, l *textLine) bool {
	same, known := sameCentredRow(prev, l)
	return same && known
}

// centredRowsMeet: run[k-1] is the last line of a centred row and run[k]
// the first of the next, both rows' first lines with their phrases
// starting at the same x's (within 2pt): the gap between is a row gap of
// one table, no cut between two tables stacked (the next table starts
// with lines of its own, or with cells in other columns).
func centredRowsMeet(run []*textLine, k int, gap float64) bool {
	ra, rb := lineCrow(run[k-1]), lineCrow(run[k])
	if ra == 0 || rb == 0 || ra == rb {
		return false
	}
	top := k - 1
	for top > 0 && lineCrow(run[top-1]) == ra {
		top--
	}
	a, b := run[top].segments(gap), run[k].segments(gap)
	if len(a) != len(b) || len(a) < 2 {
		return false
	}
	for i := range a {
		if math.Abs(a[i][0].bb.X0-b[i][0].bb.X0) > 2 {
			return false
		}
	}
	return true
}

// centredSides splits lines at the column gap with a centred row on one
// side and words of no row or another one on the other, in each of two
// lines or more (the most such lines), and no centred row across it: two
// tables side by side, one of them with its cells centred, their rows
// not level. It returns the lines as they are when there is none.
func centredSides(lines []*textLine, cols []span, gap float64) [][]*textLine {
	best, bestN := -1, 1
	for k := 0; k+1 < len(cols); k++ {
		x := (cols[k].b + cols[k+1].a) / 2
		n := 0
		for _, l := range lines {
			left, right := -1, -1 // the side's row (-1: none seen, -2: several)
			across := false
			for _, w := range l.ws {
				side := &left
				if w.cx() >= x {
					side = &right
				}
				switch r := int(w.crow); {
				case *side == -1:
					*side = r
				case *side != r:
					*side = -2
				}
				across = across || w.bb.X0 < x && w.bb.X1 > x
			}
			if across || left >= 0 && left == right && left != 0 {
				n = -1
				break
			}
			if left >= 0 && right >= 0 && left != right {
				n++
			}
		}
		if n > bestN {
			best, bestN = k, n
		}
	}
	if best < 0 {
		return [][]*textLine{lines}
	}
	return splitAt(lines, (cols[best].b+cols[best+1].a)/2)
}

// levelBlocks: the blocks r stand level, their tops and heights within
// centredTol of each other (a row with nothing to move; one block is).
func levelBlocks(blocks []cellBlock, r []int) bool {
	a := blocks[r[0]]
	for _, k := range r[1:] {
		b := blocks[k]
		tol := centredTol(max(a.sz, b.sz))
		if math.Abs(b.y0-a.y0) > tol || math.Abs((b.y1-b.y0)-(a.y1-a.y0)) > tol {
			return false
		}
	}
	return true
}

// tallBlocks counts the blocks of r as tall as its tallest (centredTol).
func tallBlocks(blocks []cellBlock, r []int) int {
	h, lh := 0.0, 0.0
	for _, k := range r {
		h, lh = max(h, blocks[k].y1-blocks[k].y0), max(lh, blocks[k].sz)
	}
	n := 0
	for _, k := range r {
		if h-(blocks[k].y1-blocks[k].y0) <= centredTol(lh) {
			n++
		}
	}
	return n
}

// numberLines sets blocks' numRows: two of its lines or more (its words
// on a line of lines, ws[first[i]:first[i+1]], blk their blocks) are
// each a number (a cell's text does not wrap into numbers: the block is
// a column's rows, under its head, say).
func numberLines(lines []*textLine, first, blk []int, blocks []cellBlock) {
	nNum := make([]int, len(blocks))
	for i, l := range lines {
		for a := 0; a < len(l.ws); {
			b := blk[first[i]+a]
			e := a + 1
			for e < len(l.ws) && blk[first[i]+e] == b {
				e++
			}
			if numericCell(l.ws[a:e]) {
				nNum[b]++
			}
			a = e
		}
	}
	for b := range blocks {
		blocks[b].numRows = nNum[b] >= 2
	}
}

// levelWith: a block of ids has the top and bottom of the blocks r, or
// two blocks of ids or more stand within r's height (centredTol): the
// row goes on across the gutter, or its tallest block is a column of
// rows whose cells beside it are those blocks (a note beside a table,
// centred on one of its columns by chance).
func levelWith(blocks []cellBlock, r, ids []int) bool {
	y0, y1, lh := math.Inf(1), math.Inf(-1), 0.0
	for _, k := range r {
		y0, y1, lh = min(y0, blocks[k].y0), max(y1, blocks[k].y1), max(lh, blocks[k].sz)
	}
	tol := centredTol(lh)
	inside := 0
	for _, k := range ids {
		b := blocks[k]
		if math.Abs(b.y0-y0) <= tol && math.Abs(b.y1-y1) <= tol {
			return true
		}
		if b.y0 >= y0-tol && b.y1 <= y1+tol {
			inside++
		}
	}
	return inside >= 2
}

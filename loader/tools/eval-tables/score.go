package main

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf/table"
)

// cell is one cell of a truth or detected grid; a spanning cell covers
// rows r0..r1 and columns c0..c1.
type cell struct {
	r0, c0, r1, c1 int
	text           string
}

// tally adds up one set's figures.
type tally struct {
	docs                 int
	detGT, detDet, detTP int // detection (IoU >= 0.5)
	nGT                  int // truth tables scored for content
	cellSum              float64
	cellMatched          int
	cellMatchedSum       float64
	adjHit, adjDet       int
	adjGT                int
	rowsHit, rowsGT      int // truth rows found whole as a detected row
	dupChars, tableChars int
	// tables continued from the page before (generated set): truth parts
	// carrying on a part, links detected (Table.Continues), links right
	// (both parts matched to the truth's two parts)
	contGT, contDet, contHit int
	// classes: -v's cell-content losses by class (classify)
	classes map[string]*errClass
	// rowLosses: -v's row losses of matched tables by cause (rowCauses)
	rowLosses rowTally
}

// class counts one truth table's loss under class c ("" = none).
func (t *tally) class(c string, loss float64) {
	if c == "" {
		return
	}
	e := t.entry(c)
	e.n++
	e.loss += loss
}

// entry is class c's count, made when missing.
func (t *tally) entry(c string) *errClass {
	if t.classes == nil {
		t.classes = map[string]*errClass{}
	}
	if t.classes[c] == nil {
		t.classes[c] = &errClass{}
	}
	return t.classes[c]
}

// continued scores the links of continued tables: truth table i carries
// on truth i-1 when it lies on the next page (a generated page holds at
// most one table running on); match is scoreTables' result.
func (t *tally) continued(gts []gtTable, dets []document.Table, match []int) {
	of := make(map[int]int, len(match)) // detected -> truth
	for gi, d := range match {
		if d >= 0 {
			of[d] = gi
		}
	}
	for i := 1; i < len(gts); i++ {
		if gts[i].page == gts[i-1].page+1 {
			t.contGT++
		}
	}
	for _, d := range dets {
		if !d.Continues {
			continue
		}
		t.contDet++
		gi, ok := of[d.Seq]
		gp, okp := of[d.Seq-1]
		if ok && okp && gi > 0 && gp == gi-1 && gts[gi].page == gts[gp].page+1 {
			t.contHit++
		}
	}
}

// pair scores one truth grid against its matched detected table (nil
// when none matched) into the tally; it returns the cell score.
func (t *tally) pair(gt []cell, d *document.Table) float64 {
	t.nGT++
	gRel := relations(gt)
	t.adjGT += len(gRel)
	gtGrid := cellGrid(gt)
	for _, r := range gtGrid {
		if rowKey(r) != "" {
			t.rowsGT++
		}
	}
	if d == nil {
		return 0
	}
	det := rowsOf(*d)
	s := cellScore(gtGrid, det)
	t.cellSum += s
	t.cellMatchedSum += s
	t.cellMatched++
	dRel := relations(tableCells(*d))
	t.adjDet += len(dRel)
	for k := range dRel {
		if gRel[k] {
			t.adjHit++
		}
	}
	have := map[string]int{}
	for _, r := range det {
		have[rowKey(r)]++
	}
	for _, r := range gtGrid {
		if k := rowKey(r); k != "" && have[k] > 0 {
			have[k]--
			t.rowsHit++
		}
	}
	return s
}

// add adds o's counts to t.
func (t *tally) add(o tally) {
	t.docs += o.docs
	t.detGT, t.detDet, t.detTP = t.detGT+o.detGT, t.detDet+o.detDet, t.detTP+o.detTP
	t.nGT, t.cellSum = t.nGT+o.nGT, t.cellSum+o.cellSum
	t.cellMatched, t.cellMatchedSum = t.cellMatched+o.cellMatched, t.cellMatchedSum+o.cellMatchedSum
	t.adjHit, t.adjDet, t.adjGT = t.adjHit+o.adjHit, t.adjDet+o.adjDet, t.adjGT+o.adjGT
	t.rowsHit, t.rowsGT = t.rowsHit+o.rowsHit, t.rowsGT+o.rowsGT
	t.dupChars, t.tableChars = t.dupChars+o.dupChars, t.tableChars+o.tableChars
	t.contGT, t.contDet, t.contHit = t.contGT+o.contGT, t.contDet+o.contDet, t.contHit+o.contHit
	for k, n := range o.rowLosses.n {
		if t.rowLosses.n == nil {
			t.rowLosses.n, t.rowLosses.loss = map[string]int{}, map[string]float64{}
		}
		t.rowLosses.n[k] += n
		t.rowLosses.loss[k] += o.rowLosses.loss[k]
	}
	for c, v := range o.classes {
		e := t.entry(c)
		e.n += v.n
		e.loss += v.loss
	}
}

// unmatched counts a detected table that matched no truth table in
// adjacency precision.
func (t *tally) unmatched(d document.Table) { t.adjDet += len(relations(tableCells(d))) }

func (t *tally) print(name, status string, rows bool) {
	fmt.Printf("%s  [%s]\n", name, status)
	if t.detGT > 0 {
		p, r := ratio(t.detTP, t.detDet), ratio(t.detTP, t.detGT)
		fmt.Printf("  table detection  P %.3f  R %.3f  F1 %.3f   (%d truth tables, %d detected, %d matched at IoU >= 0.5)\n",
			p, r, f1(p, r), t.detGT, t.detDet, t.detTP)
	}
	fmt.Printf("  cell content     %.3f over all %d truth tables (missed = 0); %.3f over the %d matched\n",
		t.cellSum/math.Max(1, float64(t.nGT)), t.nGT, t.cellMatchedSum/math.Max(1, float64(t.cellMatched)), t.cellMatched)
	ap, ar := ratio(t.adjHit, t.adjDet), ratio(t.adjHit, t.adjGT)
	fmt.Printf("  adjacency rel.   P %.3f  R %.3f  F1 %.3f\n", ap, ar, f1(ap, ar))
	if rows {
		fmt.Printf("  row agreement    %.3f (%d of %d truth rows found whole)\n", ratio(t.rowsHit, t.rowsGT), t.rowsHit, t.rowsGT)
	}
	if t.contGT > 0 || t.contDet > 0 {
		cp, cr := ratio(t.contHit, t.contDet), ratio(t.contHit, t.contGT)
		fmt.Printf("  continued tables P %.3f  R %.3f  F1 %.3f   (%d truth parts carrying on a part, %d marked, %d right)\n",
			cp, cr, f1(cp, cr), t.contGT, t.contDet, t.contHit)
	}
	if len(t.classes) > 0 {
		printClasses(t.classes)
	}
	t.rowLosses.print("matched tables'")
	if t.tableChars > 0 {
		fmt.Printf("  non-table elements overlapping a table box by > 20%%: %d bytes of text (table elements: %d bytes)\n", t.dupChars, t.tableChars)
	}
}

// rowKey is a row's non-empty cells, normalized, in order.
func rowKey(r []string) string {
	var parts []string
	for _, c := range r {
		if c = norm(c); c != "" {
			parts = append(parts, c)
		}
	}
	return strings.Join(parts, "\x00")
}

func fmtBox(b document.BBox) string {
	return fmt.Sprintf("[%.0f %.0f %.0f %.0f]", b.X0, b.Y0, b.X1, b.Y1)
}

// overlapShare is the share of a's area inside b.
func overlapShare(a, b document.BBox) float64 {
	w := math.Min(a.X1, b.X1) - math.Max(a.X0, b.X0)
	h := math.Min(a.Y1, b.Y1) - math.Max(a.Y0, b.Y0)
	area := (a.X1 - a.X0) * (a.Y1 - a.Y0)
	if w <= 0 || h <= 0 || area <= 0 {
		return 0
	}
	return w * h / area
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func f1(p, r float64) float64 {
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

// norm is a cell's text with its white space folded to single spaces, and
// none between two characters of Chinese or Japanese text (a wrapped
// line's break, which an expectation may keep as a space or a line feed).
func norm(s string) string {
	f := strings.Fields(s)
	var b strings.Builder
	for i, w := range f {
		if i > 0 {
			r, _ := utf8.DecodeLastRuneInString(f[i-1])
			s, _ := utf8.DecodeRuneInString(w)
			if !table.UnspacedRune(r) || !table.UnspacedRune(s) {
				b.WriteByte(' ')
			}
		}
		b.WriteString(w)
	}
	return b.String()
}

func iou(a, b document.BBox) float64 {
	w := math.Min(a.X1, b.X1) - math.Max(a.X0, b.X0)
	h := math.Min(a.Y1, b.Y1) - math.Max(a.Y0, b.Y0)
	if w <= 0 || h <= 0 {
		return 0
	}
	in := w * h
	ua := (a.X1-a.X0)*(a.Y1-a.Y0) + (b.X1-b.X0)*(b.Y1-b.Y0) - in
	return in / ua
}

// greedy pairs truth i with candidate j, best score first, one to one,
// among pairs whose score is at least floor; result[i] is j or -1.
func greedy(nT, nD int, score func(i, j int) float64, floor float64) []int {
	type pr struct {
		g, d int
		v    float64
	}
	var ps []pr
	for i := 0; i < nT; i++ {
		for j := 0; j < nD; j++ {
			if v := score(i, j); v >= floor {
				ps = append(ps, pr{i, j, v})
			}
		}
	}
	sort.SliceStable(ps, func(a, b int) bool { return ps[a].v > ps[b].v })
	out := make([]int, nT)
	for i := range out {
		out[i] = -1
	}
	used := map[int]bool{}
	for _, p := range ps {
		if out[p.g] < 0 && !used[p.d] {
			out[p.g] = p.d
			used[p.d] = true
		}
	}
	return out
}

// cellGrid is cells as rows of text, spanning cells at their top-left
// position.
func cellGrid(cells []cell) [][]string {
	nr, nc := 0, 0
	for _, c := range cells {
		nr = max(nr, c.r1+1)
		nc = max(nc, c.c1+1)
	}
	rows := make([][]string, nr)
	for i := range rows {
		rows[i] = make([]string, nc)
	}
	for _, c := range cells {
		rows[c.r0][c.c0] = c.text
	}
	return rows
}

func rowsOf(t document.Table) [][]string {
	var rows [][]string
	if len(t.Header) > 0 {
		rows = append(rows, t.Header)
	}
	return append(rows, t.Rows...)
}

func ncols(rows [][]string) int {
	n := 0
	for _, r := range rows {
		n = max(n, len(r))
	}
	return n
}

// tableCells are a detected table's cells, its spanning cells covering
// their span (the positions they cover are no cells of their own).
func tableCells(t document.Table) []cell {
	rows := rowsOf(t)
	covered := map[[2]int]bool{}
	span := map[[2]int]document.CellSpan{}
	for _, s := range t.Spans {
		span[[2]int{s.Row, s.Col}] = s
		for i := s.Row; i < s.Row+s.Rows; i++ {
			for j := s.Col; j < s.Col+s.Cols; j++ {
				covered[[2]int{i, j}] = true
			}
		}
	}
	var out []cell
	for i, r := range rows {
		for j, c := range r {
			k := [2]int{i, j}
			if s, ok := span[k]; ok {
				out = append(out, cell{i, j, i + s.Rows - 1, j + s.Cols - 1, norm(c)})
			} else if !covered[k] {
				out = append(out, cell{i, j, i, j, norm(c)})
			}
		}
	}
	return out
}

func gridCells(rows [][]string) []cell {
	var out []cell
	for i, r := range rows {
		for j, c := range r {
			out = append(out, cell{i, j, i, j, norm(c)})
		}
	}
	return out
}

// cellScore compares row-major cell texts by edit-distance ratio, times
// the row and column count agreement.
func cellScore(gt, det [][]string) float64 {
	flat := func(rows [][]string) []rune {
		var parts []string
		for _, r := range rows {
			for _, c := range r {
				if c = norm(c); c != "" {
					parts = append(parts, c)
				}
			}
		}
		return []rune(strings.Join(parts, "|"))
	}
	a, b := flat(gt), flat(det)
	n := max(len(a), len(b))
	if n == 0 {
		return 1
	}
	sim := 1 - float64(levenshtein(a, b))/float64(n)
	rr := countRatio(len(gt), len(det))
	cr := countRatio(ncols(gt), ncols(det))
	return sim * rr * cr
}

func countRatio(a, b int) float64 {
	if a == 0 && b == 0 {
		return 1
	}
	return float64(min(a, b)) / float64(max(a, b))
}

func levenshtein(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			c = min(c, prev[j]+1, cur[j-1]+1)
			cur[j] = c
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// relations: each non-empty cell with its nearest non-empty neighbour to
// the right (over every row it spans) and below (over every column).
func relations(cells []cell) map[string]bool {
	nr, nc := 0, 0
	for _, c := range cells {
		nr = max(nr, c.r1+1)
		nc = max(nc, c.c1+1)
	}
	at := make([][]int, nr)
	for i := range at {
		at[i] = make([]int, nc)
		for j := range at[i] {
			at[i][j] = -1
		}
	}
	for k, c := range cells {
		if c.text == "" {
			continue
		}
		for i := c.r0; i <= c.r1 && i < nr; i++ {
			for j := c.c0; j <= c.c1 && j < nc; j++ {
				at[i][j] = k
			}
		}
	}
	out := map[string]bool{}
	for k, c := range cells {
		if c.text == "" {
			continue
		}
		for i := c.r0; i <= c.r1; i++ {
			for j := c.c1 + 1; j < nc; j++ {
				if o := at[i][j]; o >= 0 && o != k {
					out[c.text+"\x00"+cells[o].text+"\x00R"] = true
					break
				}
			}
		}
		for j := c.c0; j <= c.c1; j++ {
			for i := c.r1 + 1; i < nr; i++ {
				if o := at[i][j]; o >= 0 && o != k {
					out[c.text+"\x00"+cells[o].text+"\x00D"] = true
					break
				}
			}
		}
	}
	return out
}

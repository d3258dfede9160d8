package table

import (
	"math"
	"sort"

	"github.com/docket-dev/docket/loader/internal/document"
)

// A table drawn with horizontal rules only, one between every two rows
// (no column rules, so no grid): the rules of one extent, stacked, with
// text between each two of them that stays inside the extent. Its rows
// are the bands between the rules, so a cell that wraps over several
// lines stays one cell, and its columns come from the text's gaps. Text
// only tables are common in this style, so no numbers are needed: the
// rules are the evidence.

// stack is a run of horizontal rules of one extent, top to bottom.
type stack struct {
	a, b float64 // extent
	rs   []rule
}

// ruleStacks groups the page's horizontal rules by extent (ends within
// 3pt), at least minLen long, top to bottom.
func ruleStacks(hs []rule, minLen float64) []stack {
	sorted := append([]rule(nil), hs...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].pos < sorted[j].pos })
	var out []stack
	for _, h := range sorted {
		if h.b-h.a < minLen {
			continue
		}
		found := false
		for k := range out {
			if s := &out[k]; math.Abs(s.a-h.a) <= 3 && math.Abs(s.b-h.b) <= 3 {
				s.rs = append(s.rs, h)
				found = true
				break
			}
		}
		if !found {
			out = append(out, stack{a: h.a, b: h.b, rs: []rule{h}})
		}
	}
	return out
}

// stacked finds tables of rule stacks among the words no other table
// took: at least three bands of text (the lines just above the first rule,
// a header set over it, count as one), each band's words inside the
// extent, one row per band, two or more columns, and cells that are not
// running text.
func (d *Detector) stacked(all []*word, hs, vs []rule) []document.Table {
	if len(hs) == 0 {
		return nil // no rule, no stack (ruleStacks): skip the words' median
	}
	ws := freeWords(all, nil)
	if len(ws) < 6 {
		return nil
	}
	size := medianSize(ws)
	var out []document.Table
	// six sizes long at least: a zebra table of two short columns
	// ("106.6 | kΩ") is shaded about seven and a half sizes wide
	for _, s := range ruleStacks(hs, 6*size) {
		for _, chain := range s.chains(ws) {
			if t, ok := d.stackTable(s, chain, ws, vs, size); ok {
				out = append(out, t)
			}
		}
	}
	return out
}

// chains cuts a stack's rules into runs whose bands all hold text inside
// the extent: a band that is empty, or whose text crosses the extent's
// ends (a paragraph wider than the rules), ends a run.
func (s stack) chains(ws []*word) [][]rule {
	var out [][]rule
	cur := []rule{s.rs[0]}
	for k := 1; k < len(s.rs); k++ {
		y0, y1 := s.rs[k-1].pos, s.rs[k].pos
		n, ok := 0, true
		for _, w := range ws {
			if cy := w.cy(); cy <= y0 || cy >= y1 || w.bb.X1 < s.a || w.bb.X0 > s.b {
				continue
			}
			if w.bb.X0 < s.a-2 || w.bb.X1 > s.b+2 {
				ok = false
				break
			}
			n++
		}
		if n == 0 || !ok {
			if len(cur) >= 2 {
				out = append(out, cur)
			}
			cur = nil
		}
		cur = append(cur, s.rs[k])
	}
	if len(cur) >= 2 {
		out = append(out, cur)
	}
	return out
}

// stackTable reads one chain of rules (and a header just above its first
// rule) as a table, if the text there makes one.
func (d *Detector) stackTable(s stack, chain []rule, ws []*word, vs []rule, size float64) (document.Table, bool) {
	top, bottom := chain[0].pos, chain[len(chain)-1].pos
	bands := len(chain) - 1
	// a last row's cells a padding apart are phrases (the grid's gap)
	pad := min(phraseGap(size), gridGap(size))
	if lim, n := headAbove(s, top, ws, size); n > 0 {
		top = lim - 0.5
		bands++
	}
	if y1, ok := lastRowUnder(s, bottom, ws, size, pad, (bottom-chain[0].pos)/float64(len(chain)-1)); ok {
		bottom = y1
		bands++
	}
	if bands < 3 {
		return document.Table{}, false
	}
	box := document.BBox{X0: s.a, Y0: top, X1: s.b, Y1: bottom}
	in := freeWords(ws, &box)
	if len(in) == 0 {
		return document.Table{}, false
	}
	l := buildGrid(box, in, chain, vs)
	if len(l.rows) != bands {
		// a band of several rows: rules around groups or sections (a
		// booktabs table is the unruled reader's), not between rows
		return document.Table{}, false
	}
	l = trimNotes(prune(l))
	rows := l.rows
	if !plausible(rows, max(d.MinRows, 3)) {
		return document.Table{}, false
	}
	multiRows, cells, chars := fillStats(rows)
	if multiRows < 2 || chars > 40*cells {
		return document.Table{}, false
	}
	for _, w := range in {
		w.used = true
	}
	return finish(l, box), true
}

// headAbove: the header lines just above a table's first rule at top:
// inside the extent s, close to the rule and to each other, up to three
// (a row whose cells wrap, wrappedRowAbove, counts as its lines), the
// line nearest the rule of two phrases or more, in the table's size,
// not a paragraph's line cut at the extent (runsOut). The top of the
// highest, and how many lines there are (0: no header there).
func headAbove(s stack, top float64, ws []*word, size float64) (float64, int) {
	var above []*word
	for _, w := range ws {
		if w.cy() < top && w.cy() > top-5*size && w.bb.X1 > s.a && w.bb.X0 < s.b {
			above = append(above, w)
		}
	}
	ls := lineUp(above)
	lim, n := top, 0
	if r := wrappedRowAbove(ls, top, s, size); r > 0 {
		lim, n = ls[len(ls)-r].bb.Y0, r
	}
	for k := len(ls) - 1; k >= 0 && n < 3; k-- {
		l := ls[k]
		gap := lim - l.bb.Y1
		if l.bb.X0 < s.a-2 || l.bb.X1 > s.b+2 || runsOut(l, ws, size) || gap > 1.2*l.size || gap < -0.5*l.size ||
			math.Abs(l.size-size) > 0.1*size || n == 0 && l.nSegments(phraseGap(size)) < 2 {
			break // not the table's header: a heading over it, or a caption
		}
		lim = l.bb.Y0
		n++
	}
	return lim, n
}

// lastRowUnder: the table's last row is under its last rule (rules
// between rows and none under the table, as a style of rules above every
// row but the first draws them): one line just under the rule, nearer
// than a band's height (pitch), inside the extent, in the table's size,
// of two phrases or more, and the line under it (if any) outside the
// extent or farther away than the row's own gap. Its bottom, and whether
// there is one.
func lastRowUnder(s stack, bottom float64, ws []*word, size, pad, pitch float64) (float64, bool) {
	var below []*word
	for _, w := range ws {
		if w.cy() > bottom && w.cy() < bottom+3*pitch {
			below = append(below, w)
		}
	}
	ls := lineUp(below)
	if len(ls) == 0 {
		return 0, false
	}
	l, ok := partIn(ls[0], s.a-2, s.b+2, 2*pad)
	if !ok || l == nil {
		return 0, false
	}
	gap := l.bb.Y0 - bottom
	if gap < -0.5 || l.bb.Y1-bottom > pitch || math.Abs(l.size-size) > 0.1*size || l.nSegments(pad) < 2 {
		return 0, false
	}
	y1, k := wrappedUnder(s, ls, l, bottom, size, pad, pitch)
	if k < len(ls) {
		if n, ok := partIn(ls[k], s.a-2, s.b+2, 2*pad); ok && n != nil && n.bb.Y0-y1 <= gap+1 {
			return 0, false // more lines under it inside the extent: not one last row
		}
	}
	return y1 + 0.5, true
}

// partIn is the part of l between a and b (its words there, lined up),
// nil when it has none, when the words outside stand at least gutter
// apart from them (a column of text or a table beside: on a page of two
// columns a last row shares its line with the other column's); ok false
// when a word crosses a or b or stands closer than gutter outside (one
// line running past the extent).
func partIn(l *textLine, a, b, gutter float64) (*textLine, bool) {
	var in []*word
	for _, w := range l.ws {
		switch {
		case w.bb.X0 >= a && w.bb.X1 <= b:
			in = append(in, w)
		case w.bb.X1 <= a-gutter || w.bb.X0 >= b+gutter:
		default:
			return nil, false
		}
	}
	if len(in) == 0 {
		return nil, true
	}
	if len(in) == len(l.ws) {
		return l, true
	}
	return lineUp(in)[0], true
}

// runsOut: line l, made of the words inside a stack's extent, goes on
// outside it: a word of ws on its line stands less than a phrase gap
// past either end (a paragraph's line cut at the extent, not a head).
func runsOut(l *textLine, ws []*word, size float64) bool {
	g := phraseGap(size)
	for _, w := range ws {
		if w.cy() < l.bb.Y0 || w.cy() > l.bb.Y1 {
			continue
		}
		if d := w.bb.X0 - l.bb.X1; d >= 0 && d < g {
			return true
		}
		if d := l.bb.X0 - w.bb.X1; d >= 0 && d < g {
			return true
		}
	}
	return false
}

package main

import (
	"fmt"
	"sort"
	"strings"
)

// rowLoss is one truth row of a matched table not found whole as a
// detected row (or one detected row holding no truth text), with what
// became of it.
type rowLoss struct {
	cause string // rowCause's words
	edge  string // where the truth row stands (rowCauses), a foreign row "top", "bottom" or "inner"
}

// rowCauses sorts a matched table's row losses by cause, from the words of
// its rows alone: for each truth row not found whole, where its words went
// among the detected rows (-v's row-loss table). gt is the truth grid (a
// spanning cell's text in its first row and column), det the detected rows.
//
//   - rows merged: a detected row holds most of this truth row's words and
//     most of another's;
//   - cell split into rows: its words are the main part of two detected rows
//     or more, none holding another truth row (a multi-line cell read as
//     several rows);
//   - row lost: none of its words is in a detected row near it;
//   - cells differ: one detected row holds it and nothing of another truth
//     row, its cells parted otherwise (columns, or text added or lost);
//   - foreign row: a detected row none of whose words is truth text near it
//     (a paragraph line taken in).
//
// A truth row with a spanning cell (or under one spanning rows) is counted
// under its cause with ", span" added. Where: "head" (the truth's first
// row and the rows under it with a blank first cell), "first" (the first
// row after those), "last" or "inner"; a foreign row "top", "bottom" or
// "inner".
func rowCauses(cells []cell, det [][]string) []rowLoss {
	gt := cellGrid(cells)
	tok := func(r []string) []string {
		var out []string
		for _, c := range r {
			out = append(out, strings.Fields(strings.ToLower(norm(c)))...)
		}
		return out
	}
	gtok := make([][]string, len(gt))
	for i, r := range gt {
		gtok[i] = tok(r)
	}
	dtok := make([][]string, len(det))
	for j, r := range det {
		dtok[j] = tok(r)
	}
	win := 3 + max(len(gt)-len(det), len(det)-len(gt))
	near := func(i, j int) bool { return j >= i-win && j <= i+win }
	w := func(i, j int) int { // words rows i and j share (multiset)
		have := map[string]int{}
		for _, t := range dtok[j] {
			have[t]++
		}
		n := 0
		for _, t := range gtok[i] {
			if have[t] > 0 {
				have[t]--
				n++
			}
		}
		return n
	}
	holds := func(j, i int) bool { // detected row j holds most of truth row i
		return len(gtok[i]) > 0 && near(i, j) && float64(w(i, j)) >= 0.6*float64(len(gtok[i]))
	}
	pieceOf := func(j, i int) bool { // detected row j is mostly truth row i's words
		n := w(i, j)
		return n > 0 && near(i, j) && float64(n) >= 0.6*float64(len(dtok[j]))
	}
	spanned := spannedRows(cells)
	have := map[string]int{}
	for _, r := range det {
		have[rowKey(r)]++
	}
	last := -1
	for i, r := range gt {
		if rowKey(r) != "" {
			last = i
		}
	}
	// the head rows: the first, and those under it with a blank stub
	heads := 1
	for heads < len(gt) && len(gt[heads]) > 0 && gt[heads][0] == "" {
		heads++
	}
	var out []rowLoss
	for i, r := range gt {
		k := rowKey(r)
		if k == "" {
			continue
		}
		if have[k] > 0 {
			have[k]--
			continue
		}
		edge := "inner"
		switch {
		case i < heads:
			edge = "head"
		case i == heads:
			edge = "first"
		case i == last:
			edge = "last"
		}
		var holders, pieces []int
		merged := false
		seen := false
		for j := range det {
			if !near(i, j) {
				continue
			}
			if w(i, j) > 0 {
				seen = true
			}
			if holds(j, i) {
				holders = append(holders, j)
				for o := range gt {
					if o != i && holds(j, o) {
						merged = true
					}
				}
			}
			if pieceOf(j, i) && !holds(j, i) {
				pieces = append(pieces, j)
			}
		}
		var c string
		switch {
		case merged:
			c = "rows merged"
		case len(holders)+len(pieces) >= 2 || len(holders) == 0 && len(pieces) == 1 && seen && splitLeft(i, pieces, gtok, dtok, w):
			c = "cell split into rows"
		case !seen:
			c = "row lost"
		case len(holders) == 1:
			c = "cells differ"
		default:
			c = "row scattered"
		}
		if spanned[i] {
			c += ", span"
		}
		out = append(out, rowLoss{c, edge})
	}
	for j := range det {
		if len(dtok[j]) == 0 {
			continue
		}
		foreign := true
		for i := range gt {
			if near(i, j) && w(i, j) > 0 {
				foreign = false
				break
			}
		}
		if foreign {
			edge := "inner"
			switch j {
			case 0:
				edge = "top"
			case len(det) - 1:
				edge = "bottom"
			}
			out = append(out, rowLoss{"foreign row", edge})
		}
	}
	return out
}

// splitLeft: truth row i's words are one detected row's main part, and the
// rest of them is in other detected rows (a split row whose second part
// holds other words too).
func splitLeft(i int, pieces []int, gtok, dtok [][]string, w func(i, j int) int) bool {
	n := 0
	for j := range dtok {
		n += w(i, j)
	}
	return n > w(i, pieces[0])
}

// spannedRows: the truth rows with a cell spanning rows or columns in
// them, or a cell spanning rows over them (cellGrid leaves a spanning
// cell's text in its first row and column only).
func spannedRows(cells []cell) map[int]bool {
	out := map[int]bool{}
	for _, c := range cells {
		if (c.r1 > c.r0 || c.c1 > c.c0) && c.text != "" {
			for r := c.r0; r <= c.r1; r++ {
				out[r] = true
			}
		}
	}
	return out
}

// rowTally adds up row losses by cause and edge: truth rows, and the cell
// content they cost (a table's loss shared out over its lost rows).
type rowTally struct {
	n    map[string]int
	loss map[string]float64
}

func (t *rowTally) add(ls []rowLoss, tableLoss float64) {
	if len(ls) == 0 {
		return
	}
	if t.n == nil {
		t.n, t.loss = map[string]int{}, map[string]float64{}
	}
	for _, l := range ls {
		k := l.cause + " (" + l.edge + ")"
		t.n[k]++
		t.loss[k] += tableLoss / float64(len(ls))
	}
}

func (t *rowTally) print(name string) {
	if len(t.n) == 0 {
		return
	}
	var ks []string
	total := 0.0
	for k := range t.n {
		ks = append(ks, k)
		total += t.loss[k]
	}
	sort.Slice(ks, func(a, b int) bool {
		return t.loss[ks[a]] > t.loss[ks[b]] || t.loss[ks[a]] == t.loss[ks[b]] && ks[a] < ks[b]
	})
	fmt.Printf("  %s row losses by cause (%.2f cell content in all):\n", name, total)
	for _, k := range ks {
		fmt.Printf("    %-44s %4d rows, loss %6.2f\n", k, t.n[k], t.loss[k])
	}
}

package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
)

// errClass is one kind of cell-content loss: how many truth tables had
// it and the cell content it cost them (1 - their cell score).
type errClass struct {
	n    int
	loss float64
}

// classify names what went wrong with truth table g (its match d, nil
// when it matched none; s its cell score), looking only at the tables'
// texts and shapes: for -v's error classes (tune split documents only).
func classify(g gtTable, d *document.Table, s float64, gts []gtTable, dets []document.Table) string {
	gt := cellGrid(g.cells)
	var all []string
	for _, c := range g.cells {
		all = append(all, c.text)
	}
	flat := strings.Join(all, "\x00")
	foreign := func(r []string) bool { // a row none of whose cells is truth text
		for _, c := range r {
			if c = norm(c); c != "" && strings.Contains(flat, c) {
				return false
			}
		}
		return true
	}
	if d == nil {
		for _, dd := range dets {
			if dd.Page != g.page || overlapShare(g.bb, dd.BBox) < 0.5 {
				continue
			}
			for _, o := range gts {
				if o.page == g.page && o.bb != g.bb && overlapShare(o.bb, dd.BBox) > 0.5 {
					return "missed: two stacked tables merged"
				}
			}
			for _, r := range rowsOf(dd) {
				if foreign(r) {
					return "missed: paragraph lines taken in (box off)"
				}
			}
			return "missed: box off"
		}
		for _, dd := range dets {
			if dd.Page == g.page && overlapShare(dd.BBox, g.bb) > 0.5 {
				return "missed: found in part"
			}
		}
		return "missed: not found"
	}
	if s >= 0.9999 {
		return ""
	}
	det := rowsOf(*d)
	switch {
	case len(det) > 0 && foreign(det[0]):
		return "paragraph line taken in as first row"
	case len(det) > 0 && foreign(det[len(det)-1]):
		return "paragraph line taken in as last row"
	}
	var dt []string
	for _, r := range det {
		for _, c := range r {
			if c = norm(c); c != "" {
				dt = append(dt, c)
			}
		}
	}
	dflat := strings.Join(dt, " ")
	lost := false
	for _, c := range all {
		if !strings.Contains(dflat, c) && !strings.Contains(strings.ReplaceAll(dflat, " ", ""), strings.ReplaceAll(c, " ", "")) {
			lost = true
		}
	}
	switch {
	case len(det) > len(gt) && ncols(det) == ncols(gt):
		return "more rows: a multi-line cell split into rows"
	case len(det) > len(gt):
		return "more rows and other columns"
	case len(det) < len(gt) && lost:
		return "fewer rows: a row lost"
	case len(det) < len(gt):
		return "fewer rows: rows merged"
	case ncols(det) < ncols(gt):
		return "columns merged"
	case ncols(det) > ncols(gt):
		return "columns split"
	case lost:
		return "same shape, text lost"
	}
	return "same shape, text moved"
}

// printClasses prints the error classes, most costly first.
func printClasses(m map[string]*errClass) {
	type kv struct {
		k string
		v *errClass
	}
	var xs []kv
	total := 0.0
	for k, v := range m {
		xs = append(xs, kv{k, v})
		total += v.loss
	}
	sort.Slice(xs, func(a, b int) bool {
		return xs[a].v.loss > xs[b].v.loss || xs[a].v.loss == xs[b].v.loss && xs[a].k < xs[b].k
	})
	fmt.Printf("  cell-content losses by class (%.2f in all, in truth tables' cell scores):\n", total)
	for _, x := range xs {
		fmt.Printf("    %-50s %3d tables, loss %6.2f\n", x.k, x.v.n, x.v.loss)
	}
}

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
		return boxClass(g, gts, dets)
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

// boxClass names why truth table g matched no detected table at IoU 0.5:
// not found; merged (a detected table holding most of it and more: with
// another truth table, or with text above or below it, or else beside
// it); split
// (two or more detected tables each mostly inside it); found in part (one
// such table); or a box off some other way.
func boxClass(g gtTable, gts []gtTable, dets []document.Table) string {
	const tol = 3 // points past the truth's edge that count as more
	var inside []document.Table
	for _, dd := range dets {
		if dd.Page != g.page || overlapShare(g.bb, dd.BBox) <= 0 && overlapShare(dd.BBox, g.bb) <= 0 {
			continue
		}
		if overlapShare(g.bb, dd.BBox) >= 0.5 {
			for _, o := range gts {
				if o.page == g.page && o.bb != g.bb && overlapShare(o.bb, dd.BBox) > 0.5 {
					return "missed: merged with another table"
				}
			}
			var where []string
			if dd.BBox.Y0 < g.bb.Y0-tol {
				where = append(where, "above")
			}
			if dd.BBox.Y1 > g.bb.Y1+tol {
				where = append(where, "below")
			}
			if len(where) == 0 && (dd.BBox.X0 < g.bb.X0-tol || dd.BBox.X1 > g.bb.X1+tol) {
				where = append(where, "beside")
			}
			if len(where) > 0 {
				return "missed: merged with text " + strings.Join(where, "+")
			}
		}
		if overlapShare(dd.BBox, g.bb) > 0.5 {
			inside = append(inside, dd)
		}
	}
	switch {
	case len(inside) > 1:
		return "missed: split"
	case len(inside) == 1:
		return "missed: found in part"
	}
	for _, dd := range dets {
		if dd.Page == g.page && overlapShare(g.bb, dd.BBox) > 0 {
			return "missed: box off"
		}
	}
	return "missed: not found"
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

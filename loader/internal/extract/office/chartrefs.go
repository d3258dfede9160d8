package office

import (
	"context"
	"sort"
	"strings"

	"github.com/xuri/excelize/v2"
)

// maxChartCells bounds what a document's charts land, all together
// (office/29; it bounded each chart, and one chart part named by 100
// relationships of a slide landed 101 times: 10M cells, 7.8 GB; 10
// excelize charts over a 100000-row sheet's columns 2M cells; review44):
// the cells their series' references read from a workbook (identical
// references read once a chart), the values they give the series, and
// their tables' rows x columns. Before office/24 a scatter chart's table had a
// row for every index up to the largest (a 3.8 KB slide of 200 series,
// one point each at idx 99999: 40 million cells, 1.8 GB), and each
// reference read up to 100000 cells for each series (200 series naming
// A1:A100000: 32 s, 4 GB; review42).
var maxChartCells = 250000 // a var for tests only

// resolver reads cell range references ("Sheet1!$A$2:$A$4") of the
// workbook a chart belongs to: each one's values, row by row, at most
// budget values in all and perRef a reference (clipped says some were
// left out). nil where there is none.
type resolver func(ctx context.Context, refs []string, budget, perRef int) (vals map[string][]string, clipped bool, err error)

// cellRef is one parsed range reference, 1-based and inclusive.
type cellRef struct {
	ref            string
	sheet          string
	c0, r0, c1, r1 int
}

func parseCellRef(ref string) (cellRef, bool) {
	k := strings.LastIndexByte(ref, '!')
	if k <= 0 {
		return cellRef{}, false
	}
	sheet := ref[:k]
	if len(sheet) >= 2 && sheet[0] == '\'' && sheet[len(sheet)-1] == '\'' {
		sheet = strings.ReplaceAll(sheet[1:len(sheet)-1], "''", "'")
	}
	from, to, _ := strings.Cut(strings.ReplaceAll(ref[k+1:], "$", ""), ":")
	if to == "" {
		to = from
	}
	c0, r0, err1 := excelize.CellNameToCoordinates(from)
	c1, r1, err2 := excelize.CellNameToCoordinates(to)
	if err1 != nil || err2 != nil || c1 < c0 || r1 < r0 {
		return cellRef{}, false
	}
	return cellRef{ref: ref, sheet: sheet, c0: c0, r0: r0, c1: c1, r1: r1}, true
}

// cellRange reads references from the workbook's formatted cell values,
// streaming each sheet they name once, up to the last row they name or
// the sheet's end: a reference past the sheet's rows costs nothing (one
// naming A1:A100000 on a ten-row sheet reads ten rows).
func cellRange(f *excelize.File) resolver {
	return func(ctx context.Context, refs []string, budget, perRef int) (map[string][]string, bool, error) {
		out := map[string][]string{}
		bySheet := map[string][]cellRef{}
		var sheets []string
		for _, ref := range refs {
			r, ok := parseCellRef(ref)
			if !ok {
				continue
			}
			if _, seen := bySheet[r.sheet]; !seen {
				sheets = append(sheets, r.sheet)
			}
			bySheet[r.sheet] = append(bySheet[r.sheet], r)
		}
		used, cut := 0, false
		for _, sheet := range sheets {
			rs := bySheet[sheet]
			sort.SliceStable(rs, func(a, b int) bool { return rs[a].r0 < rs[b].r0 })
			full, err := readRefs(ctx, f, sheet, rs, out, &used, budget, perRef, &cut)
			if err != nil {
				return out, full, err
			}
			if full {
				return out, true, nil
			}
		}
		return out, cut, nil
	}
}

// readRefs streams one sheet for the references rs (sorted by first row)
// into out, each up to perRef values (cut says one had more); it reports
// whether the budget ran out. It stops at the row past which no
// reference reads.
func readRefs(ctx context.Context, f *excelize.File, sheet string, rs []cellRef, out map[string][]string, used *int, budget, perRef int, cut *bool) (bool, error) {
	it, err := f.Rows(sheet)
	if err != nil {
		return false, nil // no such sheet: nothing to read
	}
	defer it.Close()
	last := 0
	for _, r := range rs {
		last = max(last, r.r1)
	}
	var active []*cellRef
	next, n := 0, 0
	for it.Next() {
		if n++; n%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return false, err
			}
		}
		if n > last {
			break
		}
		for next < len(rs) && rs[next].r0 <= n {
			active = append(active, &rs[next])
			next++
		}
		if len(active) == 0 {
			if next == len(rs) {
				break
			}
			continue
		}
		cols, err := it.Columns()
		if err != nil {
			return false, nil
		}
		keep := active[:0]
		for _, r := range active {
			if len(out[r.ref]) >= perRef {
				*cut = true
				continue // dropped from active: read no more of it
			}
			for c := r.c0; c <= r.c1; c++ {
				if *used >= budget {
					return true, nil
				}
				v := ""
				if c-1 < len(cols) {
					v = cols[c-1]
				}
				out[r.ref] = append(out[r.ref], v)
				*used++
			}
			if n < r.r1 {
				keep = append(keep, r)
			}
		}
		active = keep
	}
	return false, ctx.Err()
}

// fill takes what the caches lack from the cells their references name
// (excelize, among others, writes charts without caches): each distinct
// reference read once, at most budget cells read and given to the series
// in all, perRef values a reference. It returns the cells read and
// whether some were left out.
func (ch *chartData) fill(ctx context.Context, resolve resolver, budget, perRef int) (int, bool, error) {
	if resolve == nil {
		return 0, false, nil
	}
	var refs []string
	seen := map[string]bool{}
	want := func(ref string) {
		if ref != "" && !seen[ref] {
			seen[ref] = true
			refs = append(refs, ref)
		}
	}
	for _, s := range ch.series {
		if s.name == "" {
			want(s.refs["tx"])
		}
		if len(s.cats) == 0 {
			want(s.refs["cat"])
		}
		if len(s.vals) == 0 {
			want(s.refs["val"])
		}
	}
	if len(refs) == 0 {
		return 0, false, nil
	}
	vals, clipped, err := resolve(ctx, refs, budget, perRef)
	read := 0
	for _, v := range vals {
		read += len(v)
	}
	if err != nil {
		return read, clipped, err
	}
	given := 0
	for i := range ch.series {
		s := &ch.series[i]
		if s.name == "" && s.refs["tx"] != "" {
			if v := vals[s.refs["tx"]]; len(v) > 0 {
				s.name = strings.Join(v, " ")
			}
		}
		for _, key := range []string{"cat", "val"} {
			m := s.cats
			if key == "val" {
				m = s.vals
			}
			if len(m) > 0 || s.refs[key] == "" {
				continue
			}
			for k, v := range vals[s.refs[key]] {
				if v == "" {
					continue
				}
				if given >= budget {
					return read, true, nil
				}
				m[k] = v
				given++
			}
		}
	}
	return read, clipped, nil
}

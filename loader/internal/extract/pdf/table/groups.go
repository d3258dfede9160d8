package table

import (
	"slices"
	"strings"
)

// groupRows: a body band between group rules whose lines each hold
// values in the same two or more columns right of the stub, a number
// among them, with at most one phrase in the stub column (the group's
// label, centred on its rows: on a line of its own or on one of theirs),
// is a row per line of values, the label's own line going with the row
// above it. It returns the boundaries between those rows, nil when the
// band is not such a group. A table ruled between every column (a grid
// whose cells hold two lines each) keeps its bands unless each line is a
// row of its own (gridRows), and so does a band whose later lines are
// margins of error under the values ("(1.4)").
func groupRows(cols *columnStats, band []*textLine, xs []sep) []sep {
	open := false
	for _, x := range xs[1 : len(xs)-1] {
		open = open || !x.real
	}
	if !open {
		return gridRows(cols, band)
	}
	stub := cols.stub()
	var want []int // the columns of the first line of values
	labels, values := 0, 0
	var rows []int // index in band of each line of values
	for i, l := range band {
		var got []int
		num, margins := false, true
		for _, c := range cols.cellsOf(l) {
			if c.col == stub {
				labels++
				continue
			}
			got = append(got, c.col)
			if numericCell(c.ws) {
				num = true
				margins = margins && strings.HasPrefix(c.ws[0].text, "(")
			}
		}
		if len(got) == 0 {
			continue // the label's line
		}
		if !num || values > 0 && margins || !slices.Equal(got, want) && values > 0 {
			return nil
		}
		if values == 0 {
			want = got
		}
		values++
		rows = append(rows, i)
	}
	if values < 2 || len(want) < 2 || labels > 1 {
		return nil
	}
	var out []sep
	for k := 1; k < len(rows); k++ {
		// under the label's own line when it lies between the two
		a, b := band[rows[k]-1], band[rows[k]]
		out = append(out, sep{(a.cy() + b.cy()) / 2, false})
	}
	return out
}

// gridRows: a band of a table ruled between every column whose lines
// each hold a label in the stub and a number in each of the same two or
// more columns right of it is a row per line ("FY2013" over "FY2014",
// their figures level beside them in one ruled cell each): numbers do
// not wrap, so a line of them level with its own label is a row, where a
// cell wrapped in the grid has lines without a label or without values.
// It returns the boundaries between those rows, nil otherwise.
func gridRows(cols *columnStats, band []*textLine) []sep {
	stub := cols.stub()
	var want []int
	for _, l := range band {
		var got []int
		label := false
		for _, c := range cols.cellsOf(l) {
			if c.col == stub {
				label = true
				continue
			}
			if !numericCell(c.ws) {
				return nil
			}
			got = append(got, c.col)
		}
		if !label || len(got) < 2 || want != nil && !slices.Equal(got, want) {
			return nil
		}
		want = got
	}
	var out []sep
	for k := 1; k < len(band); k++ {
		out = append(out, sep{(band[k-1].cy() + band[k].cy()) / 2, false})
	}
	return out
}

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
// whose cells hold two lines each) keeps its bands, and so does a band
// whose later lines are margins of error under the values ("(1.4)").
func groupRows(cols *columnStats, band []*textLine, xs []sep) []sep {
	open := false
	for _, x := range xs[1 : len(xs)-1] {
		open = open || !x.real
	}
	if !open {
		return nil
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

package main

import (
	"fmt"
	"slices"
	"testing"
)

// rowCauses tells a matched table's row losses apart by where each truth
// row's words went: into one detected row with another's (merged), over
// two detected rows (split), nowhere (lost), into a row of its own parted
// otherwise (cells differ); a detected row of no truth words is foreign.
func TestRowCauses(t *testing.T) {
	grid := func(rows ...[]string) []cell {
		var out []cell
		for i, r := range rows {
			for j, c := range r {
				out = append(out, cell{i, j, i, j, c})
			}
		}
		return out
	}
	truth := grid(
		[]string{"Region", "Sales"},
		[]string{"North East", "120"},
		[]string{"Yorkshire and the Humber", "340"},
		[]string{"London", "560"},
		[]string{"Wales", "780"},
	)
	for _, c := range []struct {
		det  [][]string
		want []string
	}{
		{[][]string{{"Region", "Sales"}, {"North East", "120"}, {"Yorkshire and the Humber", "340"}, {"London", "560"}, {"Wales", "780"}}, nil},
		{[][]string{{"Region", "Sales"}, {"North East", "120"}, {"Yorkshire and the Humber London", "340 560"}, {"Wales", "780"}},
			[]string{"rows merged (inner)", "rows merged (inner)"}},
		{[][]string{{"Region", "Sales"}, {"North East", "120"}, {"Yorkshire and the", "340"}, {"Humber", ""}, {"London", "560"}, {"Wales", "780"}},
			[]string{"cell split into rows (inner)"}},
		{[][]string{{"Region", "Sales"}, {"North East", "120"}, {"Yorkshire and the Humber", "340"}, {"London", "560"}},
			[]string{"row lost (last)"}},
		{[][]string{{"Region Sales", ""}, {"North East", "120"}, {"Yorkshire and the Humber", "340"}, {"London", "560"}, {"Wales", "780"}},
			[]string{"cells differ (head)"}},
		{[][]string{{"Figures are provisional", ""}, {"Region", "Sales"}, {"North East", "120"}, {"Yorkshire and the Humber", "340"}, {"London", "560"}, {"Wales", "780"}},
			[]string{"foreign row (top)"}},
	} {
		var got []string
		for _, l := range rowCauses(truth, c.det) {
			got = append(got, l.cause+" ("+l.edge+")")
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: got %q, want %q", c.det, got, c.want)
		}
	}
	// a truth row under a cell spanning two rows says so
	spanned := append(grid([]string{"Group", "Item"}), cell{1, 0, 2, 0, "Fruit"}, cell{1, 1, 1, 1, "Apple"}, cell{2, 1, 2, 1, "Pear"})
	got := rowCauses(spanned, [][]string{{"Group", "Item"}, {"Fruit", "Apple Pear"}})
	if len(got) != 2 || got[0].cause != "rows merged, span" {
		t.Errorf("spanned rows: got %v, want both rows merged, span", fmt.Sprint(got))
	}
}

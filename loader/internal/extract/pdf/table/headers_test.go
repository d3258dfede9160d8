package table

import (
	"slices"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestSpanningHeaderSmallTable: group headers centred over two columns
// each, above a small unruled table, keep the columns under them apart
// (with few lines, one header line crossing a gap used to close it) and
// record their spans; a header wrapped over two capitalized lines is one
// cell.
func TestSpanningHeaderSmallTable(t *testing.T) {
	rows := [][]string{
		{"", "", "", "", ""},
		{"Area", "2010", "2020", "2010", "2020"},
		{"North", "1,820", "1,900", "52", "60"},
		{"South", "255", "270", "77", "80"},
		{"East", "2,614", "2,700", "61", "70"},
	}
	pg := page{}
	pg.Items = append(pg.Items, prose(72, 100, "Population and income by area, in thousands and in thousands of euro.")...)
	pg.Items = append(pg.Items, tableRows(130, 12, []col{{72, false}, {200, true}, {260, true}, {340, true}, {400, true}}, rows, false)...)
	pg.Items = append(pg.Items,
		txt{X: 230 - helvWidth("Population")/2, Y: 130, Size: 10, S: "Population"},
		txt{X: 370 - helvWidth("Income")/2, Y: 130, Size: 10, S: "Income"})
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	want := append([][]string{{"", "Population", "", "Income", ""}}, rows[1:]...)
	wantCells(t, ts[0], want)
	for _, s := range []document.CellSpan{{Row: 0, Col: 1, Rows: 1, Cols: 2}, {Row: 0, Col: 3, Rows: 1, Cols: 2}} {
		found := false
		for _, got := range ts[0].Spans {
			found = found || got == s
		}
		if !found {
			t.Errorf("spans %+v lack %+v", ts[0].Spans, s)
		}
	}

	t.Run("two-line header cells", func(t *testing.T) {
		rows := [][]string{
			{"", "Number of", "Median", "Percent"},
			{"State", "Households", "Income", "Change"},
			{"Alabama", "1,820", "52,035", "2.1"},
			{"Alaska", "255", "77,790", "-0.4"},
			{"Arizona", "2,614", "61,529", "3.3"},
		}
		pg := page{}
		pg.Items = append(pg.Items, prose(72, 100, "Households and income by state, 2019.")...)
		pg.Items = append(pg.Items, tableRows(130, 12, []col{{72, false}, {260, true}, {340, true}, {420, true}}, rows, false)...)
		ts := detect(t, pg)
		if len(ts) != 1 {
			t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
		}
		wantCells(t, ts[0], append([][]string{{"State", "Number of Households", "Median Income", "Percent Change"}}, rows[2:]...))
	})
}

// TestRuledHeaderOverNumbers: in a table with column rules, a header
// wrapped over two lines ("At least every / week", centred) above
// right-aligned numbers leaves a text gap between its short last line and
// the numbers; its first line crosses that gap, so the gap is inside the
// column (with ten body lines, one crossing line did not close it).
func TestRuledHeaderOverNumbers(t *testing.T) {
	xs := []float64{60, 160, 250, 340, 430}
	var pg page
	for _, y := range []float64{120, 162, 300} {
		pg.Draw = append(pg.Draw, hline(60, 430, y))
	}
	for k, x := range xs {
		top := 120.0
		if k == 2 || k == 3 {
			top = 134 // under the spanning header
		}
		pg.Draw = append(pg.Draw, vline(x, top, 300))
	}
	pg.Draw = append(pg.Draw, hline(160, 430, 134))
	pg.Items = append(pg.Items, txt{X: 190, Y: 130, Size: 10, S: "How often do you have these symptoms"})
	head := [][]string{{"Symptom", "At least every", "About every", "Rarely"}, {"", "week", "month", ""}}
	for i, r := range head {
		for j, c := range r {
			if c != "" {
				pg.Items = append(pg.Items, txt{X: (xs[j]+xs[j+1])/2 - helvWidth(c)/2, Y: 145 + 12*float64(i), Size: 10, S: c})
			}
		}
	}
	body := [][]string{{"Headache", "239", "119", "128"}, {"Back-ache", "139", "126", "219"}, {"Feeling dizzy", "123", "69", "293"},
		{"Tired", "377", "63", "47"}, {"Nervous", "303", "108", "71"}, {"Low", "221", "131", "131"}, {"Neck pain", "146", "99", "241"},
		{"Sleep", "130", "48", "308"}, {"Stomach", "78", "120", "284"}, {"Cough", "51", "70", "302"}}
	for i, r := range body {
		for j, c := range r {
			x := xs[j] + 4
			if j > 0 {
				x = xs[j+1] - 4 - helvWidth(c)
			}
			pg.Items = append(pg.Items, txt{X: x, Y: 177 + 12*float64(i), Size: 10, S: c})
		}
	}
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], append([][]string{{"Symptom", "How often do you have these symptoms", "", ""},
		{"", "At least every week", "About every month", "Rarely"}}, body...))
}

// TestCentredGroupHeaders: group headers narrower than the gaps between
// columns, each centred over three columns whose sub-headers are in the
// row below, span their groups (nothing crosses a gap to say so).
func TestCentredGroupHeaders(t *testing.T) {
	sub := []string{"Offense", "All", "Minor", "Adult", "All", "Minor", "Adult"}
	rows := [][]string{
		{"Murder", "10.0", "0.9", "9.1", "9.0", "0.9", "8.1"},
		{"Robbery", "102.1", "25.5", "76.6", "90.0", "22.9", "67.1"},
		{"Burglary", "240.9", "60.3", "180.6", "205.0", "53.4", "151.7"},
		{"Arson", "9.8", "4.3", "5.5", "8.1", "3.7", "4.4"},
	}
	cols := []col{{72, false}, {220, true}, {270, true}, {320, true}, {400, true}, {450, true}, {500, true}}
	pg := page{Draw: []string{hline(70, 505, 122), hline(180, 505, 134), hline(70, 505, 150)}}
	pg.Items = append(pg.Items, tableRows(146, 12, cols, [][]string{sub}, false)...)
	pg.Items = append(pg.Items, tableRows(162, 12, cols, rows, false)...)
	// each group's columns run from its first number's left to its last's right
	for _, g := range []struct {
		s      string
		x0, x1 float64
	}{{"Total", 220 - helvWidth("102.1"), 320}, {"Male", 400 - helvWidth("205.0"), 500}} {
		pg.Items = append(pg.Items, txt{X: (g.x0+g.x1)/2 - helvWidth(g.s)/2, Y: 131, Size: 10, S: g.s})
	}
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	// the stub's label spans both header rows (no rule under it), so it
	// sits in the first
	want := append([][]string{{"Offense", "Total", "", "", "Male", "", ""}, append([]string{""}, sub[1:]...)}, rows...)
	wantCells(t, ts[0], want)
	for _, s := range []document.CellSpan{{Row: 0, Col: 1, Rows: 1, Cols: 3}, {Row: 0, Col: 4, Rows: 1, Cols: 3}} {
		found := false
		for _, got := range ts[0].Spans {
			found = found || got == s
		}
		if !found {
			t.Errorf("spans %+v lack %+v", ts[0].Spans, s)
		}
	}
}

// TestLabelOverTwoRows: a row label wrapped onto the next row's line (its
// last line lower-case, at its left edge) beside rows of their own
// ("Count", "Percentage") spans both rows instead of labelling the second
// with its last word.
func TestLabelOverTwoRows(t *testing.T) {
	rows := [][]string{
		{"Illness", "", "Suffered", "Treated"},
		{"Asthma", "Count", "31", "22"},
		{"", "Percentage", "6.3%", "4.4%"},
		{"Chronic fatigue", "Count", "19", "4"},
		{"syndrome", "Percentage", "3.8%", "0.8%"},
		{"Depression", "Count", "48", "12"},
		{"", "Percentage", "9.7%", "2.4%"},
	}
	pg := page{}
	pg.Items = append(pg.Items, tableRows(130, 12, []col{{72, false}, {170, false}, {300, true}, {380, true}}, rows, true)...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	want := append([][]string{}, rows...)
	want[3] = []string{"Chronic fatigue syndrome", "Count", "19", "4"}
	want[4] = []string{"", "Percentage", "3.8%", "0.8%"}
	wantCells(t, ts[0], want)
	s := document.CellSpan{Row: 3, Col: 0, Rows: 2, Cols: 1}
	found := false
	for _, got := range ts[0].Spans {
		found = found || got == s
	}
	if !found {
		t.Errorf("spans %+v lack %+v", ts[0].Spans, s)
	}
}

// TestGroupHeadOverTextHeads: a group head of two words centred over two
// columns, its words either side of their column gap, over text column
// heads (not years): a header row of its own spanning the two columns,
// not the first line of both heads wrapped ("Resident Men").
func TestGroupHeadOverTextHeads(t *testing.T) {
	rows := [][]string{
		{"Area", "Men", "Women", "Total"},
		{"North", "1,820", "1,900", "3,720"},
		{"South", "255", "270", "525"},
		{"East", "2,614", "2,700", "5,314"},
		{"West", "912", "947", "1,859"},
	}
	cols := []col{{72, false}, {220, true}, {280, true}, {350, true}}
	pg := page{}
	pg.Items = append(pg.Items, prose(72, 90, "Resident population by area and sex, in thousands, at the end of the year.")...)
	head := "Resident population"
	pg.Items = append(pg.Items, txt{X: 236 - helvWidth(head)/2, Y: 128, Size: 10, S: head})
	pg.Items = append(pg.Items, tableRows(141, 13, cols, rows, false)...)
	pg.Items = append(pg.Items, prose(72, 230, "Figures for the latest year are provisional and may be revised.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], append([][]string{{"", "Resident population", "", ""}}, rows...))
	want := document.CellSpan{Row: 0, Col: 1, Rows: 1, Cols: 2}
	if !slices.Contains(ts[0].Spans, want) {
		t.Errorf("spans %+v lack %+v", ts[0].Spans, want)
	}
}

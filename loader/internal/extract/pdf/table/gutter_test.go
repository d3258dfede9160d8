package table

import (
	"testing"
)

// TestNotesBesideLooseTable: a ruled table on the left with two lines of
// notes under it, and beside it an unruled table whose rows are set a
// line apart; the notes fall between the right table's rows. Lined up
// across the page, a note line joins no row and breaks the run of the
// right table's lines; the right table is found whole, the notes stay
// out of it.
func TestNotesBesideLooseTable(t *testing.T) {
	notesBesideLooseTable(t, 21, []txt{
		{X: 72, Y: 213.5, Size: 8, S: "(1) Provisional data."},
		{X: 72, Y: 234.5, Size: 8, S: "(2) Revised in 2021."},
	})
}

// notesBesideLooseTable: a ruled table on the left with notes under it,
// an unruled table on the right with rows pitch apart; both found, each
// whole and alone.
func notesBesideLooseTable(t *testing.T, pitch float64, notes []txt) {
	t.Helper()
	ruled := [][]string{
		{"Item", "Units"},
		{"Farms", "591"},
		{"Mines", "257"},
		{"Roads", "755"},
	}
	pg := ruledPage([]float64{72, 160, 230}, []float64{124, 142, 160, 178, 196}, ruled, false)
	pg.Items = append(pg.Items, prose(72, 90, "Units by kind of site and amounts by country, compared over the last two years.")...)
	pg.Items = append(pg.Items, notes...)
	right := [][]string{
		{"Country", "Amount", "Share"},
		{"Spain", "796.8", "60.6"},
		{"Belgium", "864.1", "52.2"},
		{"Denmark", "258.4", "74.0"},
		{"France", "343.3", "71.8"},
		{"Austria", "790.2", "81.0"},
	}
	pg.Items = append(pg.Items, tableRows(140, pitch, []col{{300, false}, {420, true}, {480, true}}, right, true)...)
	pg.Items = append(pg.Items, prose(72, 300, "Figures for the latest year are provisional and may be revised.")...)
	ts := detect(t, pg)
	if len(ts) != 2 {
		t.Fatalf("want 2 tables, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], ruled)
	wantCells(t, ts[1], right)
	if b := ts[1].BBox; b.X0 < 250 {
		t.Errorf("right table's box %v reaches the notes", b)
	}
}

// TestWrappedHeadsOverStubLabels: a table whose last column heads wrap
// onto a second line, over group labels in the stub column: the header
// lines and the labels under them share no baseline, yet they are one
// table, not two blocks side by side.
func TestWrappedHeadsOverStubLabels(t *testing.T) {
	cols := []col{{72, false}, {260, true}, {320, true}, {380, true}}
	rows := [][]string{
		{"", "2019", "2020", "2019-"},
		{"", "", "", "2020"},
		{"Outlays:", "", "", ""},
		{"Defence", "69.9", "70.9", "140.8"},
		{"Health", "60.0", "61.0", "121.0"},
		{"Receipts:", "", "", ""},
		{"Income taxes", "72.5", "77.3", "149.8"},
		{"Customs", "48.0", "47.8", "95.8"},
		{"Excise", "27.5", "25.5", "53.0"},
	}
	pg := page{}
	pg.Items = append(pg.Items, prose(72, 90, "Outlays and receipts by category, in billions.")...)
	pg.Items = append(pg.Items, tableRows(124, 12, cols, rows[:2], true)...)
	pg.Items = append(pg.Items, tableRows(152, 12, cols, rows[2:], false)...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	got := cellsOf(ts[0])
	if len(got) < 6 || got[0][1] != "2019" || got[len(got)-1][0] != "Excise" {
		t.Errorf("cells: %q", got)
	}
}

// TestLabelsCentredOverRowGroups: group labels set half-way down the two
// rows they head (a multirow cell), left of a table's body, share no
// baseline with the rows; under the table's header, which runs over them,
// they are the table's stub, not a block beside it.
func TestLabelsCentredOverRowGroups(t *testing.T) {
	cols := []col{{72, false}, {130, false}, {300, true}, {360, true}, {420, true}}
	pg := page{}
	pg.Items = append(pg.Items, prose(72, 90, "Accuracy by training set and retriever, in percent.")...)
	head := []col{{72, false}, {120, false}, {300, true}, {360, true}, {420, true}}
	pg.Items = append(pg.Items, tableRows(124, 13, head, [][]string{
		{"Training", "Retriever", "Top-5", "Top-20", "Top-100"},
		{"", "", "NQ", "WQ", "TREC"},
	}, true)...)
	body := [][]string{
		{"None", "Sparse", "59.1", "66.9", "55.0"},
		{"", "Dense", "78.4", "79.4", "73.2"},
		{"", "Both", "76.6", "79.8", "71.0"},
		{"", "Dense", "79.4", "78.8", "75.0"},
		{"", "Both", "78.0", "79.9", "74.7"},
	}
	pg.Items = append(pg.Items, tableRows(154, 13, cols, body, false)...)
	pg.Items = append(pg.Items, txt{X: 72, Y: 173.5, Size: 10, S: "Single"}, txt{X: 72, Y: 199.5, Size: 10, S: "Multi"})
	pg.Items = append(pg.Items, prose(72, 250, "Figures for the latest year are provisional and may be revised.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	if got := cellsOf(ts[0]); len(got[0]) != 5 || got[0][0] != "Training" {
		t.Errorf("cells: %q", got)
	}
}

// TestCaptionAndNotesAroundRuledBeside: a ruled table with its caption
// above and its notes below, beside an unruled table set a line apart
// under a caption on the same baseline. The left block's lines (caption,
// notes) are far apart, but the ruled table fills the space between them
// on their side only: the two blocks are still lined up apart.
func TestCaptionAndNotesAroundRuledBeside(t *testing.T) {
	ruled := [][]string{
		{"Item", "Units"},
		{"Farms", "591"},
		{"Mines", "257"},
		{"Roads", "755"},
		{"Ports", "102"},
		{"Parks", "88"},
	}
	pg := ruledPage([]float64{72, 160, 230}, []float64{124, 142, 160, 178, 196, 214, 232}, ruled, false)
	pg.Items = append(pg.Items, prose(72, 80, "Units by kind of site and amounts by country, compared over the last two years.")...)
	pg.Items = append(pg.Items,
		txt{X: 72, Y: 112, Size: 10, Bold: true, S: "Table 1. Sites"},
		txt{X: 300, Y: 112, Size: 10, Bold: true, S: "Table 2. Amounts by country"},
		txt{X: 72, Y: 255.5, Size: 8, S: "(1) Provisional data."},
		txt{X: 72, Y: 276.5, Size: 8, S: "(2) Revised in 2021."},
	)
	right := [][]string{
		{"Country", "Amount", "Share"},
		{"Spain", "796.8", "60.6"},
		{"Belgium", "864.1", "52.2"},
		{"Denmark", "258.4", "74.0"},
		{"France", "343.3", "71.8"},
		{"Austria", "790.2", "81.0"},
		{"Italy", "412.9", "33.3"},
		{"Greece", "98.6", "12.1"},
	}
	pg.Items = append(pg.Items, tableRows(140, 21, []col{{300, false}, {420, true}, {480, true}}, right, true)...)
	pg.Items = append(pg.Items, prose(72, 330, "Figures for the latest year are provisional and may be revised.")...)
	ts := detect(t, pg)
	if len(ts) != 2 {
		t.Fatalf("want 2 tables, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], ruled)
	wantCells(t, ts[1], right)
}

// TestParagraphAtTheRowsPitch: a paragraph beside an unruled table, set in
// the table's size at its row pitch, each line on a row's baseline. The
// baselines say one block; the paragraph's lines (running text filling
// its column, the sentence going on from line to line) say it is not a
// column of the table: the table is found alone.
func TestParagraphAtTheRowsPitch(t *testing.T) {
	rows := [][]string{
		{"Region", "Farms", "Share"},
		{"Northern", "591", "12.4"},
		{"Southern", "1,257", "30.1"},
		{"Eastern", "755", "18.0"},
		{"Western", "964", "22.9"},
		{"Central", "702", "16.6"},
	}
	pg := page{}
	pg.Items = append(pg.Items, prose(72, 90, "Farms by region, the number counted in the census and each region's share of the total.")...)
	pg.Items = append(pg.Items, tableRows(124, 13, []col{{72, false}, {200, true}, {250, true}}, rows, true)...)
	pg.Items = append(pg.Items, tableRows(137, 13, []col{{290, false}}, [][]string{
		{"the census counts a farm where it keeps"},
		{"its land and the share is taken of all the"},
		{"farms in the country in the year of the"},
		{"count so that the regions add up to the"},
		{"whole and a farm is counted only once."},
	}, false)...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], rows)
}

// TestDescriptionColumnStays: a table whose last column holds
// descriptions of five words and more a line, wrapped, with no row gap:
// each cell starts with a capital where the line above ends no sentence,
// so the column is not taken for a paragraph beside the table.
func TestDescriptionColumnStays(t *testing.T) {
	cols := []col{{72, false}, {180, true}, {250, false}}
	var items []txt
	y := 124.0
	rows := [][]string{
		{"Kind", "Farms", "Description"},
		{"Cattle", "591", "Farms that keep cattle or sheep on", "their own land all the year round"},
		{"Grain", "1,257", "Farms that grow grain and other crops", "for sale in the market of the region"},
		{"Rented", "755", "Holdings that rent their land from the", "state or from another holding nearby"},
	}
	for i, r := range rows {
		items = append(items, tableRows(y, 13, cols, [][]string{r[:3]}, i == 0)...)
		y += 13
		if len(r) > 3 {
			items = append(items, txt{X: 250, Y: y, Size: 10, S: r[3]})
			y += 13
		}
	}
	pg := page{Items: append(prose(72, 90, "Farms by kind of holding, with the number counted in the census."), items...)}
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	got := cellsOf(ts[0])
	if len(got) != 4 || len(got[0]) != 3 || got[1][2] != "Farms that keep cattle or sheep on their own land all the year round" {
		t.Errorf("cells: %q", got)
	}
}

// TestSmallTableBesideTightGaps: two tables side by side under a
// paragraph, set in 7 pt while the page's text is 10 pt; the right one's
// columns are about 7 pt apart, less than the page's column gap (0.9 of
// its text size) but more than its own. Read in the page's size its
// rows are one phrase each and no table; read in its own, it is found.
func TestSmallTableBesideTightGaps(t *testing.T) {
	pg := page{}
	pg.Items = append(pg.Items, prose(72, 80,
		"The number of farms counted in each region and the share of the total,",
		"with the kind of holding most often found there and the year counted,",
		"are set out in the two tables below; figures for the latest year are",
		"provisional and may be revised when final data become available.")...)
	left := [][]string{{"Region", "Farms"}, {"Northern", "591"}, {"Southern", "1,257"}, {"Eastern", "755"}, {"Western", "964"}, {"Central", "702"}}
	right := [][]string{{"Bonded", "2018", "42.6"}, {"Banded", "2019", "12.4"}, {"Sanded", "2020", "30.1"}, {"Padded", "2021", "18.0"}, {"Bedded", "2022", "22.9"}} // labels and years of one width: the gaps are what they say
	// the right table's columns 7.5 pt apart by the 556-unit estimate
	// (after its widest cell), its rows at a pitch of their own
	xs := []float64{330}
	for j := 0; j+1 < len(right[0]); j++ {
		w := 0.0
		for _, r := range right {
			w = max(w, 0.7*helvWidth(r[j]))
		}
		xs = append(xs, xs[j]+w+7.5)
	}
	for i, r := range left {
		y := 150 + float64(i)*10
		pg.Items = append(pg.Items, txt{X: 72, Y: y, Size: 7, S: r[0]}, txt{X: 160, Y: y, Size: 7, S: r[1]})
	}
	for i, r := range right {
		for j, c := range r {
			pg.Items = append(pg.Items, txt{X: xs[j], Y: 153 + float64(i)*11.5, Size: 7, S: c})
		}
	}
	ts := detect(t, pg)
	if len(ts) != 2 {
		t.Fatalf("want 2 tables, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[1], right)
}

// TestOneNoteBesideLooseTable: a ruled table on the left with one line of
// notes under it, falling between the rows of an unruled table beside.
// One line is no block of its own for the gutter split; it is no cell of
// the right table either (it lies beside that table's columns, under the
// left table's rule): the right table is found alone.
func TestOneNoteBesideLooseTable(t *testing.T) {
	notesBesideLooseTable(t, 20, []txt{{X: 72, Y: 210, Size: 8, S: "(1) Provisional data."}})
}

// TestHeadsAboveATableBesideAParagraph: a table beside a paragraph that
// starts at the table's first body row, its column head wrapped over
// three lines above its stub head: the head's upper lines stand over the
// table alone, above the first line with text either side of the gutter;
// they are the table's head, not lines left above both blocks.
func TestHeadsAboveATableBesideAParagraph(t *testing.T) {
	body := [][]string{
		{"Greece", "241,032", "17.4"},
		{"Spain", "407,262", "12.9"},
		{"Luxembourg", "920,741", "31.0"},
		{"Portugal", "118,305", "8.6"},
		{"Ireland", "77,914", "21.3"},
	}
	centred := func(x, y float64, s string) txt {
		return txt{X: x - helvWidth(s)/2, Y: y, Size: 10, Bold: true, S: s}
	}
	para := wrapHelv("In the quality report published with this release the survey shows that the number of "+
		"households in most regions grew over the period while the share of persons living alone rose.", 170)
	pg := page{}
	pg.Items = append(pg.Items, prose(72, 80, "Published with this release, the survey shows the number of households by country and the growth.")...)
	pg.Items = append(pg.Items, centred(420, 120, "Actual"), centred(420, 131, "growth"),
		txt{X: 300, Y: 142, Size: 10, Bold: true, S: "Age group"}, centred(420, 142, "Change"), centred(485, 142, "2021"))
	pg.Items = append(pg.Items, tableRows(160, 13, []col{{300, false}, {440, true}, {500, true}}, body, false)...)
	pg.Items = append(pg.Items, prose(72, 160, para...)...)
	pg.Items = append(pg.Items, prose(72, 260, "Figures for the latest year are provisional and may be revised.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], append([][]string{{"Age group", "Actual growth Change", "2021"}}, body...))
}

package table

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// A table of one row under its heads, unruled, is found when its two
// lines line up phrase by phrase (surround set, tune pages): kd-5034, a
// four-column one right under another table of other columns, and
// kd-5150, one with a note in a smaller size under it beside another
// table. On main neither was found (scan wants three lines of phrases);
// kd-5104, under a bold title and over a paragraph, was not found by the
// first form, which read the two lines through buildGrid.
func TestOneRowUnderItsHeads(t *testing.T) {
	for _, c := range []struct {
		file string
		want [][]string
	}{
		{"surround-5034.pdf", [][]string{{"Name", "Role", "Extension", "Room"}, {"S. Tanaka", "Member", "7084", "D-155"}}},
		{"surround-5150.pdf", [][]string{{"Date", "Session", "Speaker", "Time"}, {"12 November", "Workshop A", "Ms Kowalska", "10:30"}}},
		// the grid's gaps, made for several rows, joined "Qty" and
		// "Price" over "29 17.41": the cells are the phrases
		{"surround-5104.pdf", [][]string{{"Component", "Part no.", "Qty", "Price"}, {"Washer", "BR-6707", "29", "17.41"}}},
	} {
		ts := detectFile(t, filepath.Join("testdata", c.file))
		if !hasTable(ts, c.want) {
			t.Errorf("%s: want a table %q: %s", c.file, c.want, dump(ts))
		}
	}
}

// Two lines that line up are not one row when a line in their size
// stands close under them inside their width (hard set kd-3038, a tune
// page: "Score Share / 51–55 10.2%" over a lone "17.5%" and "63–67 25.9%",
// the rest of a table the run did not take): no table of the first two.
func TestTwoLinesOverMoreRowsAreNoOneRowTable(t *testing.T) {
	for _, tb := range detectFile(t, filepath.Join("testdata", "hard2-3038.pdf")) {
		if len(cellsOf(tb)) == 2 {
			t.Errorf("a two-row table of a longer one: %s", dump([]document.Table{tb}))
		}
	}
}

// Two lines lined up between paragraphs are one row under its heads only
// when the first reads as heads and the second holds a value: a four-
// column head over its row is a table; a table's notes ("GDP:" over
// "(*)", labels with their meanings: eu-012's notes under its Table 1) and
// two rows of the same labels (a CV's languages, each with "Reading" and
// "Speaking": issue-71-duplicate-chars.pdf) are not.
func TestOneRowNeedsHeadsAndAValue(t *testing.T) {
	para := func(y float64) []txt {
		return prose(72, y, "The figures of the last year were gathered in the usual way by the office",
			"and the members of the board have read them with the care they deserve.")
	}
	cols := []col{{x: 72}, {x: 160}, {x: 250}, {x: 340}}
	for _, c := range []struct {
		name  string
		rows  [][]string
		table bool
	}{
		{"heads over a row", [][]string{{"Name", "Role", "Extension", "Room"}, {"J. Smith", "Member", "7084", "D-155"}}, true},
		{"notes", [][]string{{"GDP:", "Gross domestic product."}, {"(*)", "Forecast."}}, false},
		{"repeated labels", [][]string{{"English", "Reading", "Speaking"}, {"Italian", "Reading", "Speaking"}}, false},
	} {
		var pg page
		pg.Items = append(append(para(100), tableRows(140, 16, cols, c.rows, false)...), para(180)...)
		ts := detect(t, pg)
		found := hasTable(ts, c.rows)
		if found != c.table || !c.table && len(ts) > 0 {
			t.Errorf("%s: table %v, want %v: %s", c.name, found, c.table, dump(ts))
		}
	}
}

// hasTable: some table of ts has exactly the cells want (header first).
// hasTable compares cell by cell: a printed form would take
// "Part no. Qty" | "Price" for three cells.
func hasTable(ts []document.Table, want [][]string) bool {
	for _, tb := range ts {
		if slices.EqualFunc(cellsOf(tb), want, slices.Equal[[]string]) {
			return true
		}
	}
	return false
}

// hasTable tells merged cells from split ones, which their printed forms
// do not ("[[Part no. Qty Price]]" either way).
func TestHasTableComparesCells(t *testing.T) {
	merged := []document.Table{{Rows: [][]string{{"Part no. Qty", "Price"}}}}
	if hasTable(merged, [][]string{{"Part no.", "Qty", "Price"}}) {
		t.Error("two cells taken for three")
	}
	if !hasTable(merged, [][]string{{"Part no. Qty", "Price"}}) {
		t.Error("the same cells not matched")
	}
}

// TestHeadAndRowFloatingRight: a head and one row floating right of a
// paragraph (surround tune kd-5144, its phrases where Chromium printed
// them) are a table: the paragraph's line close under the row, wholly
// left of the two, is no row of theirs (it kept them from being one).
func TestHeadAndRowFloatingRight(t *testing.T) {
	ts := New().DetectTables(chromiumLayout([]phraseAt{
		{59, 57.6, "Contact: J. Meyer"},
		{59, 69.6, "Risk register"},
		{59, 81.6, "Training for new staff"},
		{59, 93.6, "Inspection of all sites"},
		{42, 108.6, "Statement were passengers below equity model were table year equity tax. Terms"},
		{436.9, 111.6, "Date"}, {478.8, 111.6, "Session"}, {538.8, 111.6, "Time"},
		{42, 120.6, "connections higher payment higher passengers during participants."},
		{436.9, 127.4, "27 April"}, {478.8, 127.4, "Workshop A"}, {538.8, 127.4, "09:00"},
		{42, 132.6, "Cash policies contracts results energy segment connections shares from were."},
		{42, 153.6, "The holiday prices expects within company mainly effect account results were."},
	}))
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], [][]string{{"Date", "Session", "Time"}, {"27 April", "Workshop A", "09:00"}})
}

// TestHeadAndRowWrapped: a head and one row whose first cell wraps onto
// a line under it (surround tune kd-5124: "Secretary" over "in reserve",
// a leading apart, the other cells level with its first line) are a
// table of one row, the wrapped line in its cell; more rows under such a
// wrapped row (a line close under, inside their width) are no one-row
// table.
func TestHeadAndRowWrapped(t *testing.T) {
	page := []phraseAt{
		{42, 91, "Follow table lower increased notes the treatment were"},
		{42, 103, "received weekend terms difference board changes."},
		{59.2, 160.4, "Site visit, 3 days"},
		{45, 177.6, "Role"}, {99.8, 177.6, "Extension"}, {153.9, 177.6, "Room"},
		{45, 191.9, "Secretary"}, {122, 191.9, "6924"}, {154, 191.9, "F-109"},
		{45, 203.9, "in stock"},
		{318, 152.1, "flows interest reference growth dividend observed"},
		{318, 164.9, "within days flows contracts flows effect."},
	}
	ts := New().DetectTables(chromiumLayout(page))
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], [][]string{{"Role", "Extension", "Room"}, {"Secretary in stock", "6924", "F-109"}})

	more := append(page, phraseAt{45, 220.1, "Treasurer"}, phraseAt{122, 220.1, "5004"}, phraseAt{154, 220.1, "C-318"})
	for _, tb := range New().DetectTables(chromiumLayout(more)) {
		if len(tb.Rows) == 1 {
			t.Errorf("a row under the wrapped row: no one-row table, got %s", dump([]document.Table{tb}))
		}
	}
}

// TestTwoOneRowTablesStacked: two tables of a head and one row each, one
// under the other a little further apart than their own lines (surround
// tune kd-5080; its numbers right-aligned under their heads), are two
// tables: the four lines make one run that is no table, and each pair's
// line close under was the other's.
func TestTwoOneRowTablesStacked(t *testing.T) {
	ts := New().DetectTables(chromiumLayout([]phraseAt{
		{42, 57.6, "Segment lower customers difference model interest period notes measured difference payment."},
		{42, 78.8, "Operations were account effect"},
		{42, 98.9, "Country"}, {90.9, 98.9, "Capital"}, {135.7, 98.9, "Population (m)"}, {214.7, 98.9, "Area (km²)"},
		{42, 113.1, "Peru"}, {104.7, 113.1, "Oslo"}, {179.6, 113.1, "80.4"}, {231, 113.1, "583,163"},
		{42, 132.6, "Capital"}, {86.8, 132.6, "Area (km²)"},
		{42, 147.6, "Vienna"}, {103.1, 147.6, "774,322"},
		{42, 161.9, "Observed the liabilities study study apply higher terms year due costs."},
		{42, 173.9, "Account period accounting days market observed customers board liabilities. Timetable significant model model"},
		{42, 186.6, "terms baseline above operations goods margin segment growth effect market treatment mainly interest year."},
	}))
	if len(ts) != 2 {
		t.Fatalf("want 2 tables, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], [][]string{{"Country", "Capital", "Population (m)", "Area (km²)"}, {"Peru", "Oslo", "80.4", "583,163"}})
	wantCells(t, ts[1], [][]string{{"Capital", "Area (km²)"}, {"Vienna", "774,322"}})
}

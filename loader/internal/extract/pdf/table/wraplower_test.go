package table

import "testing"

// TestCellsWrappedAfterANumber: a row of narrow cells that all wrap
// ("26" over "November" beside "Field" over "report", a browser's
// table, the cells' lines at the text's leading, 12pt, the rows 0.8pt
// further apart) is one row: "report" goes on "Field" lower-case, a word
// that would not have fit, so the line is the row's next line, and
// "November" goes on "26" though a number does not wrap and though it
// is capitalised (surround tune kd-5546, kd-5358, kd-5444: "26" and
// "November" were two rows).
func TestCellsWrappedAfterANumber(t *testing.T) {
	ps := []phraseAt{
		{42, 78.5, "1.4 Timetable reported"},
		{42, 95, "Table 2. Reference values analysis of the sessions held in the year."},
		{42, 110.9, "Date"}, {105.3, 110.9, "Session"}, {162, 110.9, "Speaker"}, {221.8, 110.9, "Remarks"},
		{42, 123.6, "4 March"}, {105.3, 123.6, "Budget"}, {162, 123.6, "Ms"},
		{105.3, 135.6, "review"}, {162, 135.6, "Kowalska"},
		{42, 148.4, "26"}, {105.3, 148.4, "Field"}, {162, 148.4, "Prof. Ito"},
		{42, 160.4, "November"}, {105.3, 160.4, "report"},
		{42, 188.1, "Costs of the sessions are shared between the two offices as agreed."},
		{42, 200.1, "The remarks column is kept for the minutes of each session."},
	}
	ts := New().DetectTables(chromiumLayout(ps))
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], [][]string{
		{"Date", "Session", "Speaker", "Remarks"},
		{"4 March", "Budget review", "Ms Kowalska", ""},
		{"26 November", "Field report", "Prof. Ito", ""},
	})
}

// TestLowerCaseValuesAtTheLeadingStayRows: rows set at the text's
// leading (no cell padding: nothing tells a row from a cell's next line
// by its pitch) whose value cells start lower-case stay rows (realhtml
// tune kirche-und-leben's cookie tables, generated textpair tables: such
// lines were merged by a first form of the wrap rule that asked no row's
// pitch of the band).
func TestLowerCaseValuesAtTheLeadingStayRows(t *testing.T) {
	rows := [][]string{
		{"Provider:", "statistik.kampanile.de"},
		{"Cookie name:", "matomo_session"},
		{"Lifetime:", "twelve months"},
		{"Privacy link:", "matomo.org/faq/general"},
		{"Host:", "statistik.kampanile.de"},
	}
	ps := []phraseAt{{42, 80, "The page sets the following cookie when the visitor agrees to the statistics."}}
	for i, r := range rows {
		y := 104 + 12*float64(i)
		ps = append(ps, phraseAt{42, y, r[0]}, phraseAt{110, y, r[1]})
	}
	ps = append(ps, phraseAt{42, 176, "It is removed when the visitor withdraws the consent in the settings."})
	ts := New().DetectTables(chromiumLayout(ps))
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], rows)
}

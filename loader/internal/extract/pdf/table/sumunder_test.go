package table

import "testing"

// TestSumLineUnderGroupLabel: a statement with rules over and under its
// heads and an accountant's sum line over the amounts of a total right
// under a group's label ("Equity" over "Net cash from operating
// activities" and its amounts; 9pt on 13.5pt, no column rules): the label
// and the total are two rows. The sum line was kept as a row rule (no
// amounts above it), and as it starts right of the stub the two labels
// merged into one cell across it.
func TestSumLineUnderGroupLabel(t *testing.T) {
	const size, pitch = 9.0, 13.5
	right := func(s string, x1 float64) float64 { return x1 - helvWidth(s)*0.9 }
	ends := []float64{428, 501, 565}
	pg := page{Items: prose(42, 70, "The group's cash flows for the year, with the two years before.")}
	y := 110.0
	pg.Draw = append(pg.Draw, hline(42, 570, y-10), hline(42, 570, y+4))
	for j, h := range []string{"2023", "2022", "2021"} {
		pg.Items = append(pg.Items, txt{X: right(h, ends[j]), Y: y, Size: size, S: h})
	}
	rows := [][]string{
		{"Interest paid", "1,080,002", "567,765", "777,964"},
		{"Proceeds from borrowings", "(2,340,009)", "2,946,966", "1,147,296"},
		{"Equity"},
		{"Net cash from operating activities", "2,654,550", "-", "634,777"},
		{"Inventories", "1,103,312", "1,903,230", "668,768"},
		{"Employee benefit obligations", "265,656", "3,235,890", "981,816"},
		{"Other operating income", "374,986", "1,286,376", "162,516"},
	}
	for i, r := range rows {
		y += pitch
		if i == 3 { // the sum line over the total's amounts, and under them
			pg.Draw = append(pg.Draw, hline(360, 570, y-10), hline(360, 570, y+4))
		}
		pg.Items = append(pg.Items, statementRow(r, 46, y, ends)...)
	}
	pg.Items = append(pg.Items, prose(42, y+2*pitch, "The notes on the following pages are part of these statements.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	var label, total bool
	for _, r := range cellsOf(ts[0]) {
		label = label || r[0] == "Equity"
		total = total || r[0] == rows[3][0] && r[1] == rows[3][1]
	}
	if !label || !total {
		t.Errorf("want %q a row and %q with its amounts another: %s", "Equity", rows[3][0], dump(ts))
	}
}

package table

import "testing"

// TestFootnoteMarksOnNumbers: numbers carrying a footnote mark ("(1)",
// " (e)") are still numbers: the header over a first value so marked is
// the header, not more of the first row, and a row whose text cell wraps
// keeps its marked numbers on the cell's last line in that row.
func TestFootnoteMarksOnNumbers(t *testing.T) {
	cols := []col{{72, false}, {250, true}}
	rows := [][]string{
		{"", "Income"},
		{"Public employees", "$26,244(1)"},
		{"Current persons", "$761,526"},
		{"Other restaurants", "$90,674"},
		{"Self-employed", "$38,775 (e)"},
	}
	pg := page{}
	pg.Items = append(pg.Items, prose(72, 90, "Income by kind of household, in dollars.")...)
	pg.Items = append(pg.Items, tableRows(124, 13, cols, rows, true)...)
	pg.Items = append(pg.Items, prose(72, 220, "Figures for the latest year are provisional and may be revised.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], rows)

	cols = []col{{72, false}, {180, false}, {380, true}, {450, true}}
	lines := [][]string{
		{"Region", "Arrangement", "Amount", "Share"},
		{"Mining", "Not applicable", "60.7", "45.5"},
		{"Net", "Shared with neighbouring", "", ""},
		{"", "districts", "87.3", "78.2 (e)"},
		{"Revenue", "Monthly", "33.1", "32.3"},
		{"Current", "High", "26.5*", "82.7"},
	}
	pg = page{}
	pg.Items = append(pg.Items, prose(72, 90, "Amounts and shares by region, with the arrangement under which each is collected.")...)
	pg.Items = append(pg.Items, tableRows(124, 12, cols, lines[:1], true)...)
	pg.Items = append(pg.Items, tableRows(140, 12, cols, lines[1:], false)...)
	ts = detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], [][]string{
		{"Region", "Arrangement", "Amount", "Share"},
		{"Mining", "Not applicable", "60.7", "45.5"},
		{"Net", "Shared with neighbouring districts", "87.3", "78.2 (e)"},
		{"Revenue", "Monthly", "33.1", "32.3"},
		{"Current", "High", "26.5*", "82.7"},
	})
}

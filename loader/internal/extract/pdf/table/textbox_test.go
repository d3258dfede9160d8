package table

import "testing"

// TestTableInATextBox: a framed text box (four rules, none inside) with a
// line of running text over a small unruled table is no ruled table: the
// table inside is found with its own cells and box, the box's sentence
// stays out (the frame was read as the table, its sentence as the first
// row).
func TestTableInATextBox(t *testing.T) {
	rows := [][]string{
		{"Parameter", "Value", "Unit"},
		{"Supply voltage", "24.0", "V"},
		{"Output current", "350", "mA"},
		{"Switching frequency", "125", "kHz"},
		{"Operating temperature", "85", "C"},
	}
	pg := page{Items: prose(72, 80, "The controller was tested at the nominal settings given in the box below before shipping.")}
	pg.Draw = append(pg.Draw, hline(66, 546, 100), hline(66, 546, 214), vline(66, 100, 214), vline(546, 100, 214))
	pg.Items = append(pg.Items, txt{X: 76, Y: 116, Size: 10, Bold: true, S: "Key figures"},
		txt{X: 136, Y: 116, Size: 10, S: "the settings used for the acceptance test of every unit we deliver."})
	pg.Items = append(pg.Items, tableRows(140, 14, []col{{76, false}, {240, true}, {260, false}}, rows, true)...)
	pg.Items = append(pg.Items, prose(72, 240, "Units that fail the test are returned to the workshop for adjustment and tested again.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], rows)
	if b := ts[0].BBox; b.Y0 < 128 || b.X1 > 400 {
		t.Errorf("table box %v: the frame's, not the table's", b)
	}
}

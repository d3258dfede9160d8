package table

import "testing"

// TestBlankLineInTable: an unruled table set in groups of rows with two
// blank lines between them is one table; the same two blocks with a
// caption between them are two.
func TestBlankLineInTable(t *testing.T) {
	cols := []col{{72, false}, {260, true}, {330, true}, {400, true}}
	top := [][]string{
		{"Offense", "Total", "Male", "Female"},
		{"Murder", "10.0", "9.0", "1.1"},
		{"Robbery", "102.1", "90.0", "12.1"},
		{"Burglary", "240.9", "205.0", "35.9"},
		{"Arson", "9.8", "8.1", "1.7"},
	}
	bottom := [][]string{
		{"Fraud", "173.7", "98.4", "75.3"},
		{"Vandalism", "217.4", "178.1", "39.3"},
		{"Vagrancy", "26.6", "20.9", "5.7"},
		{"Suspicion", "1.6", "1.2", "0.4"},
	}
	for _, title := range []string{"", "Table 2: Other offenses"} {
		t.Run("title "+title, func(t *testing.T) {
			pg := page{}
			pg.Items = append(pg.Items, prose(72, 100, "Arrests by offense and sex, in thousands.")...)
			pg.Items = append(pg.Items, tableRows(130, 12, cols, top, false)...)
			y := 130 + 4*12 + 40.0 // two blank lines and a half
			if title != "" {
				pg.Items = append(pg.Items, txt{X: 72, Y: y - 20, Size: 10, Bold: true, S: title})
			}
			pg.Items = append(pg.Items, tableRows(y, 12, cols, bottom, false)...)
			ts := detect(t, pg)
			if title != "" {
				if len(ts) != 2 {
					t.Fatalf("want 2 tables, got %d: %s", len(ts), dump(ts))
				}
				return
			}
			if len(ts) != 1 {
				t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
			}
			wantCells(t, ts[0], append(append([][]string{}, top...), bottom...))
		})
	}
}

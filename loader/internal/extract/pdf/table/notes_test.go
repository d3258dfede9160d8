package table

import "testing"

// TestNotesInsideFrame: footnotes set inside a ruled table's frame, under
// its last row and across its columns, are no rows of the table, and
// the table's box stops above them (the page keeps their text).
func TestNotesInsideFrame(t *testing.T) {
	rows := [][]string{
		{"Indicator", "2013", "2014"},
		{"Total", "3.2", "2.6"},
		{"Per capita", "1.3", "0.7"},
		{"Business sector", "3.4", "2.5"},
	}
	xs := []float64{80, 280, 360, 440}
	var pg page
	pg.Draw = append(pg.Draw, hline(80, 440, 120), hline(80, 440, 136), hline(80, 440, 220))
	for k, x := range xs {
		bottom := 180.0 // column rules stop where the notes begin
		if k == 0 || k == len(xs)-1 {
			bottom = 220
		}
		pg.Draw = append(pg.Draw, vline(x, 120, bottom))
	}
	pg.Draw = append(pg.Draw, hline(80, 440, 180))
	for i, r := range rows {
		y := 132 + 14*float64(i)
		for j, c := range r {
			x := xs[j] + 4
			if j > 0 {
				x = xs[j+1] - 4 - helvWidth(c)
			}
			pg.Items = append(pg.Items, txt{X: x, Y: y, Size: 10, S: c})
		}
	}
	pg.Items = append(pg.Items, prose(84, 196,
		"(1) Private consumption and the spending of the government on personal services.",
		"(2) Total final consumption expenditure per capita, at constant prices.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], rows)
	// the box ends above the notes, so the page keeps them as paragraphs
	if y1 := ts[0].BBox.Y1; y1 > 188 {
		t.Errorf("table box ends at %.1f, below the first note's top (188)", y1)
	}
}

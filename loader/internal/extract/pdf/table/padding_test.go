package table

import "testing"

// TestColumnsAPaddingApart: a small unruled table set to its content's
// width with a cell padding of 7pt at 9pt (the words' boxes a little
// closer), its heads in the body's face, a paragraph right above and
// right below at the same leading: three columns (a head wider than the
// numbers under it closes the gap to them to the padding too). The grid
// took phrases as apart only from 0.7 of a size (6.3pt), so the text
// columns were one ("Name Role", "R. Okafor Project lead").
func TestColumnsAPaddingApart(t *testing.T) {
	const size, pitch, pad = 9.0, 12.0, 7.0
	w := func(s string) float64 { return helvWidth(s) * 0.9 }
	rows := [][]string{{"Name", "Role", "Extension"}, {"R. Okafor", "Project lead", "4218"}, {"M. Dubois", "Site manager", "4923"}, {"S. Tanaka", "Treasurer", "5120"}}
	xs := []float64{42}
	for j := 0; j < 2; j++ {
		wd := 0.0
		for _, r := range rows {
			wd = max(wd, w(r[j]))
		}
		xs = append(xs, xs[j]+wd+pad)
	}
	pg := page{Items: prose(42, 60, "The contacts for the works are listed below; calls outside office hours go to the duty officer.")}
	y := 60 + pitch
	for i, r := range rows {
		y = 60 + pitch*float64(i+1)
		for j, c := range r {
			x := xs[j]
			if i > 0 && j == 2 {
				x = xs[2] + w("Extension") - w(c) // flush right under its head
			}
			pg.Items = append(pg.Items, txt{X: x, Y: y, Size: size, S: c})
		}
	}
	pg.Items = append(pg.Items, prose(42, y+pitch, "Requests for access to the site are made to the site manager at least a day ahead.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	if got := cellsOf(ts[0]); len(got) != len(rows) || len(got[0]) != 3 {
		t.Errorf("want %d rows of 3: %s", len(rows), dump(ts))
	}
}

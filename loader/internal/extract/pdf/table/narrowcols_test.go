package table

import (
	"testing"
)

// chromiumWidth is a phrase's width in chromiumLayout (4.6pt a
// character, 2.5pt a space).
func chromiumWidth(s string) float64 {
	w := 0.0
	for _, r := range s {
		if r == ' ' {
			w += 2.5
			continue
		}
		w += 4.6
	}
	return w
}

// tightColumnsPage lays rows out as a browser sets a table's columns a
// padding apart from each column's widest phrase, under a line of
// running text and over another: each column's phrases start at its left
// edge, or end at its right edge where right[j] (its head set left),
// column j+1 pad[j] after column j.
func tightColumnsPage(rows [][]string, right []bool, pad []float64) []phraseAt {
	ps := []phraseAt{{42, 69.6, "Measured values of the sample as the station reported them for the year."}}
	x := 42.0
	for j := range rows[0] {
		width := 0.0
		for _, r := range rows {
			width = max(width, chromiumWidth(r[j]))
		}
		for i, r := range rows {
			if r[j] == "" {
				continue
			}
			at := x
			if right[j] && i > 0 {
				at = x + width - chromiumWidth(r[j])
			}
			ps = append(ps, phraseAt{at, 100 + 15*float64(i), r[j]})
		}
		if j < len(pad) {
			x += width + pad[j]
		}
	}
	return append(ps, phraseAt{42, 110 + 15*float64(len(rows)), "Figures for the latest year are provisional and may be revised."})
}

// TestTightColumnsApartOnEveryRow: columns a padding apart from each
// column's widest phrase (half a size and a little more), one of them
// right-aligned under a head set left and wider than its cells ("Symbol"
// over "f", "RH"), are columns: on every line their phrases stand
// several sizes apart, though the lines together leave only the padding
// between the columns' extents (hard tune kd-3260, kd-3244, surround
// tune kd-5530, kd-5756: "Output current f" was one cell), and so is a
// last column holding its head alone, set a padding after the widest
// phrase of the column before (surround tune kd-5594: "Price See"). A
// head set left over narrower right-aligned numbers leaves a channel
// too, with no line holding phrases on both of its sides: that column
// stays whole.
func TestTightColumnsApartOnEveryRow(t *testing.T) {
	params := [][]string{
		{"Parameter", "Symbol", "Value"},
		{"Operating current", "f", "192.0"},
		{"Supply voltage", "V", "462.7"},
		{"Weight", "L", "381.7"},
		{"Weight", "RH", "171.6"},
		{"Supply voltage", "Z", "269.4"},
	}
	staff := [][]string{
		{"Name", "Role", "Extension", "Room"},
		{"S. Tanaka", "Site manager", "7027", "A-239"},
		{"J. García", "Chair", "6041", "D-288"},
		{"A. Lindqvist", "Chair", "4697", "A-103"},
		{"A. Lindqvist", "Data officer", "2484", "B-376"},
		{"R. Okafor", "Secretary", "5192", "C-420"},
	}
	parts := [][]string{
		{"Part no.", "Qty", "Price", "See"},
		{"HB-0827", "60", "122.88", ""},
		{"HB-6911", "12", "34.13", ""},
		{"DB-0346", "49", "7.50", ""},
	}
	for _, c := range []struct {
		rows  [][]string
		right []bool
		pad   []float64
	}{
		// Chromium's 5.25pt (7px) at 9pt, which the bins read as 4.5pt
		// (a bin shaved off each side)
		{params, []bool{false, true, false}, []float64{5.25, 5.25}},
		{staff, []bool{false, true, true, false}, []float64{5.25, 5.25, 5.25}},
		// a last column with a head only, the head line alone with
		// phrases on both sides of its channel
		{parts, []bool{false, false, false, false}, []float64{5.25, 5.25, 5.25}},
	} {
		ts := New().DetectTables(chromiumLayout(tightColumnsPage(c.rows, c.right, c.pad)))
		if len(ts) != 1 {
			t.Fatalf("padding %v: want 1 table, got %d: %s", c.pad, len(ts), dump(ts))
		}
		wantCells(t, ts[0], c.rows)
	}
	// "No." set left over numbers set right, none of them under it: no
	// line has phrases on both sides of the channel between them
	ps := []phraseAt{{42, 69.6, "Parts ordered for the repair of the north wing in the week under review."}}
	rows := [][]string{{"Item", "No.", "Price"}, {"Hex bolt M8", "5", "2.50"}, {"Washer", "12", "0.20"}, {"Drive belt", "7", "18.00"}, {"Bearing", "30", "4.75"}}
	for i, r := range rows {
		y := 100 + 15*float64(i)
		ps = append(ps, phraseAt{42, y, r[0]}, phraseAt{160, y, r[2]})
		if i == 0 {
			ps = append(ps, phraseAt{100, y, r[1]})
		} else {
			ps = append(ps, phraseAt{127 - chromiumWidth(r[1]), y, r[1]})
		}
	}
	ps = append(ps, phraseAt{42, 185, "Prices are per piece and exclude the tax."})
	ts := New().DetectTables(chromiumLayout(ps))
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], rows)
}

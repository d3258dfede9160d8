package table

import (
	"slices"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestLabelsCentredOnTwoRows: an unruled web table's cells spanning two
// rows (rowspan), vertically centred on them, laid out as the kinds tune
// page kd-1212: a head ("Indicator") half a row under the group heads'
// line, over the sub-heads' row, and stub labels ("Total", "Other")
// half a row under the first row they span. Each is read in the first
// row it spans, its cell spanning the next row too, its column a column
// of the table (they were rows of one cell, the stub labels' column
// merged with the next).
func TestLabelsCentredOnTwoRows(t *testing.T) {
	const size, pitch = 9.0, 15.7
	xs := []float64{182.5, 214.4, 246.3, 278.2}
	right := func(x float64, s string) txt { return txt{X: x - size*helvWidth(s)/10, Size: size, S: s} }
	centre := func(x float64, s string) txt { return txt{X: x - size*helvWidth(s)/20, Size: size, S: s} }
	at := func(items []txt, y float64) []txt {
		for i := range items {
			items[i].Y = y
		}
		return items
	}
	pg := page{Items: prose(46, 80, "Employment rates by sector and area over three years, in per cent of the population of working age.")}
	y := 140.0
	pg.Items = append(pg.Items, at([]txt{centre(188.4, "Urban"), centre(252.3, "Rural")}, y)...)
	pg.Items = append(pg.Items, at([]txt{{X: 95.7, Size: size, S: "Indicator"}}, y+pitch/2)...)
	y += pitch
	pg.Items = append(pg.Items, at([]txt{right(xs[0], "2024"), right(xs[1], "2025"), right(xs[2], "2024"), right(xs[3], "2025")}, y)...)
	want := [][]string{
		{"", "Indicator", "Urban", "", "Rural", ""},
		{"", "", "2024", "2025", "2024", "2025"},
	}
	body := []struct{ group, label, a, b, c, d string }{
		{"Total", "35-49", "82.4", "29.1", "44.4", "8.4"},
		{"", "Manufacturing", "15.4", "23.9", "72.7", "35.9"},
		{"Other", "Retail", "89.2", "45.5", "36.3", "33.6"},
		{"", "Construction", "56.4", "76.0", "31.2", "84.5"},
		{"North", "50-64", "52.1", "6.3", "21.2", "28.4"},
		{"", "16-24", "53.4", "72.4", "38.1", "35.7"},
	}
	for _, r := range body {
		y += pitch
		pg.Items = append(pg.Items, at([]txt{{X: 82.5, Size: size, S: r.label},
			right(xs[0], r.a), right(xs[1], r.b), right(xs[2], r.c), right(xs[3], r.d)}, y)...)
		if r.group != "" {
			pg.Items = append(pg.Items, at([]txt{{X: 46.5, Size: size, S: r.group}}, y+pitch/2)...)
		}
		want = append(want, []string{r.group, r.label, r.a, r.b, r.c, r.d})
	}
	pg.Items = append(pg.Items, prose(46, y+40, "Figures for the latest year are provisional and may be revised when the survey closes.")...)
	// each moved label's cell spans its row and the next (the heads'
	// column spans as well)
	wantSpans(t, pg, want, []document.CellSpan{{Row: 0, Col: 1, Rows: 2, Cols: 1}, {Row: 2, Col: 0, Rows: 2, Cols: 1}, {Row: 4, Col: 0, Rows: 2, Cols: 1}, {Row: 6, Col: 0, Rows: 2, Cols: 1}})
}

// wantSpans: the page holds one table, of these cells, with these spans
// among its spans.
func wantSpans(t *testing.T, pg page, want [][]string, spans []document.CellSpan) {
	t.Helper()
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], want)
	for _, sp := range spans {
		if !slices.Contains(ts[0].Spans, sp) {
			t.Errorf("no span %+v in %+v", sp, ts[0].Spans)
		}
	}
}

// TestLabelsCentredOnThreeRows: group labels centred on their groups'
// rows, laid out as the kinds tune page kd-1140: "North" over three rows
// stands level with the middle one, "Total" over two half a row under
// the first. Each is read in its group's first row, its cell spanning the
// group ("North" was read in the middle row).
func TestLabelsCentredOnThreeRows(t *testing.T) {
	const size, pitch = 9.0, 15.7
	xs := []float64{182.5, 214.4, 246.3, 278.2}
	right := func(x float64, s string) txt { return txt{X: x - size*helvWidth(s)/10, Size: size, S: s} }
	pg := page{Items: prose(46, 80, "Employment rates by sector and area over two years, in per cent of the population of working age.")}
	y := 140.0
	for j, s := range []string{"2024", "2025", "2024", "2025"} {
		pg.Items = append(pg.Items, right(xs[j], s))
	}
	pg.Items = append(pg.Items, txt{X: 82.5, Size: size, S: "Sector"})
	for k := range pg.Items[len(pg.Items)-5:] {
		pg.Items[len(pg.Items)-5+k].Y = y
	}
	want := [][]string{{"", "Sector", "2024", "2025", "2024", "2025"}}
	body := []struct{ group, label, a, b, c, d string }{
		{"North", "Construction", "74.9", "18.3", "85.2", "77.5"},
		{"", "Public sector", "48.9", "20.9", "53.4", "93.0"},
		{"", "Manufacturing", "29.9", "69.6", "85.7", "90.4"},
		{"Total", "50-64", "68.5", "96.7", "56.2", "11.4"},
		{"", "16-24", "62.0", "19.3", "68.9", "69.1"},
	}
	for i, r := range body {
		y += pitch
		row := []txt{{X: 82.5, Size: size, S: r.label}, right(xs[0], r.a), right(xs[1], r.b), right(xs[2], r.c), right(xs[3], r.d)}
		switch i {
		case 1:
			row = append(row, txt{X: 46.5, Size: size, S: "North"}) // level with the middle of three
		case 3:
			row = append(row, txt{X: 46.5, Y: pitch / 2, Size: size, S: "Total"}) // half a row under the first of two
		}
		for k := range row {
			row[k].Y += y
		}
		pg.Items = append(pg.Items, row...)
		want = append(want, []string{r.group, r.label, r.a, r.b, r.c, r.d})
	}
	pg.Items = append(pg.Items, prose(46, y+40, "Figures for the latest year are provisional and may be revised when the survey closes.")...)
	wantSpans(t, pg, want, []document.CellSpan{{Row: 1, Col: 0, Rows: 3, Cols: 1}, {Row: 4, Col: 0, Rows: 2, Cols: 1}})
}

// TestRowspanLabelInAFrame: a web table with an outer border and no
// rule inside (read on the ruled path, its lines cut into rows as an
// unruled table's) whose first column holds a cell spanning two rows,
// centred on them ("Hose clamp" half a row under "WS-9607  337.22"),
// reads it in the first row it spans, as the unruled scan does
// (spanLabels): it was a row of its own between the two (surround tune
// kd-5650, kd-5700, hard tune kd-3468, kd-3546).
func TestRowspanLabelInAFrame(t *testing.T) {
	rows := [][]string{
		{"Component", "Part no.", "Price"},
		{"Hose clamp", "WS-9607", "337.22"},
		{"", "BR-1673", "246.83"},
		{"Drive belt", "DB-0887", "347.36"},
		{"Washer", "SK-8490", "12.00"},
		{"Drive belt", "RL-4283", "111.04"},
	}
	pg := page{Items: prose(72, 80, "The parts ordered for the repair of the north wing, with the numbers",
		"of the supplier's catalogue and the price of each, tax included.")}
	for i, r := range rows {
		y := 130 + 17*float64(i)
		for j, c := range r {
			switch {
			case c == "":
			case i == 1 && j == 0:
				pg.Items = append(pg.Items, txt{X: 78, Y: y + 8.5, Size: 10, S: c}) // centred on its two rows
			default:
				pg.Items = append(pg.Items, txt{X: 78 + 80*float64(j), Y: y, Size: 10, S: c})
			}
		}
	}
	pg.Draw = append(pg.Draw, hline(70, 300, 118), hline(70, 300, 232), vline(70, 118, 232), vline(300, 118, 232))
	pg.Items = append(pg.Items, prose(72, 254, "Prices are those of the last order and may change.")...)
	wantTable(t, pg, rows)
}

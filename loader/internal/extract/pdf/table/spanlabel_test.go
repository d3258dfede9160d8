package table

import (
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
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], want)
	// each moved label's cell spans its row and the next (the heads'
	// column spans as well)
	spans := map[document.CellSpan]bool{}
	for _, sp := range ts[0].Spans {
		spans[sp] = true
	}
	for _, sp := range []document.CellSpan{{Row: 0, Col: 1, Rows: 2, Cols: 1}, {Row: 2, Col: 0, Rows: 2, Cols: 1}, {Row: 4, Col: 0, Rows: 2, Cols: 1}, {Row: 6, Col: 0, Rows: 2, Cols: 1}} {
		if !spans[sp] {
			t.Errorf("no span %+v in %+v", sp, ts[0].Spans)
		}
	}
}

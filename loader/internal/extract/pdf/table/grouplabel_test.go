package table

import (
	"reflect"
	"testing"
)

// TestGroupLabelBetweenItsRows: a booktabs table whose group labels sit
// each on a baseline of its own, centred between its group's two rows
// (tablegen's groups layout: tune seeds 80 and 164; and a page built
// here, labels in another font size over three columns of values).
// The stub column of labels stood apart across a gap wider than the
// column gaps, on baselines the rows do not share, so it was cut off as
// a block beside the table: the table lost its label column and read
// each group as one row. Now the labels are the table's first column.
func TestGroupLabelBetweenItsRows(t *testing.T) {
	for _, seed := range []uint64{80, 164} {
		doc, ts := detectGenerated(t, seed, "groups")
		rows, cols := truthRows(doc.Tables[0]), 0
		for _, c := range doc.Tables[0].Cells {
			cols = max(cols, c.C1+1)
		}
		if len(ts) != 1 || len(cellsOf(ts[0])) != rows || len(cellsOf(ts[0])[0]) != cols {
			t.Errorf("seed %d: want 1 table of %d rows and %d columns: %s", seed, rows, cols, dump(ts))
		}
	}
	pg, want := groupLabelPage()
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	if got := cellsOf(ts[0]); !reflect.DeepEqual(got, want) {
		t.Errorf("cells:\n got %q\nwant %q", got, want)
	}
}

// groupLabelPage is a paragraph over a table of three groups of two rows
// between rules, each group's label (8pt) centred between its rows (9pt,
// 11pt apart), and a paragraph under it.
func groupLabelPage() (page, [][]string) {
	groups := []struct {
		label string
		rows  [][]string
	}{
		{"North", [][]string{{"Harbour dues", "1,204", "17.5", "2019"}, {"Road tolls", "865", "4.2", "2021"}}},
		{"Coastal", [][]string{{"Ferry fares", "12,090", "31.0", "2018"}, {"Moorings", "77", "0.9", "2020"}}},
		{"Upland", [][]string{{"Grazing rights", "3,411", "8.8", "2017"}, {"Water levies", "2,006", "6.1", "2022"}}},
	}
	pg := page{Items: prose(72, 80, "Receipts by district and source, in thousands, for the years shown.")}
	ends := []float64{330, 390, 450} // the value columns, set flush right
	cell := func(j int, s string, y float64) txt {
		return txt{X: ends[j] - helvWidth(s)*0.9, Y: y, Size: 9, S: s}
	}
	y := 120.0
	pg.Draw = append(pg.Draw, hline(70, 452, y-10))
	pg.Items = append(pg.Items, txt{X: 72, Y: y, Size: 9, S: "District"}, txt{X: 150, Y: y, Size: 9, S: "Source"},
		cell(0, "Amount", y), cell(1, "Share", y), cell(2, "Since", y))
	want := [][]string{{"District", "Source", "Amount", "Share", "Since"}}
	for _, g := range groups {
		pg.Draw = append(pg.Draw, hline(70, 452, y+4))
		y += 15
		pg.Items = append(pg.Items, txt{X: 72, Y: y + 5.5, Size: 8, S: g.label})
		for k, r := range g.rows {
			pg.Items = append(pg.Items, txt{X: 150, Y: y, Size: 9, S: r[0]})
			for j, v := range r[1:] {
				pg.Items = append(pg.Items, cell(j, v, y))
			}
			label := ""
			if k == 0 {
				label = g.label
			}
			want = append(want, append([]string{label}, r...))
			if k == 0 {
				y += 11
			}
		}
	}
	pg.Draw = append(pg.Draw, hline(70, 452, y+4))
	pg.Items = append(pg.Items, prose(72, y+30, "The figures for the last year are provisional and may be revised.")...)
	return pg, want
}

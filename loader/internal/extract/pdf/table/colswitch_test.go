package table

import "testing"

// TestStackedTablesOfOtherColumns: a table set right under another at
// the same row pitch (no wider gap between them), in the same style, is
// a table of its own when its columns differ: a fourth column where the
// first table has no text, or a narrow table under a wide table's
// numeric columns. Each was read as one table with the other.
func TestStackedTablesOfOtherColumns(t *testing.T) {
	cases := []struct {
		name       string
		colsA      []col
		a          [][]string
		colsB      []col
		b          [][]string
		pitchAfter float64
	}{
		{"a fourth column under a table of three",
			[]col{{72, false}, {170, false}, {290, true}},
			[][]string{{"Component", "Part no.", "Qty"}, {"Seal kit", "HB-3611", "36"}, {"Hose clamp", "HB-5179", "57"},
				{"Fuse 10 A", "WS-9515", "16"}, {"Bearing 6204", "RL-0137", "48"}},
			[]col{{90, false}, {170, false}, {290, true}, {390, true}},
			[][]string{{"Chile", "Lima", "76.2", "780,274"}, {"Austria", "Oslo", "47.1", "567,311"}, {"Kenya", "Accra", "21.2", "978,321"}},
			13},
		{"a narrow table under a wide one",
			[]col{{72, false}, {250, true}, {320, true}, {390, true}, {460, true}},
			[][]string{{"Sector", "2023", "2024", "2025", "2026"}, {"Agriculture", "74.9", "18.3", "85.2", "77.5"},
				{"Manufacturing", "48.9", "20.9", "53.4", "93.0"}, {"Construction", "29.9", "69.6", "85.7", "90.4"},
				{"Public sector", "68.5", "96.7", "56.2", "11.4"}},
			[]col{{72, false}, {170, false}},
			[][]string{{"Country", "Capital"}, {"Norway", "Oslo"}, {"Finland", "Helsinki"}, {"Ghana", "Accra"}, {"Chile", "Santiago"}},
			13},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pg := page{Items: prose(72, 80,
				"The figures below were taken from the annual returns of the regional offices and",
				"checked against the ledgers before they were published in this report.")}
			y := 130.0
			pg.Items = append(pg.Items, tableRows(y, 13, c.colsA, c.a, true)...)
			y += float64(len(c.a)-1)*13 + c.pitchAfter
			pg.Items = append(pg.Items, tableRows(y, 13, c.colsB, c.b, false)...)
			y += float64(len(c.b))*13 + 20
			pg.Items = append(pg.Items, prose(72, y, "Both tables are provisional and will be revised when the audit is complete.")...)
			ts := detect(t, pg)
			if len(ts) != 2 {
				t.Fatalf("want 2 tables, got %d: %s", len(ts), dump(ts))
			}
			wantCells(t, ts[0], c.a)
			wantCells(t, ts[1], c.b)
		})
	}
}

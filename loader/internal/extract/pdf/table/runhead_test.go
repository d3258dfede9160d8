package table

import (
	"strings"
	"testing"
)

// TestRunningHeadNoRow: a page's running head (a page number at one edge
// of the text column, a section's title at the other) over a table that
// starts a line under it, narrower than the head: the head is no row or
// heads of the table. Pages built here, with a rule under the head and
// without one, and tablegen's runhead layout (tune seeds 78 and 100,
// neither with a rule). The head was read as the table's first row.
func TestRunningHeadNoRow(t *testing.T) {
	for _, seed := range []uint64{78, 100} {
		doc, ts := detectGenerated(t, seed, "runhead")
		rows := truthRows(doc.Tables[0])
		if len(ts) != 1 || len(cellsOf(ts[0])) != rows {
			t.Errorf("seed %d: want 1 table of %d rows: %s", seed, rows, dump(ts))
		}
	}
	for _, rule := range []bool{true, false} {
		pg := page{Items: []txt{{X: 60, Y: 40, Size: 8.5, S: "page 41"},
			{X: 540 - helvWidth("4.2 Records and their fields")*0.85, Y: 40, Size: 8.5, S: "4.2 Records and their fields"}}}
		if rule {
			pg.Draw = append(pg.Draw, hline(60, 540, 44))
		}
		want, y := regionTable(&pg, 72, 58)
		pg.Items = append(pg.Items, prose(72, y+30, "The counts are of records kept on the file at the end of the year.")...)
		ts := detect(t, pg)
		if len(ts) != 1 {
			t.Errorf("rule %v: want 1 table, got %d: %s", rule, len(ts), dump(ts))
			continue
		}
		if d := dump(ts); strings.Contains(d, "page 41") || len(cellsOf(ts[0])) != len(want) {
			t.Errorf("rule %v: want the %d rows without the head: %s", rule, len(want), d)
		}
	}
}

// TestRunningHeadClose: a running head as close to the line under it as
// a table's own lines are (no rule, less than half its size apart: the
// case runningHead leaves to the table), over a line naming the exhibit
// and a table narrower than the head, with running text under the table
// as wide as the head: the head is no row of the table, and the exhibit
// line none either. Pages built here and tablegen's runhead layout (tune
// seeds 742 and 818, read over the tune split's seeds to 1200). Checked:
// fails on main (the head and the exhibit line are the table's first
// rows).
func TestRunningHeadClose(t *testing.T) {
	for _, seed := range []uint64{742, 818} {
		doc, ts := detectGenerated(t, seed, "runhead")
		if len(ts) != 1 {
			t.Errorf("seed %d: want 1 table: %s", seed, dump(ts))
			continue
		}
		for _, m := range doc.Furniture {
			if m.Base == doc.Furniture[0].Base && strings.Contains(dump(ts), m.Text) {
				t.Errorf("seed %d: the running head's %q read as the table's: %s", seed, m.Text, dump(ts))
			}
		}
	}
	pg := page{Items: []txt{{X: 60, Y: 40, Size: 8.5, S: "- 116 -"},
		{X: 540 - helvWidth("Regional accounts, 2019 edition")*0.85, Y: 40, Size: 8.5, S: "Regional accounts, 2019 edition"},
		{X: 60, Y: 50, Size: 9, S: "Listing 2.20, part 2 of 4"}}}
	want, y := regionTable(&pg, 64, 66)
	pg.Items = append(pg.Items, prose(60, y+24, "The counts are of records kept on the file at the end of the year, for every region of the country.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	if d := dump(ts); strings.Contains(d, "116") || strings.Contains(d, "Listing") {
		t.Errorf("the running head or the exhibit line read as the table's: %s", d)
	}
	wantCells(t, ts[0], want)
}

// regionTable adds the small Region / Count / Share table both running
// head tests put under their head: its heads at y, its first column at
// x, the numbers right-aligned at 230 and 290. It returns the table's
// cells and the last row's y.
func regionTable(pg *page, x, y float64) ([][]string, float64) {
	pg.Items = append(pg.Items, txt{X: x, Y: y, Size: 9, S: "Region"}, txt{X: 200, Y: y, Size: 9, S: "Count"},
		txt{X: 260, Y: y, Size: 9, S: "Share"})
	want := [][]string{{"Region", "Count", "Share"}}
	for _, r := range [][]string{{"North", "1,204", "17.5"}, {"South", "865", "4.2"}, {"East", "12,090", "31.0"},
		{"West", "77", "0.9"}, {"Centre", "3,411", "8.8"}} {
		y += 12
		pg.Items = append(pg.Items, txt{X: x, Y: y, Size: 9, S: r[0]},
			txt{X: 230 - helvWidth(r[1])*0.9, Y: y, Size: 9, S: r[1]}, txt{X: 290 - helvWidth(r[2])*0.9, Y: y, Size: 9, S: r[2]})
		want = append(want, r)
	}
	return want, y
}

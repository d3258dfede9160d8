package table

import (
	"strings"
	"testing"
)

// TestParagraphLineBetweenTables: two tables of other columns one under
// the other, a one-line paragraph between them as close as a couple of
// rows' gaps (so the run of aligned lines goes on through it) and further
// from the table above than from the one below: the paragraph's line is
// neither table's.
func TestParagraphLineBetweenTables(t *testing.T) {
	first := [][]string{
		{"Region", "Households", "Persons"},
		{"Northern", "12,345", "30,112"}, {"Southern", "8,210", "19,400"}, {"Eastern", "17,902", "41,230"}, {"Western", "5,377", "12,008"},
	}
	second := [][]string{
		{"Programme of the council", "Stage", "Budget", "Spent"},
		{"Schools and further colleges", "approved", "$1,200", "$800"}, {"Public transport and roads", "pending", "$950", "$120"},
		{"Social housing in the towns", "planned", "$2,310", "$0"}, {"Water supply and drainage", "review", "$610", "$455"},
	}
	const para = "The programmes below were agreed by the council in the spring of that year."
	pg := page{Items: prose(72, 80, "Households and persons by region at the end of the year, as reported by the offices.")}
	items, _ := setTable(first, 72, 120, 40)
	pg.Items = append(pg.Items, items...)
	y := 120 + 12*float64(len(first)-1) + 19
	pg.Items = append(pg.Items, txt{X: 72, Y: y, Size: 9, S: para})
	items, _ = setTable(second, 72, y+15, 18)
	pg.Items = append(pg.Items, items...)
	pg.Items = append(pg.Items, prose(72, y+15+12*float64(len(second))+20, "Figures for the latest year are provisional.")...)
	ts := detect(t, pg)
	if len(ts) != 2 {
		t.Fatalf("want 2 tables, got %d: %s", len(ts), dump(ts))
	}
	for i, want := range [][][]string{first, second} {
		got := cellsOf(ts[i])
		if len(got) != len(want) || len(got[0]) != len(want[0]) || strings.Contains(dump(ts[i:i+1]), "agreed by") {
			t.Errorf("table %d: %d rows of %d, want %d of %d, the paragraph out: %s", i, len(got), len(got[0]), len(want), len(want[0]), dump(ts))
		}
	}
}

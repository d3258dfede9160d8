package table

import (
	"slices"
	"testing"
)

// TestGroupHeadOverYears: a statement's group head ("Six months to 30
// June", bold as the heads, right-aligned over the last of the two year
// columns it spans, a web table's th) over the year heads: the year heads
// are a row of their own under it, the group head a row above them. The
// year under it was read as the group head's wrapped last word ("Six
// months to 30 June 2025"), the other year beside it, one head row. A
// head wrapped beside the years ("Growth Rate" over "Index", the years
// level with "Index") stays one head, as before.
func TestGroupHeadOverYears(t *testing.T) {
	const size, pitch = 9.0, 13.5
	ends := []float64{383.5, 565.5}
	page := func(group string, heads []string) page {
		pg := page{Items: prose(42, 70, "The group's results for the half year are set out below, with the figures of the half year before.")}
		y := 110.0
		pg.Items = append(pg.Items, txt{X: ends[1] - helvWidth(group)*0.9, Y: y, Size: size, Bold: true, S: group})
		y += pitch
		for j, h := range heads {
			pg.Items = append(pg.Items, txt{X: ends[j] - helvWidth(h)*0.9, Y: y, Size: size, Bold: true, S: h})
		}
		for _, r := range [][]string{
			{"Other operating income", "1,121,211", "660,890"},
			{"Income tax expense", "648,698", "2,101,680"},
			{"Sales of goods", "731,410", "1,406,079"},
			{"Trade and other receivables", "1,477,560", "2,751,450"},
			{"Right-of-use assets", "21,522", "2,432,080"},
		} {
			y += pitch
			pg.Items = append(pg.Items, statementRow(r, 52, y, ends)...)
		}
		pg.Items = append(pg.Items, prose(42, y+2*pitch, "The notes on the following pages are part of these statements.")...)
		return pg
	}
	for _, c := range []struct {
		group string
		heads []string
		want  [][]string
	}{
		{"Six months to 30 June", []string{"2026", "2025"}, [][]string{{"", "", "Six months to 30 June"}, {"", "2026", "2025"}}},
		{"Growth Rate", []string{"2021", "Index"}, [][]string{{"", "2021", "Growth Rate Index"}}},
	} {
		ts := detect(t, page(c.group, c.heads))
		if len(ts) != 1 {
			t.Fatalf("%s: want 1 table, got %d: %s", c.group, len(ts), dump(ts))
		}
		got := cellsOf(ts[0])
		if len(got) != len(c.want)+5 || !slices.EqualFunc(got[:len(c.want)], c.want, slices.Equal) {
			t.Errorf("%s: got %q, want the heads %q, then 5 rows", c.group, got, c.want)
		}
	}
}

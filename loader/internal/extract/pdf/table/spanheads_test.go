package table

import (
	"path/filepath"
	"testing"
)

// groupHeadPage lays out a statement as a browser sets it: a group
// head over the year columns on the first head line, the years on the
// second, and the stub head (with heads beside it, heads) spanning both
// head rows, vertically centred on them, half a row under the group
// head's line.
func groupHeadPage(group string, heads []txt, rows [][]string) page {
	const size, pitch = 9.0, 15.7
	xs := []float64{300, 360, 420}
	right := func(x float64, s string) txt { return txt{X: x - size*helvWidth(s)/10, Size: size, S: s} }
	at := func(items []txt, y float64) []txt {
		for i := range items {
			items[i].Y = y
		}
		return items
	}
	pg := page{Items: prose(46, 80, "Figures of the group for the three years, in thousands, as reported to the board in its last meeting.")}
	y := 140.0
	pg.Items = append(pg.Items, at([]txt{{X: 338, Size: size, S: group}}, y)...)
	pg.Items = append(pg.Items, at(heads, y+pitch/2)...)
	y += pitch
	pg.Items = append(pg.Items, at([]txt{right(xs[0], "2021"), right(xs[1], "2020"), right(xs[2], "2019")}, y)...)
	for _, r := range rows {
		y += pitch
		pg.Items = append(pg.Items, at([]txt{{X: 50, Size: size, S: r[0]}, right(xs[0], r[1]), right(xs[1], r[2]), right(xs[2], r[3])}, y)...)
	}
	pg.Items = append(pg.Items, prose(46, y+40, "The figures for the latest year are provisional and may be revised when the audit closes.")...)
	return pg
}

var groupHeadBody = [][]string{
	{"Interest paid", "934,956", "12,400", "219,121"},
	{"Deferred tax assets", "95,861", "75,896", "53,638"},
	{"Sales of goods", "297,160", "170,038", "10,212"},
	{"Share-based payment reserve", "79,079", "539,700", "10,754"},
}

// TestStubHeadCentredBesideGroupHead: the stub head spanning both head
// rows ("Account", centred on them) beside a group head over the years
// ("Group" over "2021 2020 2019") is read in the first
// head row, as spanLabels reads a label spanning two rows (styles tune
// kd-7040, kd-7058): it was a head row of its own between the two.
func TestStubHeadCentredBesideGroupHead(t *testing.T) {
	pg := groupHeadPage("Group", []txt{{X: 90, Size: 9, S: "Account"}}, groupHeadBody)
	want := [][]string{{"Account", "Group", "", ""}, {"", "2021", "2020", "2019"}}
	wantTable(t, pg, append(want, groupHeadBody...))
}

// The styles set's tune page 7008 (eval-tables): a table in a site's
// CSS with column rules, its heads "Category", "Site" and "Status"
// spanning both head rows, centred on them, beside the group head
// "Staff" over "n" and "2026" (figures 3pt apart): the three are read in
// the first head row (they were a head row of their own between the
// group head's and the sub-heads').
func TestHeadsCentredBesideGroupHeadStyles(t *testing.T) {
	ts := detectFile(t, filepath.Join("testdata", "styles-7008.pdf"))
	if len(ts) == 0 {
		t.Fatal("no table")
	}
	rows := cellsOf(ts[0])
	want := [][]string{{"Category", "Site", "Staff", "", "Status"}, {"", "", "n", "2026", ""}, {"Central", "Workshop B", "988", "452", "747"}}
	if len(rows) < len(want) {
		t.Fatalf("rows %q", rows)
	}
	for i, w := range want {
		if !equalRow(rows[i], w) {
			t.Errorf("row %d: got %q, want %q", i, rows[i], w)
		}
	}
}

// TestWrappedHeadsNoGroupHead: the kinds set's tune page 1306
// (eval-tables): heads wrapped in their cells, a phrase over each of the
// next line's ("Treatment" over "(n = 254)"), with the one-line heads
// beside them centred on both lines ("Characteristic", "p"), are one
// head row: the wrapped heads' first line is no group head over the
// second (a first form of groupHeads took it for one and made two head
// rows).
func TestWrappedHeadsNoGroupHead(t *testing.T) {
	ts := detectFile(t, filepath.Join("testdata", "kinds-1306.pdf"))
	if len(ts) == 0 {
		t.Fatal("no table")
	}
	rows := cellsOf(ts[0])
	if want := []string{"Characteristic", "Treatment (n = 254)", "Control (n = 169)", "Site 1 (n = 387)", "p"}; !equalRow(rows[0], want) {
		t.Errorf("head %q, want %q (next %q)", rows[0], want, rows[1])
	}
}

func equalRow(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

package table

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// A paragraph set tight over a small unruled table, at the table's own
// leading (the hard set's commonest miss, tables28): its last line is no
// head of the table and no first row's label, whether it is short (a
// sentence's tail, "above the limits set.") over columns only a cell's
// padding apart, or a whole line of text over a label column whose
// widest label comes within a padding of its number.
func TestParagraphTightOverTable(t *testing.T) {
	const size, pitch = 9.0, 12.0
	w := func(s string) float64 { return helvWidth(s) * size / 10 }
	line := func(x, y float64, s string) txt { return txt{X: x, Y: y, Size: size, S: s} }
	// table draws rows at y0 on, columns pad apart (helvWidth's widths run
	// a little wide: 9 leaves about 6pt), the last flush right
	table := func(pg *page, y0, pad float64, rows [][]string) float64 {
		xs := []float64{42}
		for j := 0; j+1 < len(rows[0]); j++ {
			wd := 0.0
			for _, r := range rows {
				wd = max(wd, w(r[j]))
			}
			xs = append(xs, xs[j]+wd+pad)
		}
		right := 0.0
		for _, r := range rows {
			right = max(right, w(r[len(r)-1]))
		}
		y := y0
		for i, r := range rows {
			y = y0 + pitch*float64(i)
			for j, c := range r {
				x := xs[j]
				if j == len(r)-1 && j > 0 {
					x = xs[j] + right - w(c)
				}
				pg.Items = append(pg.Items, line(x, y, c))
			}
		}
		return y
	}
	check := func(name string, pg page, want [][]string) {
		t.Helper()
		ts := detect(t, pg)
		if len(ts) != 1 {
			t.Fatalf("%s: want 1 table, got %d: %s", name, len(ts), dump(ts))
		}
		got := cellsOf(ts[0])
		if len(got) != len(want) || len(got[0]) != len(want[0]) || strings.Join(got[0], "|") != strings.Join(want[0], "|") {
			t.Errorf("%s: want %d rows of %d starting %q: %s", name, len(want), len(want[0]), want[0], dump(ts))
		}
	}

	// a sentence's tail over columns a padding apart
	rows := [][]string{{"R. Okafor", "Project lead", "4218"}, {"M. Dubois", "Site manager", "4923"}, {"S. Tanaka", "Treasurer", "5120"},
		{"K. Mensah", "Data officer", "6047"}, {"P. Novak", "Member", "7311"}}
	pg := page{Items: []txt{
		line(42, 48, "The contacts for the works during the summer closure are listed below and the duty officer takes"),
		line(42, 60, "calls out of hours."),
	}}
	y := table(&pg, 72, 9, rows)
	pg.Items = append(pg.Items, line(42, y+pitch, "Requests for access to the site are made to the site manager at least a day ahead of the visit."))
	check("tail", pg, rows)

	// a whole line of text over labels, the widest within a padding of its number
	rows = [][]string{{"Fuse 10 A", "55"}, {"Hex bolt M8 long", "37"}, {"Relay 24 V", "56"}, {"Hose clamp", "13"}, {"Drive belt", "7"}}
	pg = page{Items: []txt{
		line(42, 48, "Spare parts were drawn from the central store during the quarter for the maintenance of the"),
		line(42, 60, "pumping stations, the counts below being the parts issued to the three crews."),
	}}
	y = table(&pg, 72, 2, rows)
	pg.Items = append(pg.Items, line(42, y+pitch, "Parts issued in the last week of the quarter are counted in the next quarter's figures as before."))
	check("label", pg, rows)
}

// A line of running text between two small tables set tight one over
// the other (no margins, the page's leading) ends the first: it runs on
// past the tables' right edge, so it is no row, and the two are not read
// as one table with a paragraph row in the middle. The page is the hard
// set's kd-3028 (a tune page, Chromium-printed: eval-tables -only hard),
// its second table's heads a cell's padding apart (one phrase).
func TestParagraphRunsPastBetweenTables(t *testing.T) {
	ts := detectFile(t, filepath.Join("testdata", "hard-3028.pdf"))
	want := [][]string{{"25 November", "Opening remarks", "Ms Haddad", "10:15"}, {"Grade", "Score", "Students", "Share"}}
	if len(ts) != 2 {
		t.Fatalf("want 2 tables, got %d: %s", len(ts), dump(ts))
	}
	for k, n := range []int{3, 4} {
		if got := cellsOf(ts[k]); len(got) != n || strings.Join(got[0], "|") != strings.Join(want[k], "|") {
			t.Errorf("table %d: want %d rows starting %q: %s", k, n, want[k], dump(ts))
		}
	}
}

// A table with a rule between every two rows and none under it (a style
// of rules over every row but the first): its last row, under the last
// rule, is the table's. The page is the hard set's kd-3004 (generator
// v2, a tune page, Chromium-printed), its rules a full row apart, the
// table's cells a padding apart.
func TestLastRowUnderLastRule(t *testing.T) {
	ts := detectFile(t, filepath.Join("testdata", "hard2-3004.pdf"))
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	if got := cellsOf(ts[0]); len(got) != 5 || got[0][0] != "Name" || got[4][0] != "R. Okafor" || got[4][1] != "Data officer" {
		t.Errorf("want 5 rows, the head first, the last R. Okafor's (Data officer): %s", dump(ts))
	}
}

// A small unruled table whose columns are a cell's padding apart (~6pt,
// under the run's 0.9-size phrase gap): its lines are rows all the same,
// their phrases lining up from line to line (the hard set's kd-3010,
// generator v2, a tune page: a caption and tight paragraphs around it).
func TestColumnsAPaddingApartMakeARun(t *testing.T) {
	ts := detectFile(t, filepath.Join("testdata", "hard2-3010.pdf"))
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	want := [][]string{{"Component", "Price"}, {"Relay 24 V", "106.34"}, {"Hose clamp", "362.08"}, {"Washer", "9.96"}}
	if got := cellsOf(ts[0]); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("want %q: %s", want, dump(ts))
	}
}

// Lines a padding apart make a run only where a neighbour's phrases line
// up with theirs: a short title whose word spaces happen to be wide (OCR
// text over a scan: tabula's jpeg2000.pdf, a visible corpus file) stays
// out of the table under it.
func TestWideSpacedTitleStaysOut(t *testing.T) {
	ts := detectFile(t, filepath.Join("testdata", "tabula-jpeg2000.pdf"))
	if len(ts) == 0 {
		t.Fatal("no table")
	}
	for _, tb := range ts {
		for _, r := range cellsOf(tb) {
			if s := strings.Join(r, " "); strings.Contains(s, "WALLISVILLE") {
				t.Errorf("the title over the table taken in: %q: %s", s, dump(ts))
			}
		}
	}
}

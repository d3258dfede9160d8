package table

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"codeberg.org/go-pdf/fpdf"

	"github.com/docket-dev/docket/loader/internal/extract/pdf/tablegen"
)

// TestHeadsWrappedOverSeveralLines: a generated booktabs table (tablegen
// seed 200, layout wrapheads) whose column heads wrap over up to six
// lines, centred over narrow number columns, so the head lines' phrases
// cross the body's column gaps and the run of lines is cut between head
// and body. The head lines are no table of their own: they head the body
// under them. Most words of the truth's heads are in the detected
// table's first row (before, the table was found without them).
func TestHeadsWrappedOverSeveralLines(t *testing.T) {
	doc, err := tablegen.GenerateLayout(200, "wrapheads")
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Tables) != 1 || doc.Tables[0].Style != tablegen.Booktabs {
		t.Fatalf("the generator's seed 200 page changed: %d tables", len(doc.Tables))
	}
	var heads []string
	for _, c := range doc.Tables[0].Cells {
		if c.R0 == 0 {
			heads = append(heads, strings.Fields(c.Text)...)
		}
	}
	name := filepath.Join(t.TempDir(), "gen.pdf")
	if err := os.WriteFile(name, doc.PDF, 0o644); err != nil {
		t.Fatal(err)
	}
	ts := detectFile(t, name)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	first := map[string]int{}
	for _, c := range cellsOf(ts[0])[0] {
		for _, w := range strings.Fields(c) {
			first[w]++
		}
	}
	found := 0
	for _, w := range heads {
		if first[w] > 0 {
			first[w]--
			found++
		}
	}
	if 10*found < 8*len(heads) {
		t.Errorf("%d of the %d head words in the first row: %q", found, len(heads), cellsOf(ts[0])[0])
	}
}

// TestHeadsWrappedBottomAligned: column heads of several words wrapped
// over narrow number columns and set bottom-aligned, centred over their
// column, so that the head's first lines stand alone above the line with
// the stub head and the one-line heads: the head's lines are one header
// cell, not header rows of their own ("Change" over "Amount" over
// "Persons" is one head; two heads wrapped over two lines with no stub
// head beside them too).
func TestHeadsWrappedBottomAligned(t *testing.T) {
	centred := func(x, y float64, s string) txt {
		return txt{X: x - helvWidth(s)/2, Y: y, Size: 10, Bold: true, S: s}
	}
	cols := []col{{72, false}, {250, true}, {330, true}}
	for _, tc := range []struct {
		name  string
		heads []txt
		want  [][]string
	}{
		{"three lines beside a stub head", []txt{
			centred(232, 130, "Change"), centred(232, 141, "Amount"),
			{X: 72, Y: 152, Size: 10, Bold: true, S: "Country"}, centred(232, 152, "Persons"), centred(312, 152, "Rate")},
			[][]string{{"Country", "Change Amount Persons", "Rate"}}},
		{"two heads of two lines, no stub head", []txt{
			centred(232, 141, "Change"), centred(312, 141, "Annual"), centred(232, 152, "Estimate"), centred(312, 152, "Rate")},
			[][]string{{"", "Change Estimate", "Annual Rate"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := [][]string{
				{"Hungary", "-13,781", "4.2"},
				{"Greece", "93,078", "1.7"},
				{"Denmark", "59,446", "3.9"},
				{"Finland", "21,310", "2.5"},
			}
			pg := page{}
			pg.Items = append(pg.Items, prose(72, 90, "Change in the number of persons employed, by country, in the third quarter.")...)
			pg.Items = append(pg.Items, tc.heads...)
			pg.Items = append(pg.Items, tableRows(170, 13, cols, body, false)...)
			ts := detect(t, pg)
			if len(ts) != 1 {
				t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
			}
			wantCells(t, ts[0], append(tc.want, body...))
		})
	}
}

// TestHeadWiderThanItsColumn: a column head wrapped over two lines whose
// first line is wider than the column and the table under it (sticking
// out past the table's right edge), centred over its column: it is the
// head's first line, not a line above the table.
func TestHeadWiderThanItsColumn(t *testing.T) {
	f := fpdf.New("P", "pt", "Letter", "")
	f.SetFont("Helvetica", "B", 10)
	centred := func(x, y float64, s string) txt {
		return txt{X: x - f.GetStringWidth(s)/2, Y: y, Size: 10, Bold: true, S: s}
	}
	body := [][]string{
		{"Netherlands", "2011", "see note"},
		{"Hungary", "1993", "high"},
		{"Italy", "2010", "monthly"},
		{"Norway", "1990", "pending"},
		{"Germany", "1996", "approved"},
	}
	pg := page{}
	pg.Items = append(pg.Items, prose(72, 90, "Since when each country has reported, and the state of its latest report.")...)
	pg.Items = append(pg.Items, centred(282, 125, "Unemployment Employment"),
		txt{X: 72, Y: 136, Size: 10, Bold: true, S: "Item"}, txt{X: 200 - helvWidth("Since"), Y: 136, Size: 10, Bold: true, S: "Since"},
		centred(282, 136, "Percent Females"))
	pg.Items = append(pg.Items, tableRows(152, 12, []col{{72, false}, {200, true}, {260, false}}, body, false)...)
	pg.Items = append(pg.Items, prose(72, 240, "Reports under review are expected to be decided before the end of the year.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], append([][]string{{"Item", "Since", "Unemployment Employment Percent Females"}}, body...))
}

// TestStubHeadWiderThanItsColumn: the stub head wrapped over two lines
// ("Household" over "size", bottom-aligned beside the other heads), its
// first line wider than the stub's labels under it but far from the next
// column: a head line, not running text above the table.
func TestStubHeadWiderThanItsColumn(t *testing.T) {
	body := [][]string{
		{"Sweden", "4662.6"},
		{"Finland", "8587.5"},
		{"Spain", "1503.6"},
		{"Norway", "2210.9"},
	}
	cols := []col{{72, false}, {200, true}}
	pg := page{}
	pg.Items = append(pg.Items, prose(72, 80, "Households by country, in thousands, at the end of the year.")...)
	pg.Items = append(pg.Items, txt{X: 72, Y: 110, Size: 10, S: "Household"})
	pg.Items = append(pg.Items, tableRows(121, 13, cols, [][]string{{"size", "Number"}}, false)...)
	pg.Items = append(pg.Items, tableRows(138, 13, cols, body, false)...)
	pg.Items = append(pg.Items, prose(72, 220, "Figures for the latest year are provisional and may be revised.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], append([][]string{{"Household size", "Number"}}, body...))
}

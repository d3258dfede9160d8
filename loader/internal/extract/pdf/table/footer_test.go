package table

import (
	"slices"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf/tablegen"
)

// TestTableOverPageFooter: generated tables (tablegen's footer layout,
// tune pages) ending a line's gap above the page footer, with a rule
// across the text column between them (seed 22) or none (seed 92, the
// footer a little farther than the rows are apart): the footer's parts
// (a section's number, a centred title, a publication's reference) were
// read as the table's last row. Now the table ends at its own last row.
func TestTableOverPageFooter(t *testing.T) {
	for _, seed := range []uint64{22, 92} {
		doc, ts := detectGenerated(t, seed, "footer")
		rows := truthRows(doc.Tables[0])
		if len(ts) != 1 || len(cellsOf(ts[0])) != rows {
			t.Fatalf("seed %d: want 1 table of %d rows, got %d: %s", seed, rows, len(ts), dump(ts))
		}
		if holdsFurniture(doc, ts) {
			t.Errorf("seed %d: the footer is in the table: %s", seed, dump(ts))
		}
	}
}

// TestHeadsLeftOfTheirColumns: bold heads set flush left over columns of
// codes set flush right (a head ending short of its column), over a
// column of text: a table, as when the heads stand over their columns.
func TestHeadsLeftOfTheirColumns(t *testing.T) {
	pg, want, y := codesPage()
	pg.Items = append(pg.Items, prose(72, y+24, "Positions not listed are reserved for later use and show blanks.")...)
	wantTable(t, pg, want)
}

// TestFooterUnderMarkInMargin: the table of TestHeadsLeftOfTheirColumns
// and a last row whose description is a mark ("#") in the page's right
// margin, over a page footer under a rule across the text column: the
// mark reaches past the rule's end, which still spans most of the table,
// and the footer is no row.
func TestFooterUnderMarkInMargin(t *testing.T) {
	pg, want, y := codesPage()
	// a row whose description is a mark in the margin, past the rule's end
	y += 14
	pg.Items = append(pg.Items, txt{X: 110 - helvWidth("15")*0.9, Y: y, Size: 9, S: "15"},
		txt{X: 200 - helvWidth("62-80")*0.9, Y: y, Size: 9, S: "62-80"}, txt{X: 500, Y: y, Size: 9, S: "#"})
	want = append(want, []string{"15", "62-80", "#"})
	pg.Draw = append(pg.Draw, hline(60, 480, y+12))
	pg.Items = append(pg.Items, txt{X: 60, Y: y + 22, Size: 9, S: "Ref. DS-4471 (rev. 03-2024)"},
		txt{X: 480 - helvWidth("Panel 4.1.22-09")*0.9, Y: y + 22, Size: 9, S: "Panel 4.1.22-09"},
		txt{X: 60, Y: y + 32, Size: 9, S: "Rows with a # are estimates"})
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	if d := dump(ts); strings.Contains(d, "Ref. DS-") || len(cellsOf(ts[0])) != len(want) {
		t.Errorf("want %d rows without the footer: %s", len(want), d)
	}
}

// codesPage is a paragraph over a table of codes under bold heads set
// flush left, the codes flush right; y is the last row's baseline.
func codesPage() (pg page, want [][]string, y float64) {
	rows := [][]string{
		{"12", "17-22", "Counting Cycle"},
		{"12", "25-41", "Regional Stock Allocation Planning System Marker"},
		{"13", "70", "Recall Marker"},
		{"14", "01-03", "Movement Code"},
		{"14", "55-56", "Shelving Code"},
		{"14", "68-78", "Supplier Part Number"},
		{"15", "10", "Pallet Marker"},
		{"15", "31", "Recall Override Marker"},
		{"16", "01-03", "Movement Code 240"},
		{"16", "06-15", "Movement Date"},
		{"16", "65", "Transfer Origin Code"},
	}
	pg = page{Items: prose(72, 80, "The lines of the display and what each position of a line shows.")}
	y = 130.0
	pg.Items = append(pg.Items, txt{X: 72, Y: y, Size: 9, Bold: true, S: "LINE"},
		txt{X: 150, Y: y, Size: 9, Bold: true, S: "POSITION"}, txt{X: 230, Y: y, Size: 9, Bold: true, S: "DESCRIPTION"})
	want = [][]string{{"LINE", "POSITION", "DESCRIPTION"}}
	ends := []float64{110, 200}
	for _, r := range rows {
		y += 14
		for j, c := range r {
			x := 230.0
			if j < 2 {
				x = ends[j] - helvWidth(c)*0.9
			}
			pg.Items = append(pg.Items, txt{X: x, Y: y, Size: 9, S: c})
		}
		want = append(want, r)
	}
	return pg, want, y
}

// TestFooterJustApart: the table of TestHeadsLeftOfTheirColumns over a
// page footer with no rule ("Ref. DS-..." at the left, the page number
// at the text column's right edge), set 2.3pt farther from the last row
// than the rows are from each other (a quarter of the text size); and
// tablegen's footer page of tune seed 178 (rows with wrapped labels). The
// footer had to stand 0.3 of its size farther off, and was read as the
// table's last row.
func TestFooterJustApart(t *testing.T) {
	pg, want, y := codesPage()
	y += 14 + 2.3
	pg.Items = append(pg.Items, txt{X: 60, Y: y, Size: 9, S: "Ref. DS-2210 (rev. 11-2021)"},
		txt{X: 540 - helvWidth("212")*0.9, Y: y, Size: 9, S: "212"})
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	if d := dump(ts); strings.Contains(d, "Ref. DS-") || len(cellsOf(ts[0])) != len(want) {
		t.Errorf("want %d rows without the footer: %s", len(want), d)
	}
	doc, ts := detectGenerated(t, 178, "footer")
	if rows := truthRows(doc.Tables[0]); len(ts) != 1 || len(cellsOf(ts[0])) != rows || holdsFurniture(doc, ts) {
		t.Errorf("seed 178: want 1 table of %d rows without the footer: %s", rows, dump(ts))
	}
}

// holdsFurniture: a detected table holds a cell whose text is one of a
// generated page's running heads' or footers' parts.
func holdsFurniture(doc tablegen.Doc, ts []document.Table) bool {
	for _, m := range doc.Furniture {
		for _, tb := range ts {
			for _, r := range cellsOf(tb) {
				if slices.Contains(r, m.Text) {
					return true
				}
			}
		}
	}
	return false
}

package table

import (
	"fmt"
	"testing"
)

// TestZebraHeadsOverFirstRow: a statement with shaded stripes on every
// other body row from the second on (9pt on 13.5pt; each cell's
// background a rectangle of its own, as a browser paints them), its heads right of
// the stub ("Group" over the last column, then "2019 2018 Change") right
// over the first row, unshaded: the first row is a row of its own under
// the heads. The stripes' edges are the table's row rules, so the heads
// and the first row were one band, read as one row ("2019 (2,856,437)").
func TestZebraHeadsOverFirstRow(t *testing.T) {
	const size, pitch = 9.0, 13.5
	right := func(s string, x1 float64) float64 { return x1 - helvWidth(s)*0.9 }
	ends := []float64{393, 479, 565}
	cells := []float64{42, 311.25, 397.5, 483.75, 570} // the cells' edges
	pg := page{Items: prose(42, 80, "The group's cash flows for the year, with the year before and the change between them.")}
	y := 120.0
	pg.Items = append(pg.Items, txt{X: right("Group", 565), Y: y, Size: size, S: "Group"})
	y += pitch
	for j, h := range []string{"2019", "2018", "Change"} {
		pg.Items = append(pg.Items, txt{X: right(h, ends[j]), Y: y, Size: size, S: h})
	}
	rows := [][]string{
		{"Cash and cash equivalents", "(2,856,437)", "997,192", "-918,697"},
		{"Property, plant and equipment", "61,598", "2,625,838", "249,812"},
		{"Other operating income", "99,984", "(1,145,430)", "-113,584"},
		{"Interest paid", "(233,160)", "-", "1,665,258"},
		{"Research and development costs", "1,548,598", "98,700", "1,126,260"},
		{"Trade and other payables", "306,918", "1,689,876", "1,118,184"},
	}
	for i, r := range rows {
		y += pitch
		if i%2 == 1 {
			for k := 0; k+1 < len(cells); k++ { // each cell's background
				pg.Draw = append(pg.Draw, fmt.Sprintf("0.9 g %g %g %g %g re f 0 g", cells[k], 792-y-4, cells[k+1]-cells[k], pitch))
			}
		}
		pg.Items = append(pg.Items, statementRow(r, 52, y, ends)...)
	}
	pg.Items = append(pg.Items, prose(42, y+3*pitch, "Figures for the latest year are provisional.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	got := cellsOf(ts[0])
	var first []string
	for _, r := range got {
		if r[0] == rows[0][0] {
			first = r
		}
	}
	if first == nil || first[1] != rows[0][1] || first[2] != rows[0][2] {
		t.Errorf("want the first row %q whole, its own: %s", rows[0], dump(ts))
	}
}

// TestZebraTimetableHeads: a timetable whose heads are a row of its own
// with a stub head ("Route 293 778 205 700"), shaded stripes on every
// other stop from the second (each cell's background a rectangle of its
// own): the heads and the first stop are two rows. They were one band
// between the box's top and the first stripe, read as one row ("Route
// Mill Lane", "293 05:08").
func TestZebraTimetableHeads(t *testing.T) {
	rows := [][]string{
		{"Route", "293", "778", "205", "700"},
		{"Mill Lane", "05:08", "06:06", "05:53", "06:12"},
		{"Harbour Road", "05:56", "06:41", "07:29", "07:10"},
		{"Station Square", "06:20", "07:02", "07:51", "07:33"},
		{"Market Street", "06:31", "07:14", "08:03", "07:45"},
		{"Airport Terminal 2", "06:58", "07:40", "08:30", "08:12"},
	}
	ts := detect(t, zebraTimetable(rows, 13.5, 4))
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	if got := cellsOf(ts[0]); len(got) != len(rows) || got[0][0] != "Route" || got[1][0] != "Mill Lane" {
		t.Errorf("want %d rows, the heads' and Mill Lane's apart: %s", len(rows), dump(ts))
	}
}

// zebraTimetable is a page of a timetable in 9pt, its rows pitch apart,
// every other row from the third shaded (each cell's background a
// rectangle of its own, reaching drop under the text's baseline), between
// two paragraphs.
func zebraTimetable(rows [][]string, pitch, drop float64) page {
	const size = 9.0
	cells := []float64{42, 150, 200, 250, 300, 350}
	pg := page{Items: prose(42, 80, "Buses leave the stops below at the times shown; services marked run on school days only.")}
	y := 120.0
	for i, r := range rows {
		if i >= 2 && i%2 == 0 {
			for k := 0; k+1 < len(cells); k++ {
				pg.Draw = append(pg.Draw, fmt.Sprintf("0.9 g %g %g %g %g re f 0 g", cells[k], 792-y-drop, cells[k+1]-cells[k], pitch))
			}
		}
		for j, c := range r {
			pg.Items = append(pg.Items, txt{X: cells[j] + 4, Y: y, Size: size, S: c})
		}
		y += pitch
	}
	pg.Items = append(pg.Items, prose(42, y+2*pitch, "Times are subject to change on public holidays.")...)
	return pg
}

// TestZebraTimetableTwoHeadRows: a timetable with two rows of heads, each
// with its stub head ("Route 293 778 ..." over "Days Daily Mo–Sa ..."),
// the stripes from the first stop on: the head band over the first
// stripe holds both lines. Each fills the same columns from the stub, and
// "Days" would have fit on the stub's line above: two rows, not one cell
// of two lines in every column ("Route Days", "293 Daily"), as a browser
// sets a table's two head rows at its leading.
func TestZebraTimetableTwoHeadRows(t *testing.T) {
	rows := [][]string{
		{"Route", "293", "778", "205", "700"},
		{"Days", "Daily", "Mo-Sa", "Mo-Fr", "Sa"},
		{"Mill Lane", "05:08", "06:06", "05:53", "06:12"},
		{"Harbour Road", "05:56", "06:41", "07:29", "07:10"},
		{"Station Square", "06:20", "07:02", "07:51", "07:33"},
		{"Market Street", "06:31", "07:14", "08:03", "07:45"},
		{"Airport Terminal 2", "06:58", "07:40", "08:30", "08:12"},
	}
	ts := detect(t, zebraTimetable(rows, 12, 3))
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], rows)
}

// TestZebraWrappedHeadsOneRow: heads wrapped over two lines in every
// column, the stub head too ("Reporting" over "Period", its column no
// wider than "Reporting"), over the stripes: the head band's second line
// fills the same columns as its first, capitalised, but "Period" would
// not have fit beside "Reporting": one head row, as before.
func TestZebraWrappedHeadsOneRow(t *testing.T) {
	rows := [][]string{
		{"Reporting", "Total", "Net", "Gross", "Unit"},
		{"Period", "Sales", "Income", "Margin", "Cost"},
		{"Q1", "05.08", "06.06", "05.53", "06.12"},
		{"Q2", "05.56", "06.41", "07.29", "07.10"},
		{"Q3", "06.20", "07.02", "07.51", "07.33"},
		{"Q4", "06.31", "07.14", "08.03", "07.45"},
		{"Year", "06.58", "07.40", "08.30", "08.12"},
	}
	pg := zebraTimetable(rows, 12, 3)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	got := cellsOf(ts[0])
	if len(got) != len(rows)-1 || got[0][0] != "Reporting Period" || got[0][1] != "Total Sales" {
		t.Errorf("want the heads one row of %d (\"Reporting Period\", \"Total Sales\"): %s", len(rows)-1, dump(ts))
	}
}

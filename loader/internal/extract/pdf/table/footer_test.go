package table

import (
	"strings"
	"testing"
)

// TestTableOverPageFooter: a generated table (tablegen seed 22 in the
// footer layout, a tune page) ending a line's gap above the page footer,
// a rule across the text column between them: the footer's parts ("Exhibit
// 8.5-34", a centred title, "Cat. No. ...") were read as the table's last
// row. Now the table ends at its own last row.
func TestTableOverPageFooter(t *testing.T) {
	doc, ts := detectGenerated(t, 22, "footer")
	rows := truthRows(doc.Tables[0])
	if len(ts) != 1 || len(cellsOf(ts[0])) != rows {
		t.Fatalf("want 1 table of %d rows, got %d: %s", rows, len(ts), dump(ts))
	}
	if d := dump(ts); strings.Contains(d, "Cat. No.") {
		t.Errorf("the footer is in the table: %s", d)
	}
}

// TestHeadsLeftOfTheirColumns: bold heads set flush left over columns of
// codes set flush right (a head ending short of its column), over a
// column of text: a table, as when the heads stand over their columns.
func TestHeadsLeftOfTheirColumns(t *testing.T) {
	rows := [][]string{
		{"12", "17-22", "Transaction Cycle"},
		{"12", "25-41", "Transaction Number"},
		{"13", "70", "Notice Indicator"},
		{"14", "01-03", "Transaction Code"},
		{"14", "55-56", "Closing Code"},
	}
	pg := page{Items: prose(72, 80, "The lines of the display and what each position of a line shows.")}
	y := 130.0
	pg.Items = append(pg.Items, txt{X: 72, Y: y, Size: 9, Bold: true, S: "LINE"},
		txt{X: 150, Y: y, Size: 9, Bold: true, S: "POSITION"}, txt{X: 230, Y: y, Size: 9, Bold: true, S: "DESCRIPTION"})
	want := [][]string{{"LINE", "POSITION", "DESCRIPTION"}}
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
	pg.Items = append(pg.Items, prose(72, y+24, "Positions not listed are reserved for later use and show blanks.")...)
	wantTable(t, pg, want)
}

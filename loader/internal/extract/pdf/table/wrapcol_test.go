package table

import (
	"strings"
	"testing"
)

// TestWrappedProseColumn: a table whose first column holds sentences
// wrapped over two or three lines (requirements beside their reference,
// status and date, each row's short cells level with its first line,
// rows set apart by more than the leading) is one table of those rows.
// The wrapped column was taken for a paragraph running beside a table
// and cut off, and the table of its text alone was too text-heavy to keep.
func TestWrappedProseColumn(t *testing.T) {
	type row struct {
		lines        []string
		ref, st, due string
	}
	var rows []row
	for _, r := range [][4]string{
		{"Records of inspections are kept for at least five years and made available to the authority on request; spare parts for critical equipment are held in stock so that a failure can be repaired within one shift.", "2.19", "High", "13/05/2027"},
		{"Meeting minutes are circulated within ten working days and approved at the following meeting; access to the site is restricted to authorised persons wearing protective equipment.", "1.7", "Open", "22/12/2027"},
		{"Fire doors are kept closed at all times and checked weekly for damage to the seals and closers; the contractor shall submit a method statement for all work carried out at height.", "3.8", "Closed", "10/08/2027"},
		{"The contractor shall submit a method statement for all work carried out at height before the start of the works; staff who handle personal data complete the annual training.", "2.14", "Open", "05/05/2027"},
		{"Invoices that do not quote the purchase order number are returned to the supplier without payment; samples are stored at four degrees and analysed within two days.", "4.17", "High", "19/01/2027"},
	} {
		rows = append(rows, row{wrapHelv(r[0], 290), r[1], r[2], r[3]})
	}
	pg := page{Items: prose(66, 80, "The requirements below apply to every site of the group and are reviewed by the board",
		"once a year.")}
	y := 124.0
	pg.Items = append(pg.Items, txt{X: 72, Y: y, Size: 10, Bold: true, S: "Requirement"}, txt{X: 380, Y: y, Size: 10, Bold: true, S: "Ref."},
		txt{X: 420, Y: y, Size: 10, Bold: true, S: "Status"}, txt{X: 480, Y: y, Size: 10, Bold: true, S: "Due"})
	want := [][]string{{"Requirement", "Ref.", "Status", "Due"}}
	y += 22
	for _, r := range rows {
		pg.Items = append(pg.Items, txt{X: 380, Y: y, Size: 10, S: r.ref}, txt{X: 420, Y: y, Size: 10, S: r.st}, txt{X: 480, Y: y, Size: 10, S: r.due})
		for i, l := range r.lines {
			pg.Items = append(pg.Items, txt{X: 72, Y: y + float64(i)*12, Size: 10, S: l})
		}
		want = append(want, []string{strings.Join(r.lines, " "), r.ref, r.st, r.due})
		y += float64(len(r.lines))*12 + 10
	}
	pg.Items = append(pg.Items, prose(72, y+14, "Changes to these requirements are announced to the site managers in writing.")...)
	wantTable(t, pg, want)
}

package table

import "testing"

// TestCellsCentredBesideAWrappedCell: a browser sets a table cell's text
// in the middle of its row (CSS's default for td), so beside a cell
// wrapped over two lines the row's other cells sit half a line down, on
// no line of the wrapped cell: the three lines are one row, and so are
// a head wrapped over two lines with the stub head centred beside it.
func TestCellsCentredBesideAWrappedCell(t *testing.T) {
	cols := []col{{72, false}, {140, false}, {380, true}, {450, true}, {530, true}}
	// each row: its lines of cells; a row's single-line cells go half a
	// line down when another cell of it wraps over two lines
	type line struct {
		dy    float64
		cells []string
	}
	rows := [][]line{
		{{0, []string{"", "Units", "", "", ""}}, {6, []string{"Item", "", "Qty", "Unit price", "Amount"}}, {12, []string{"", "shipped", "", "", ""}}},
		{{6, []string{"20-352", "Consulting services", "19", "2,704.02", "37,745.98"}}},
		{{0, []string{"", "Installation and commissioning", "", "", ""}}, {6, []string{"74-634", "", "36", "926.81", "26,023.62"}}, {12, []string{"", "of the heat pump unit", "", "", ""}}},
		{{6, []string{"97-130", "Travel expenses", "18", "225.22", "38,107.59"}}},
		{{0, []string{"", "Maintenance contract, quarterly,", "", "", ""}}, {6, []string{"62-832", "", "26", "22.25", "83,415.27"}}, {12, []string{"", "including spare parts", "", "", ""}}},
		{{6, []string{"11-204", "Delivery charge", "2", "40.00", "80.00"}}},
	}
	pg := page{}
	pg.Items = append(pg.Items, prose(72, 90, "Invoice for the goods and services delivered in November, payable within thirty days.")...)
	y := 124.0
	for _, r := range rows {
		h := 12.0
		if len(r) > 1 {
			h = 24
		}
		for _, l := range r {
			pg.Items = append(pg.Items, tableRows(y+l.dy, 12, cols, [][]string{l.cells}, false)...)
		}
		y += h + 6
	}
	pg.Items = append(pg.Items, prose(72, y+20, "Payment terms: thirty days net from the date of the invoice, by bank transfer.")...)
	wantTable(t, pg, [][]string{
		{"Item", "Units shipped", "Qty", "Unit price", "Amount"},
		{"20-352", "Consulting services", "19", "2,704.02", "37,745.98"},
		{"74-634", "Installation and commissioning of the heat pump unit", "36", "926.81", "26,023.62"},
		{"97-130", "Travel expenses", "18", "225.22", "38,107.59"},
		{"62-832", "Maintenance contract, quarterly, including spare parts", "26", "22.25", "83,415.27"},
		{"11-204", "Delivery charge", "2", "40.00", "80.00"},
	})
}

// TestLabelCentredOnTwoRows: a label spanning two rows of numbers sits
// half a line between them, as a centred cell beside a wrapped one does;
// the two rows stay apart (tabula/eu-017's accuracy levels).
func TestLabelCentredOnTwoRows(t *testing.T) {
	cols := []col{{72, false}, {250, true}, {330, true}, {400, false}}
	pg := page{}
	pg.Items = append(pg.Items, prose(72, 90, "Replies and researchers per country, with the accuracy level of each group of countries.")...)
	pg.Items = append(pg.Items, tableRows(124, 12, cols, [][]string{
		{"Country", "Replies", "Researchers", "Accuracy"},
		{"Bulgaria", "52", "17.400", ""},
		{"Slovenia", "56", "12.501", ""},
	}, true)...)
	pg.Items = append(pg.Items, tableRows(154, 12, cols, [][]string{{"", "", "", "Medium"}}, false)...)
	pg.Items = append(pg.Items, tableRows(160, 12, cols, [][]string{
		{"Switzerland", "64", "68.465", ""},
		{"Austria", "78", "65.725", ""},
		{"Croatia", "144", "17.216", ""},
	}, false)...)
	pg.Items = append(pg.Items, prose(72, 220, "The accuracy level follows from the number of replies against the number of researchers.")...)
	wantTable(t, pg, [][]string{
		{"Country", "Replies", "Researchers", "Accuracy"},
		{"Bulgaria", "52", "17.400", ""},
		{"Slovenia", "56", "12.501", ""},
		{"", "", "", "Medium"},
		{"Switzerland", "64", "68.465", ""},
		{"Austria", "78", "65.725", ""},
		{"Croatia", "144", "17.216", ""},
	})
}

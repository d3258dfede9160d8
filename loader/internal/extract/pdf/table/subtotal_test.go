package table

import "testing"

// TestSubtotalRulesOverAmounts: a financial statement rules the amount
// columns only, over each subtotal and total (an accountant's sum line);
// the stub has no rule there. Each row keeps its own label: a rule that
// stops short of the stub is no cell boundary missing for it (the labels
// of the rows around it are not one cell).
func TestSubtotalRulesOverAmounts(t *testing.T) {
	cols := []col{{72, false}, {400, true}, {480, true}}
	rows := [][]string{
		{"", "2025", "2024"},
		{"Sales of goods", "1,204", "1,118"},
		{"Cost of sales", "(603)", "(571)"},
		{"Gross profit", "601", "547"},
		{"Personnel expenses", "(212)", "(198)"},
		{"Depreciation", "(41)", "(39)"},
		{"Operating profit", "348", "310"},
		{"Net finance costs", "(12)", "(15)"},
		{"Profit for the year", "336", "295"},
	}
	pg := page{}
	pg.Items = append(pg.Items, prose(72, 90, "The group's results for the year are set out below, with the previous year for comparison.")...)
	pg.Items = append(pg.Items, tableRows(124, 14, cols, rows, true)...)
	pg.Items = append(pg.Items, prose(72, 260, "Revenue grew mainly from higher volumes in the second half of the year.")...)
	// sum lines over the amounts (one rule across both columns, as a
	// browser draws the top borders of adjacent cells) of rows 3, 6 and 8 (baselines at 124+14i),
	// a double rule under the last
	for _, r := range []int{3, 6, 8} {
		y := 124 + 14*float64(r) - 10.5
		pg.Draw = append(pg.Draw, hline(330, 484, y))
	}
	pg.Draw = append(pg.Draw, hline(330, 484, 240), hline(330, 484, 242))
	wantTable(t, pg, rows)
}

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

// TestSubtotalUnderlineOverSection: a subtotal double-underlined under
// its amounts (the amount columns only), then a section's label alone in
// bold ("Investing activities", kinds tune kd-1130): the underline is a
// sum line like the rule over the amounts, no row boundary missing for
// the stub, so the label is a row of its own. It was read as more of the
// subtotal's label ("Subtotal Investing activities").
func TestSubtotalUnderlineOverSection(t *testing.T) {
	cols := []col{{72, false}, {400, true}, {480, true}}
	rows := [][]string{
		{"", "2025", "2024"},
		{"Sales of goods", "1,204", "1,118"},
		{"Cost of sales", "(603)", "(571)"},
		{"Subtotal", "601", "547"},
		{"Investing activities", "", ""},
		{"Other operating income", "(212)", "(198)"},
		{"Liabilities", "", ""},
		{"Interest paid", "(41)", "(39)"},
		{"Net finance costs", "(12)", "(15)"},
	}
	bold := map[int]bool{0: true, 3: true, 4: true, 6: true} // heads, subtotal, section labels
	for _, pitch := range []float64{14, 15} {
		pg := page{Items: prose(72, 90, "The group's results for the year are set out below, with the previous year for comparison.")}
		for _, it := range tableRows(124, pitch, cols, rows, false) {
			i := int((it.Y-124)/pitch + 0.5)
			it.Bold = bold[i]
			if it.X == 72 && !bold[i] {
				it.X += 8 // the section's rows indented under its label
			}
			pg.Items = append(pg.Items, it)
		}
		pg.Items = append(pg.Items, prose(72, 124+pitch*10, "Revenue grew mainly from higher volumes in the second half of the year.")...)
		base := 124 + pitch*3 // the subtotal's baseline: a sum line over it, a double rule under it
		pg.Draw = append(pg.Draw, hline(330, 484, base-10.5), hline(330, 484, base+3), hline(330, 484, base+5))
		wantTable(t, pg, rows)
	}
}

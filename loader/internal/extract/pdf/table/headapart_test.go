package table

import "testing"

// TestColumnHeadsApartFromGroupHead: a group head over two columns, set
// apart above the column heads (a wider gap than the heads' leading),
// one head wrapped over three lines under it and starting on the line
// right under the group head: that line is the head's first, not more
// of the group head's row. Before, "Change" joined "Budget Unemployed".
func TestColumnHeadsApartFromGroupHead(t *testing.T) {
	const size = 9
	at := func(x, y float64, s string) txt { return txt{X: x, Y: y, Size: size, S: s} }
	right := func(x, y float64, s string) txt { return at(x-helvWidth(s)*size/10, y, s) }
	pg := page{Items: prose(62, 80, "Unemployment and budgets by industry at the end of the year, as reported by the ministry.")}
	pg.Items = append(pg.Items,
		at(199, 130, "Budget Unemployed"),
		at(258, 144, "Change"),
		at(192, 155, "Males"), at(247, 155, "Unemployed"), at(390, 155, "Budget"),
		at(62, 166, "Industry"), at(187, 166, "Percent"), at(271, 166, "of"), at(380, 166, "Amount"))
	body := [][]string{
		{"Households", "quarterly", "442207.4", "$25,407,691"},
		{"Agriculture", "planned", "305176.3", "$97,135,894"},
		{"Transport", "monthly", "409289.5", "$9,360,778"},
		{"Quarrying", "monthly", "455718.4", "$6,346,021"},
		{"Imports", "quarterly", "273359.3", "$37,389,510"},
	}
	for i, r := range body {
		y := 182 + 11*float64(i)
		pg.Items = append(pg.Items, at(62, y, r[0]), at(187, y, r[1]), right(304, y, r[2]), right(430, y, r[3]))
	}
	pg.Items = append(pg.Items, prose(62, 260, "Figures for the latest year are provisional and may be revised.")...)
	wantTable(t, pg, append([][]string{
		{"", "Budget Unemployed", "", ""},
		{"Industry", "Males Percent", "Change Unemployed of", "Budget Amount"},
	}, body...))
}

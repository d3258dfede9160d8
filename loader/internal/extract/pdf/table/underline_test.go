package table

import (
	"fmt"
	"math"
	"testing"
)

// TestLinkUnderlinesAreNoRowRules: a printed web page's table of contents,
// its titles links underlined just under their baseline, inside the
// words' boxes (mixed/example-10k's TOC in realhtml's tune half): each
// line is a row, as without the underlines; a long title's underline
// read as a rule made the rows above it one.
func TestLinkUnderlinesAreNoRowRules(t *testing.T) {
	rows := [][]string{
		{"Item 1.", "Business", "5"},
		{"Item 1A.", "Risk Factors", "12"},
		{"Item 2.", "Properties", "30"},
		{"Item 3.", "Legal Proceedings", "31"},
		{"Item 5.", "Market for Common Equity and Related Stockholder Matters", "33"},
		{"Item 7.", "Management's Discussion and Analysis of Financial Condition", "35"},
		{"Item 8.", "Financial Statements and Supplementary Data", "48"},
		{"Item 9A.", "Controls and Procedures", "90"},
	}
	pg := page{Items: prose(72, 80, "The annual report's parts, with the page each of them starts on, as filed with the commission.")}
	y := 130.0
	for _, r := range rows {
		pg.Items = append(pg.Items, txt{X: 72, Y: y, Size: 10, S: r[0]}, txt{X: 130, Y: y, Size: 10, S: r[1]},
			txt{X: 480 - helvWidth(r[2]), Y: y, Size: 10, S: r[2]})
		y += 12
	}
	pg.Items = append(pg.Items, prose(72, y+20, "Part IV holds the exhibits and the financial statement schedules.")...)
	// the links' underlines: 1.5 pt under the baseline, as wide as each
	// title as printed (its words' extent on a first print)
	ends := map[float64]float64{}
	for _, w := range words(firstLayout(t, writePDF(t, []page{pg})), nil) {
		if w.bb.X0 >= 129 && w.bb.X1 < 450 {
			base := math.Round(w.bb.Y1 - 2.8)
			ends[base] = math.Max(ends[base], w.bb.X1)
		}
	}
	for i := range rows {
		base := 130 + 12*float64(i)
		pg.Draw = append(pg.Draw, fmt.Sprintf("130 %g %g 0.75 re f", 792-base-1.9, ends[base]-130))
	}
	wantTable(t, pg, rows)
}

package table

import (
	"fmt"
	"testing"
)

// TestWrappedLabelWiderThanFirstLine: in a table of group labels and row
// labels wrapped over two lines, the second line wider than the first
// (its cells on the first), set small under a paragraph in a larger
// size, each label's lines are one cell and the table is one, from its
// header (plain or on a grey band) down. Before, a wrapped line wider
// than the label's first was not in the run's column: with the group
// label after it the run of aligned lines ended there, and the table
// began rows further down, without its header.
func TestWrappedLabelWiderThanFirstLine(t *testing.T) {
	for _, band := range []bool{false, true} {
		t.Run(fmt.Sprint("band ", band), func(t *testing.T) { wrappedWider(t, band) })
	}
}

func wrappedWider(t *testing.T, band bool) {
	const size = 7
	at := func(x, y float64, s string) txt { return txt{X: x, Y: y, Size: size, S: s} }
	num := func(y float64, s string) txt { return at(227-helvWidth(s)*size/10, y, s) }
	pg := page{}
	pg.Items = append(pg.Items, prose(72, 90,
		"Differences between totals and the sum of components are due to rounding; the methodology",
		"is described in the annex and in the quality report published with this release. The survey",
		"shows that the number of households in most regions grew over the period, while the share",
		"of persons living alone rose slightly in urban areas. These figures are based on the annual",
		"labour force survey and on administrative registers of the member states. Estimates for the",
		"latest year are provisional and may be revised when final data become available, and the",
		"income of the persons in each group is shown by activity, age group and industry below.")...)
	if band {
		pg.Draw = append(pg.Draw, shade(68, 239, 231, 256.6))
	}
	pg.Items = append(pg.Items,
		txt{X: 72, Y: 250, Size: size, Bold: true, S: "Country"},
		txt{X: 227 - 22, Y: 250, Size: size, Bold: true, S: "Income"})
	pg.Items = append(pg.Items,
		at(72, 268, "Activity"),
		at(80, 284, "Self-employed"), num(284, "343,186"),
		at(80, 292.7, "married persons in services"),
		at(72, 308.7, "Age group"),
		at(80, 324.7, "Work and"), num(324.7, "94,240"),
		at(80, 333.4, "education areas of fishing"),
		at(72, 349.4, "Industry"),
		at(80, 365.4, "Mining households"), num(365.4, "807,754"),
		at(80, 381.4, "Northern regions"), num(381.4, "370,808"),
		at(80, 397.4, "Southern regions"), num(397.4, "501,133"),
	)
	pg.Items = append(pg.Items, prose(72, 430, "Figures for the latest year are provisional and may be revised.")...)
	wantTable(t, pg, [][]string{
		{"Country", "Income"},
		{"Activity", ""},
		{"Self-employed married persons in services", "343,186"},
		{"Age group", ""},
		{"Work and education areas of fishing", "94,240"},
		{"Industry", ""},
		{"Mining households", "807,754"},
		{"Northern regions", "370,808"},
		{"Southern regions", "501,133"},
	})
}

package table

import (
	"slices"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestGroupHeadsInDefaultCSS: a browser's table in its default CSS (cells
// 3pt apart, heads centred) with group heads (colspan) over sub-heads and
// heads beside them spanning both head rows (rowspan, centred between the
// two lines). The heads go in the columns whose cells they stand centred
// in ("2025", wider than the figures under it, reaches past the middle
// of the gap after them; "Planned" stands in the gap beside figures set
// flush right), a group head spans its sub-heads' columns, and the heads
// spanning both rows are read in the first (the .html beside each .pdf,
// printed with chromium --headless --no-pdf-header-footer
// --print-to-pdf). Fails on pdf/138: "Staff on the payroll", "Region
// Total" and "2025 2026" were three rows, "2025 2026" one cell; "Planned"
// went in the stub's column; the two-group table's body columns merged
// under its heads ("Harbour 1,380").
func TestGroupHeadsInDefaultCSS(t *testing.T) {
	for _, tc := range []struct {
		file  string
		want  [][]string
		spans []document.CellSpan
	}{
		{"grouphead-default-lbs.pdf", [][]string{
			{"Region", "Staff on the payroll", "", "Total"},
			{"", "2025", "2026", ""},
			{"North", "412", "398", "810"},
			{"South", "96", "104", "200"},
		}, []document.CellSpan{{Row: 0, Col: 1, Rows: 1, Cols: 2}, {Row: 0, Col: 0, Rows: 2, Cols: 1}}},
		{"grouphead-right-lbr.pdf", [][]string{
			{"Item", "Expenditure of the group in the year", "", "Share of total expenditure"},
			{"", "Planned", "Actual", ""},
			{"Staff", "1,204", "1,118", "41.2"},
		}, []document.CellSpan{{Row: 0, Col: 1, Rows: 1, Cols: 2}}},
		{"grouphead-default-djs.pdf", [][]string{
			{"Item", "Expenditure of the group in the year", "", "Share of total expenditure"},
			{"", "Planned", "Actual", ""},
			{"Staff", "1,204", "1,118", "41.2"},
		}, []document.CellSpan{{Row: 0, Col: 1, Rows: 1, Cols: 2}}},
		{"grouphead-two-dsn.pdf", [][]string{
			{"Site", "Visitors in the season", "", "Income of the site", ""},
			{"", "Spring", "Summer", "Spring", "Summer"},
			{"Harbour", "1,380", "2,415", "96.4", "171.2"},
		}, []document.CellSpan{{Row: 0, Col: 1, Rows: 1, Cols: 2}, {Row: 0, Col: 3, Rows: 1, Cols: 2}}},
	} {
		tb := fileTable(t, tc.file, tc.want)
		for _, s := range tc.spans {
			if !slices.Contains(tb.Spans, s) {
				t.Errorf("%s: spans %+v lack %+v", tc.file, tb.Spans, s)
			}
		}
	}
}

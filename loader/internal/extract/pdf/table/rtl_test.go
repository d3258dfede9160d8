package table

import (
	"testing"

	"github.com/docket-dev/docket/loader/internal/extract/pdf/pdftest"
)

// TestRTLCellText: in a table of a right-to-left document (a Hebrew stub
// column on the right, numbers left of it), a cell of several words reads
// in logical order, its words right to left, with a Latin run in it left
// to right, whether the producer wrote the text in visual or logical
// order. Cells of one word and number cells are unchanged.
func TestRTLCellText(t *testing.T) {
	rows := [][]string{
		{"2012", "2013", "2014", ""},
		{"3.0", "3.2", "2.6", "תוצר מקומי גולמי"},
		{"1.1", "1.3", "0.7", "סך הכל לנפש"},
		{"2.9", "3.4", "2.5", "הסקטור העסקי"},
		{"6.8", "1.3", "-1.7", "בינוי"},
		{"1.4", "2.3", "8.6", "הוצאה מקומית לביטחון"},
		{"2.5", "-0.1", "0.9", "יבוא Docket Loader ושירותים"},
	}
	right := []float64{150, 220, 290, 540}
	var items []pdftest.RTLItem
	for i, r := range rows {
		for j, c := range r {
			if c != "" {
				items = append(items, pdftest.RTLItem{X: right[j], Y: 120 + float64(i)*18, Right: true, S: c})
			}
		}
	}
	rules := [][3]float64{{90, 540, 104}, {90, 540, 126}, {90, 540, 234}}
	for _, order := range []pdftest.Order{pdftest.Visual, pdftest.Logical} {
		name := map[pdftest.Order]string{pdftest.Visual: "visual", pdftest.Logical: "logical"}[order]
		t.Run(name, func(t *testing.T) {
			data, err := pdftest.RTLPagePDF(items, rules, order)
			if err != nil {
				t.Fatal(err)
			}
			ts := detectFile(t, pdftest.WriteBytes(t, "rtl-table.pdf", data))
			if len(ts) != 1 {
				t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
			}
			wantCells(t, ts[0], rows)
		})
	}
}

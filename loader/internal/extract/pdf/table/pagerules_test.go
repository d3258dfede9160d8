package table

import "testing"

// A page with nothing but its running head over a rule, one centred line
// ("This Page Intentionally Left Blank") and its running foot under a
// rule, the foot's last phrase wrapped over two more lines: the two rules
// are a stack with one band the height of the page, and the foot under
// the lower rule is no wrapped last row of a table (the IRS manual's
// blank pages in corpus mixed/pdf, pdf2image-memory-error-test-400p p16).
func TestPageRulesMakeNoTable(t *testing.T) {
	pg := page{Draw: []string{hline(36, 540, 66), hline(36, 540, 70), hline(36, 540, 740)}}
	pg.Items = append(pg.Items,
		txt{X: 36, Y: 60, Size: 10, S: "page 10"}, txt{X: 300, Y: 60, Size: 10, S: "2.3"}, txt{X: 380, Y: 60, Size: 10, S: "IDRS Responses"},
		txt{X: 190, Y: 95, Size: 10, S: "This Page Intentionally Left Blank"},
		txt{X: 36, Y: 752, Size: 10, S: "2.3.59.9"}, txt{X: 230, Y: 752, Size: 10, S: "Internal Revenue Manual"},
		txt{X: 420, Y: 752, Size: 10, S: "Cat. No. 28171E"},
		txt{X: 420, Y: 763, Size: 10, S: "Any line marked"},
		txt{X: 420, Y: 774, Size: 10, S: "is for Official Use"})
	if ts := detectFile(t, writePDF(t, []page{pg})); len(ts) != 0 {
		t.Errorf("want no table: %s", dump(ts))
	}
}

package extract

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf/pdftest"
	"github.com/docket-dev/docket/loader/internal/worker"
	"golang.org/x/text/unicode/norm"
)

// TestPDFTableComposed: a ruled table drawn with decomposed strings (a
// letter, then its combining mark) lands its cells and its Table element
// in NFC, as the page's paragraphs. Before, a stored cell held "Zu" +
// U+0308 + "rich" and a typed "Zürich" did not match it.
func TestPDFTableComposed(t *testing.T) {
	if _, err := os.Stat(pdftest.UnicodeFont); err != nil {
		t.Skipf("no Unicode font: %v", err)
	}
	rows := [][]string{{"City", "Office", "Staff"}, {"Zürich", "Bahnhofstraße", "12"}, {"Köln", "Domplatz", "8"}, {"Malmö", "Stortorget", "5"}, {"Besançon", "Grande Rue", "3"}}
	var items []pdftest.RTLItem
	var rules [][3]float64
	for i, r := range rows {
		y := 100 + float64(i)*24
		for j, c := range r {
			items = append(items, pdftest.RTLItem{X: 72 + float64(j)*160, Y: y, S: norm.NFD.String(c)})
		}
		rules = append(rules, [3]float64{66, 552, y + 8})
	}
	rules = append(rules, [3]float64{66, 552, 100 - 16})
	items = append(items, pdftest.RTLItem{X: 72, Y: 300, S: norm.NFD.String("Staff counts as of the last review, Zürich office included.")})
	data, err := pdftest.RTLPagePDF(items, rules, pdftest.Visual)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "offices.pdf")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Route(context.Background(), worker.Request{Path: p, Name: "offices.pdf", Type: "pdf", Opts: document.Options{}})
	if err != nil {
		t.Fatal(err)
	}
	checkElements(t, res)
	if len(res.Tables) != 1 {
		t.Fatalf("%d tables; page %q", len(res.Tables), res.Pages[0].Text)
	}
	tb := res.Tables[0]
	cells := append([]string(nil), tb.Header...)
	for _, r := range tb.Rows {
		cells = append(cells, r...)
	}
	if got := strings.Join(cells, "|"); !strings.Contains(got, "Zürich|Bahnhofstraße") || !norm.NFC.IsNormalString(got) {
		t.Errorf("cells %q", got)
	}
	for _, e := range res.Elements {
		if !norm.NFC.IsNormalString(e.Text) {
			t.Errorf("%s element not composed: %q", e.Category, e.Text)
		}
	}
}

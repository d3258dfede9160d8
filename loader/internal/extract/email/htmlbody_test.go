package email

import (
	"context"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestHTMLOnlyBodyIsTyped: a message whose only body is text/html (most
// notification and newsletter mail) lands its HTML as an .html file's
// blocks land, whole: the heading a Title, the list items ListItems
// without a bullet, the data table a table, bold words as they read, and
// the small print under a layout table kept (no main-content pick). Before
// email/8 html2text landed "****************\nQuarterly update\n***..."
// and "*12%*" and "* North up" as NarrativeText, and no table.
func TestHTMLOnlyBodyIsTyped(t *testing.T) {
	html := `<html><body><table width="100%"><tr><td><table width="600">` +
		`<tr><td><h1>Quarterly update</h1><p>Sales rose <b>12%</b> this quarter, ` + strings.Repeat("and every region kept its costs under the plan agreed in spring, ", 8) + `</p>` +
		`<ul><li>North up</li><li>South flat</li></ul></td></tr>` +
		`<tr><td><table><tr><th>Region</th><th>Sales</th></tr><tr><td>North</td><td>120</td></tr><tr><td>South</td><td>98</td></tr></table></td></tr>` +
		`<tr><td><p style="font-size:10px">You receive this mail because you asked for the quarterly figures.</p></td></tr>` +
		`</table></td></tr></table></body></html>`
	msg := "From: a@example.com\r\nTo: b@example.com\r\nSubject: Figures\r\nMIME-Version: 1.0\r\n" +
		"Content-Type: multipart/alternative; boundary=\"B\"\r\n\r\n" +
		"--B\r\nContent-Type: text/html; charset=\"UTF-8\"\r\n\r\n" + html + "\r\n--B--\r\n"
	res, err := ExtractBytes(context.Background(), []byte(msg), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	has := func(cat document.Category, text string) bool {
		for _, e := range res.Elements {
			if e.Category == cat && e.Text == text {
				return true
			}
		}
		return false
	}
	if !has(document.Title, "Quarterly update") {
		t.Errorf("no Title %q in %+v", "Quarterly update", res.Elements)
	}
	if !has(document.ListItem, "North up") || !has(document.ListItem, "South flat") {
		t.Errorf("list items not ListItem without bullets: %+v", res.Elements)
	}
	if text := res.Pages[0].Text; strings.Contains(text, "**") || strings.Contains(text, "*12%*") || !strings.Contains(text, "Sales rose 12% this quarter") {
		t.Errorf("page text %q: html2text's markup, or the sentence lost", text)
	}
	if !strings.Contains(res.Pages[0].Text, "You receive this mail because you asked for the quarterly figures.") {
		t.Errorf("the small print under the layout table was left out: %q", res.Pages[0].Text)
	}
	if len(res.Tables) != 1 || strings.Join(res.Tables[0].Header, "|") != "Region|Sales" || len(res.Tables[0].Rows) != 2 {
		t.Fatalf("tables %+v, want Region|Sales with 2 rows", res.Tables)
	}
	for _, e := range res.Elements {
		if e.Category == document.TableCat && e.TableSeq != 0 {
			t.Errorf("table element's TableSeq %d", e.TableSeq)
		}
		if got := []rune(res.Pages[0].Text)[e.CharStart:e.CharEnd]; string(got) != e.Text {
			t.Errorf("element %d offsets give %q, text %q", e.Seq, string(got), e.Text)
		}
	}
}

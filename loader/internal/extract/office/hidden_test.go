package office

import (
	"context"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/xuri/excelize/v2"
)

// TestHiddenSlidesAndSheetsAreSaid: a slide hidden from the slide show
// (p:sld show="0") and a hidden or very hidden sheet land their text like
// the others, and say so: a warning naming them and metadata
// hidden_slides / hidden_sheets (office/20). Before, nothing told them
// from the rest: a search hit on text the audience never saw.
func TestHiddenSlidesAndSheetsAreSaid(t *testing.T) {
	m := pptxMembers()
	m["ppt/slides/slide1.xml"] = strings.Replace(m["ppt/slides/slide1.xml"], `<p:sld `, `<p:sld show="0" `, 1)
	res, err := ExtractPPTX(context.Background(), writeZip(t, "h.pptx", m), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// slide1.xml is the presentation's first slide (sldIdLst lists it first)
	if got := res.Metadata.Extra["hidden_slides"]; got != "1" {
		t.Errorf("hidden_slides %q, want 1", got)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "slide 1 is hidden") {
		t.Errorf("warnings %q", res.Warnings)
	}
	if !strings.Contains(res.Pages[0].Text, "Roadmap") {
		t.Errorf("the hidden slide's text did not land: %q", res.Pages[0].Text)
	}
	shown, err := ExtractPPTX(context.Background(), writeZip(t, "s.pptx", pptxMembers()), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := shown.Metadata.Extra["hidden_slides"]; ok || len(shown.Warnings) != 0 {
		t.Errorf("no hidden slide: metadata %v warnings %q", shown.Metadata.Extra, shown.Warnings)
	}

	f := excelize.NewFile()
	for _, name := range []string{"Hidden", "Secret", "Shown"} {
		if _, err := f.NewSheet(name); err != nil {
			t.Fatal(err)
		}
		_ = f.SetCellValue(name, "A1", name+" cell")
	}
	if err := f.SetSheetVisible("Hidden", false); err != nil {
		t.Fatal(err)
	}
	if err := f.SetSheetVisible("Secret", false, true); err != nil {
		t.Fatal(err)
	}
	wb := extractWorkbook(t, f)
	if got := wb.Metadata.Extra["hidden_sheets"]; got != "Hidden\tSecret" {
		t.Errorf("hidden_sheets %q", got)
	}
	if len(wb.Warnings) != 2 || !strings.Contains(wb.Warnings[0], `sheet "Hidden" is hidden`) || !strings.Contains(wb.Warnings[1], `sheet "Secret" is very hidden`) {
		t.Errorf("warnings %q", wb.Warnings)
	}
	all := ""
	for _, pg := range wb.Pages {
		all += pg.Text + "\n"
	}
	for _, want := range []string{"Hidden cell", "Secret cell", "Shown cell"} {
		if !strings.Contains(all, want) {
			t.Errorf("%q did not land: %q", want, all)
		}
	}
}

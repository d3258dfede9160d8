package office

import (
	"context"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/xuri/excelize/v2"
)

// TestHiddenRowsColumnsShapesTextAreSaid (office/28): hidden XLSX and ODS
// rows and columns, hidden PPTX shapes (and shapes of a hidden group) and
// DOCX hidden text (w:vanish, direct or by style) land as before and are
// said, as office/20 says hidden slides and sheets: a warning naming them
// and metadata hidden_rows / hidden_columns / hidden_shapes /
// hidden_text. Before, nothing told them from the rest. A hidden row or
// column without text is not named, a run with w:vanish w:val="0" is no
// hidden text, and specVanish (a hidden paragraph mark: a run-in heading)
// hides no text.
func TestHiddenRowsColumnsShapesTextAreSaid(t *testing.T) {
	t.Run("xlsx", func(t *testing.T) {
		f := excelize.NewFile()
		for ref, v := range map[string]string{"A1": "Name", "B1": "Note", "C1": "City", "A2": "Ann", "B2": "secret", "C2": "Oslo", "A3": "Bob", "C3": "Rome", "A4": "Cy", "C4": "Bonn"} {
			_ = f.SetCellValue("Sheet1", ref, v)
		}
		for _, r := range []int{3, 4, 9} { // 9: hidden, empty
			if err := f.SetRowVisible("Sheet1", r, false); err != nil {
				t.Fatal(err)
			}
		}
		if err := f.SetColVisible("Sheet1", "B", false); err != nil {
			t.Fatal(err)
		}
		if err := f.SetColVisible("Sheet1", "E:F", false); err != nil { // empty
			t.Fatal(err)
		}
		res := extractWorkbook(t, f)
		if got, want := res.Pages[0].Text, "Name\tNote\tCity\nAnn\tsecret\tOslo\nBob\t\tRome\nCy\t\tBonn"; got != want {
			t.Errorf("text %q want %q", got, want)
		}
		if md := res.Metadata.Extra; md["hidden_rows"] != "Sheet1: 3-4" || md["hidden_columns"] != "Sheet1: B" {
			t.Errorf("metadata %v", md)
		}
		if w := strings.Join(res.Warnings, " "); !strings.Contains(w, `sheet "Sheet1": 2 hidden row(s) (3-4) and 1 hidden column(s) (B) landed as the other cells (Excel does not show them`) {
			t.Errorf("warnings %q", res.Warnings)
		}
	})
	t.Run("ods", func(t *testing.T) {
		cell := func(s string) string {
			return `<table:table-cell office:value-type="string"><text:p>` + s + `</text:p></table:table-cell>`
		}
		m := odsMembers()
		m["content.xml"] = `<office:document-content ` + odfNS + `><office:body><office:spreadsheet><table:table table:name="Data">` +
			`<table:table-column/><table:table-column table:visibility="collapse"/><table:table-column/><table:table-column table:number-columns-repeated="3" table:visibility="collapse"/>` +
			`<table:table-row>` + cell("Name") + cell("Secret") + cell("City") + `</table:table-row>` +
			`<table:table-row>` + cell("Ann") + cell("s1") + cell("Oslo") + `</table:table-row>` +
			`<table:table-row table:visibility="filter">` + cell("Bob") + `<table:table-cell/>` + cell("Rome") + `</table:table-row>` +
			`<table:table-row table:visibility="collapse" table:number-rows-repeated="2">` + cell("Cy") + `<table:table-cell/>` + cell("Oslo") + `</table:table-row>` +
			`<table:table-row table:visibility="collapse"><table:table-cell table:number-columns-repeated="4"/></table:table-row>` +
			`<table:table-row>` + cell("Dee") + `<table:table-cell/>` + cell("Bonn") + `</table:table-row>` +
			`</table:table></office:spreadsheet></office:body></office:document-content>`
		res, err := ExtractODS(context.Background(), writeZip(t, "h.ods", m), document.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if md := res.Metadata.Extra; md["hidden_rows"] != "Data: 3-5" || md["hidden_columns"] != "Data: B" {
			t.Errorf("metadata %v", md)
		}
		if w := strings.Join(res.Warnings, " "); !strings.Contains(w, `sheet "Data": 3 hidden row(s) (3-5) and 1 hidden column(s) (B) landed as the other cells (LibreOffice does not show them`) {
			t.Errorf("warnings %q", res.Warnings)
		}
	})
	t.Run("pptx", func(t *testing.T) {
		m := pptxMembers()
		hid := func(name, text string) string {
			return `<p:sp><p:nvSpPr><p:cNvPr id="7" name="` + name + `" hidden="1"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/>` + apara("", "", text) + `</p:txBody></p:sp>`
		}
		m["ppt/slides/slide2.xml"] = `<p:sld ` + aNS + `><p:cSld><p:spTree>` + shape("ctrTitle", apara("", "", "Thanks")) +
			hid("Answer box", "The answer is 42") +
			`<p:grpSp><p:nvGrpSpPr><p:cNvPr id="8" name="Group 8" hidden="1"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>` + shape("", apara("", "", "Grouped aside")) + `</p:grpSp>` +
			shape("", apara("", "", "Shown text")) +
			`</p:spTree></p:cSld></p:sld>`
		res, err := ExtractPPTX(context.Background(), writeZip(t, "h.pptx", m), document.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Pages[1].Text, "The answer is 42") || !strings.Contains(res.Pages[1].Text, "Grouped aside") {
			t.Errorf("hidden shapes' text did not land: %q", res.Pages[1].Text)
		}
		if got := res.Metadata.Extra["hidden_shapes"]; got != "slide 2: Answer box\tslide 2: s" {
			t.Errorf("hidden_shapes %q", got)
		}
		if w := strings.Join(res.Warnings, " "); !strings.Contains(w, "2 hidden shape(s) (PowerPoint shows them neither on the slide nor in a slide show): their text landed as the others' (slide 2: Answer box, slide 2: s; metadata hidden_shapes)") {
			t.Errorf("warnings %q", res.Warnings)
		}
	})
	t.Run("docx", func(t *testing.T) {
		m := docxMembers()
		m["word/styles.xml"] = `<w:styles ` + wNS + `><w:style w:type="character" w:styleId="Secret"><w:name w:val="Secret"/><w:rPr><w:vanish/></w:rPr></w:style>` +
			`<w:style w:type="character" w:styleId="Secret2"><w:name w:val="Secret 2"/><w:basedOn w:val="Secret"/></w:style></w:styles>`
		m["word/document.xml"] = `<w:document ` + wNS + `><w:body>` +
			`<w:p><w:r><w:t xml:space="preserve">Visible start. </w:t></w:r><w:r><w:rPr><w:vanish/></w:rPr><w:t xml:space="preserve">Hidden run. </w:t></w:r><w:r><w:t>Visible end.</w:t></w:r></w:p>` +
			`<w:p><w:r><w:rPr><w:rStyle w:val="Secret2"/></w:rPr><w:t>By style.</w:t></w:r><w:r><w:rPr><w:rStyle w:val="Secret"/><w:vanish w:val="0"/></w:rPr><w:t xml:space="preserve"> Shown again.</w:t></w:r></w:p>` +
			`<w:p><w:pPr><w:rPr><w:specVanish/></w:rPr></w:pPr><w:r><w:t>Run-in heading.</w:t></w:r></w:p><w:p><w:r><w:t>Body.</w:t></w:r></w:p>` +
			`</w:body></w:document>`
		delete(m, "word/_rels/document.xml.rels")
		res, err := ExtractDOCX(context.Background(), writeZip(t, "h.docx", m), document.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := res.Pages[0].Text, "Visible start. Hidden run. Visible end.\n\nBy style. Shown again.\n\nRun-in heading.\n\nBody."; got != want {
			t.Errorf("text %q want %q", got, want)
		}
		if got := res.Metadata.Extra["hidden_text"]; got != "Hidden run.\tBy style." {
			t.Errorf("hidden_text %q", got)
		}
		if w := strings.Join(res.Warnings, " "); !strings.Contains(w, `2 run(s) of hidden text (20 characters; Word neither shows nor prints them unless hidden text is shown) landed with the visible text, first "Hidden run." (metadata hidden_text)`) {
			t.Errorf("warnings %q", res.Warnings)
		}
	})
}

// TestSpanTextCut: past 20 runs the list says how many more (office/31:
// the count was appended after the list was joined, and lost; review44).
func TestSpanTextCut(t *testing.T) {
	var runs []span
	for i := 1; i <= 25; i++ {
		runs = append(runs, span{2 * i, 2 * i})
	}
	if got := spanText(runs, colName); !strings.HasSuffix(got, "AN, and 5 more runs") {
		t.Errorf("%q", got)
	}
}

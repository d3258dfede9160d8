package office

import (
	"reflect"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

func elementTexts(res *document.Result) []string {
	var got []string
	for _, e := range res.Elements {
		if e.Category != document.TableCat {
			got = append(got, e.Text)
		}
	}
	return got
}

// TestDOCXFilledControlsKeepValues (office/25, review42 HIGH on office/22):
// a content control loses its content only when that content is its
// placeholder's prompt (its building block's text in the glossary, or
// one of Word's own). Before, every control whose sdtPr held
// showingPlcHdr was skipped: w:val="0" / "false" (OOXML on/off: not
// showing it) lost "ACME Corp" and "EUR 12,000", a control filled by a
// program that left the flag on lost "Jane Roe", and a cell-level
// control showing its prompt lost its cell (the row's next cells shifted
// left: "Alice | 100 | ").
func TestDOCXFilledControlsKeepValues(t *testing.T) {
	run := func(s string) string { return `<w:r><w:t xml:space="preserve">` + s + `</w:t></w:r>` }
	p := func(s string) string { return `<w:p>` + s + `</w:p>` }
	tc := func(s string) string { return `<w:tc>` + p(run(s)) + `</w:tc>` }
	sdt := func(pr, content string) string {
		return `<w:sdt><w:sdtPr>` + pr + `</w:sdtPr><w:sdtContent>` + content + `</w:sdtContent></w:sdt>`
	}
	const plc = `<w:showingPlcHdr/>`
	long := strings.Repeat(run("x"), 1500) // past maxPromptTokens
	body := p(run("Client: ")+sdt(`<w:showingPlcHdr w:val="0"/>`, run("ACME Corp"))) +
		p(run("Amount: ")+sdt(`<w:showingPlcHdr w:val="false"/>`, run("EUR 12,000"))) +
		p(run("Tenant: ")+sdt(`<w:alias w:val="Tenant"/><w:tag w:val="tenant"/>`+plc, run("Jane Roe"))) +
		p(run("Due: ")+sdt(plc, run("Click or tap to ")+run("enter a date."))) +
		p(run("Owner: ")+sdt(`<w:placeholder><w:docPart w:val="{0A1B2C3D-0000-4000-8000-000000000001}"/></w:placeholder>`+plc, run("Type the owner's name"))) +
		p(run("Kept: ")+sdt(`<w:placeholder><w:docPart w:val="General"/></w:placeholder>`+plc, run("Type the owner's name"))) +
		sdt(plc, p(run("Edited ")+`<w:del><w:r><w:delText>removed </w:delText></w:r></w:del>`+
			`<mc:AlternateContent><mc:Choice>`+run("text")+`</mc:Choice><mc:Fallback>`+run("fallback")+`</mc:Fallback></mc:AlternateContent>`)) +
		sdt(plc, p(run("Click or tap here")+`<w:r><w:br/></w:r>`+run(" to enter text."))) +
		sdt(plc, p(long)) +
		`<w:tbl><w:tblGrid><w:gridCol/><w:gridCol/><w:gridCol/></w:tblGrid>` +
		`<w:tr>` + tc("Name") + tc("Date") + tc("Amount") + `</w:tr>` +
		`<w:tr>` + tc("Alice") + sdt(plc, tc("Click or tap to enter a date.")) + tc("100") + `</w:tr>` +
		`<w:tr>` + tc("Bob") + sdt(plc, tc("2024-03-01")) + tc("200") + `</w:tr></w:tbl>`
	glossary := `<w:docPart><w:docPartPr><w:name w:val="Owner prompt"/><w:category><w:name w:val="General"/></w:category><w:guid w:val="{0A1B2C3D-0000-4000-8000-000000000001}"/></w:docPartPr>` +
		`<w:docPartBody>` + p(run("Type the owner's ")+run("name")) + `</w:docPartBody></w:docPart>`
	res := extractDOCXGlossary(t, body, glossary)
	want := []string{"Client: ACME Corp", "Amount: EUR 12,000", "Tenant: Jane Roe", "Due:", "Owner:", "Kept: Type the owner's name", "Edited text", strings.Repeat("x", 1500)}
	if got := elementTexts(res); !reflect.DeepEqual(got, want) {
		t.Errorf("elements\n %q\nwant\n %q", got, want)
	}
	if len(res.Tables) != 1 || !reflect.DeepEqual(res.Tables[0].Rows, [][]string{{"Alice", "", "100"}, {"Bob", "2024-03-01", "200"}}) {
		t.Errorf("tables %+v", res.Tables)
	}
}

// TestDOCXDeepFields (office/25, review42 LOW on office/22): fields nest
// past 64 levels: 70 nested IFs show their outermost result only (the
// begins past 64 were not pushed and their separates and ends closed the
// fields around them: 7 results landed).
func TestDOCXDeepFields(t *testing.T) {
	fc := func(typ string) string { return `<w:r><w:fldChar w:fldCharType="` + typ + `"/></w:r>` }
	run := func(s string) string { return `<w:r><w:t xml:space="preserve">` + s + `</w:t></w:r>` }
	deep := ""
	for range 70 {
		deep += fc("begin") + `<w:r><w:instrText> IF </w:instrText></w:r>`
	}
	for range 70 {
		deep += fc("separate") + run("r") + fc("end")
	}
	res := extractDOCXBody(t, `<w:p>`+run("Deep: ")+deep+run(" end")+`</w:p><w:p>`+run("Next.")+`</w:p>`)
	if got := elementTexts(res); !reflect.DeepEqual(got, []string{"Deep: r end", "Next."}) {
		t.Errorf("elements %q", got)
	}
}

// TestDOCXNestedControlsBounded: controls nested in controls showing their
// placeholder read their content ahead within maxAheadTokens for the part
// (each level read the rest again), and land it.
func TestDOCXNestedControlsBounded(t *testing.T) {
	const depth = 3000
	open := strings.Repeat(`<w:sdt><w:sdtPr><w:showingPlcHdr/></w:sdtPr><w:sdtContent>`, depth)
	closing := strings.Repeat(`</w:sdtContent></w:sdt>`, depth)
	body := `<w:p>` + open + strings.Repeat(`<w:r><w:t>x</w:t></w:r>`, 1000) + closing + `</w:p>`
	var res *document.Result
	n := allocated(func() { res = extractDOCXBody(t, body) })
	t.Logf("allocated %d KB", n>>10)
	if n > 256<<20 {
		t.Errorf("allocated %d MB, want < 256", n>>20)
	}
	if got := elementTexts(res); len(got) != 1 || got[0] != strings.Repeat("x", 1000) {
		t.Errorf("elements %d: %.40q", len(got), got)
	}
}

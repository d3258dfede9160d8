package office

import (
	"context"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestDOCXFieldCodesAndPromptsStayOut: only a field's result is text
// (office/22): a field nested in another's code (an IF around a
// MERGEFIELD, as mail merges write) showed its own result beside the
// outer one's ("NESTEDRESULTMs Smith."), and code typed as w:t between
// begin and separate landed ("REF _Ref123 \h Table 2"); a content control
// showing its placeholder landed its prompt ("Click or tap here to enter
// text."). A field left open without a separate ends with its paragraph.
func TestDOCXFieldCodesAndPromptsStayOut(t *testing.T) {
	fc := func(typ string) string { return `<w:r><w:fldChar w:fldCharType="` + typ + `"/></w:r>` }
	instr := func(s string) string { return `<w:r><w:instrText xml:space="preserve">` + s + `</w:instrText></w:r>` }
	run := func(s string) string { return `<w:r><w:t xml:space="preserve">` + s + `</w:t></w:r>` }
	p := func(s string) string { return `<w:p>` + s + `</w:p>` }
	body := p(run("Dear ")+fc("begin")+instr(" IF ")+fc("begin")+instr(" MERGEFIELD Gender ")+fc("separate")+run("NESTEDRESULT")+fc("end")+
		instr(` = "F" "Ms" "Mr" `)+fc("separate")+run("Ms")+fc("end")+run(" Smith.")) +
		p(run("See ")+fc("begin")+run(` REF _Ref123 \h `)+fc("separate")+run("Table 2")+fc("end")+run(".")) +
		p(fc("begin")+instr(` TOC \o "1-3" `)+fc("separate")+run("Introduction\t1")) + p(run("Method\t2")) + p(fc("end")) +
		p(run("Broken ")+fc("begin")+instr(" PAGE ")) + p(run("Next paragraph.")) +
		p(run("Client: ")+`<w:sdt><w:sdtPr><w:placeholder><w:docPart w:val="X"/></w:placeholder><w:showingPlcHdr/></w:sdtPr><w:sdtContent>`+run("Click or tap here to enter text.")+`</w:sdtContent></w:sdt>`) +
		`<w:sdt><w:sdtPr><w:placeholder><w:docPart w:val="Summary"/></w:placeholder><w:showingPlcHdr/></w:sdtPr><w:sdtContent>` + p(run("Enter the summary here.")) + `</w:sdtContent></w:sdt>` +
		`<w:sdt><w:sdtPr><w:alias w:val="Date"/></w:sdtPr><w:sdtContent>` + p(run("12 March 2024")) + `</w:sdtContent></w:sdt>`
	res := extractDOCXGlossary(t, body, `<w:docPart><w:docPartPr><w:name w:val="Summary"/></w:docPartPr><w:docPartBody>`+p(run("Enter the summary here."))+`</w:docPartBody></w:docPart>`)
	var got []string
	for _, e := range res.Elements {
		got = append(got, e.Text)
	}
	want := []string{"Dear Ms Smith.", "See Table 2.", "Introduction\t1", "Method\t2", "Broken", "Next paragraph.", "Client:", "12 March 2024"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("elements\n %q\nwant\n %q", got, want)
	}
}

// extractDOCXBody extracts a DOCX whose body is body (docxMembers' other
// parts, no header or footer).
func extractDOCXBody(t *testing.T, body string) *document.Result {
	t.Helper()
	return extractDOCXGlossary(t, body, "")
}

// extractDOCXGlossary is extractDOCXBody with a glossary part holding
// docParts (building blocks), when not "".
func extractDOCXGlossary(t *testing.T, body, docParts string) *document.Result {
	t.Helper()
	m := docxMembers()
	m["word/document.xml"] = `<w:document ` + wNS + `><w:body>` + body + `</w:body></w:document>`
	delete(m, "word/_rels/document.xml.rels")
	if docParts != "" {
		m["word/_rels/document.xml.rels"] = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rG" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/glossaryDocument" Target="glossary/document.xml"/></Relationships>`
		m["word/glossary/document.xml"] = `<w:glossaryDocument ` + wNS + `><w:docParts>` + docParts + `</w:docParts></w:glossaryDocument>`
	}
	res, err := ExtractDOCX(context.Background(), writeZip(t, "body.docx", m), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

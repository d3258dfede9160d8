package office

import (
	"context"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestDOCXNotes: footnotes, endnotes and comments land after the body,
// before the footer, each paragraph an element whose Section names its
// kind; a footnote separator adds nothing. Before, their text was
// silently missing (mammoth's fixtures footnotes.docx, endnotes.docx,
// comments.docx landed "Ouch." only).
func TestDOCXNotes(t *testing.T) {
	m := docxMembers()
	rel := func(id, typ, target string) string {
		return `<Relationship Id="` + id + `" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/` + typ + `" Target="` + target + `"/>`
	}
	m["word/_rels/document.xml.rels"] = strings.Replace(m["word/_rels/document.xml.rels"], "</Relationships>",
		rel("rN", "footnotes", "footnotes.xml")+rel("rE", "endnotes", "endnotes.xml")+rel("rC", "comments", "comments.xml")+"</Relationships>", 1)
	m["word/document.xml"] = strings.Replace(m["word/document.xml"], "Plain paragraph one.</w:t></w:r>",
		`Plain paragraph one.</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r><w:commentRangeStart w:id="0"/>`, 1)
	m["word/footnotes.xml"] = `<w:footnotes ` + wNS + `><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>` +
		`<w:footnote w:id="1"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> Source: the 2023 survey.</w:t></w:r></w:p></w:footnote></w:footnotes>`
	m["word/endnotes.xml"] = `<w:endnotes ` + wNS + `><w:endnote w:id="1">` + para("", "Figures are rounded.") + `</w:endnote></w:endnotes>`
	m["word/comments.xml"] = `<w:comments ` + wNS + `><w:comment w:id="0" w:author="Bo">` + para("", "Check this number.") + `</w:comment></w:comments>`
	res, err := ExtractDOCX(context.Background(), writeZip(t, "notes.docx", m), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := elems(res)
	want := []el{
		{document.Title, "Outline heading", 1, 2},
		{document.NarrativeText, "Source: the 2023 survey.", 0, 2},
		{document.NarrativeText, "Figures are rounded.", 0, 2},
		{document.NarrativeText, "Check this number.", 0, 2},
		{document.PageNumber, "Page 7", 0, 2},
	}
	if len(got) < len(want) {
		t.Fatalf("elements %+v", got)
	}
	tail := got[len(got)-len(want):]
	for i := range want {
		if tail[i] != want[i] {
			t.Errorf("element %d from the end: got %+v, want %+v", len(want)-i, tail[i], want[i])
		}
	}
	n := len(res.Elements)
	for i, sec := range []string{"footnotes", "endnotes", "comments"} {
		if s := res.Elements[n-4+i].Section; s != sec {
			t.Errorf("%q: Section %q, want %q", res.Elements[n-4+i].Text, s, sec)
		}
	}
	if strings.Count(res.Pages[len(res.Pages)-1].Text, "Source: the 2023 survey.") != 1 {
		t.Errorf("the footnote not in the page text once: %q", res.Pages[len(res.Pages)-1].Text)
	}
}

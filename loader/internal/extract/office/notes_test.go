package office

import (
	"context"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/xuri/excelize/v2"
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

// TestODTNotes: an ODT's footnotes, endnotes and comments (inline in the
// paragraph they mark) land after the body, before the footer, without
// their citation number or a comment's author and date; the paragraph
// keeps its own text. Before, they were skipped.
func TestODTNotes(t *testing.T) {
	ns := `xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/"`
	content := `<office:document-content ` + ns + `><office:body><office:text>` +
		`<text:p>Sales rose<text:note text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body><text:p>Source:<text:s/>the 2023 survey.</text:p></text:note-body></text:note> in March` +
		`<office:annotation><dc:creator>Bo</dc:creator><dc:date>2024-01-02T10:00:00</dc:date><text:p>Check this number.</text:p></office:annotation>.</text:p>` +
		`<text:p>Costs fell<text:note text:note-class="endnote"><text:note-citation>i</text:note-citation><text:note-body><text:p>Figures are rounded.</text:p></text:note-body></text:note>.</text:p>` +
		`</office:text></office:body></office:document-content>`
	p := writeZip(t, "notes.odt", map[string]string{
		"mimetype":    "application/vnd.oasis.opendocument.text",
		"content.xml": content,
		"styles.xml":  `<office:document-styles ` + ns + `><office:master-styles><style:master-page style:name="Standard"><style:footer><text:p>Bottom line</text:p></style:footer></style:master-page></office:master-styles></office:document-styles>`,
	})
	res, err := ExtractODT(context.Background(), p, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	assertElems(t, res, []el{
		{document.NarrativeText, "Sales rose in March.", 0, 1},
		{document.NarrativeText, "Costs fell.", 0, 1},
		{document.NarrativeText, "Source: the 2023 survey.", 0, 1},
		{document.NarrativeText, "Check this number.", 0, 1},
		{document.NarrativeText, "Figures are rounded.", 0, 1},
		{document.Footer, "Bottom line", 0, 1},
	})
	for i, sec := range []string{"footnotes", "comments", "endnotes"} {
		if s := res.Elements[2+i].Section; s != sec {
			t.Errorf("%q: Section %q, want %q", res.Elements[2+i].Text, s, sec)
		}
	}
}

// TestDOCXNoteTable: a table in a footnote (or endnote, or comment) lands
// as the body's tables do: a Table element (cells tab-joined, one line a
// row, cell text flattened, empty edge rows trimmed) and a stored table,
// its Section the note's kind. Before office/6 it was one NarrativeText of
// its lines, and no table.
func TestDOCXNoteTable(t *testing.T) {
	m := docxMembers()
	m["word/_rels/document.xml.rels"] = strings.Replace(m["word/_rels/document.xml.rels"], "</Relationships>",
		`<Relationship Id="rN" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/></Relationships>`, 1)
	cell := func(ps ...string) string {
		s := `<w:tc>`
		for _, p := range ps {
			s += para("", p)
		}
		return s + `</w:tc>`
	}
	table := `<w:tbl><w:tr>` + cell("Region") + cell("Share") + `</w:tr>` +
		`<w:tr>` + cell("North", "and islands") + cell("41 %") + `</w:tr>` +
		`<w:tr>` + cell("") + cell("") + `</w:tr></w:tbl>`
	m["word/footnotes.xml"] = `<w:footnotes ` + wNS + `><w:footnote w:id="1">` + para("", "Shares by region:") + table + `</w:footnote></w:footnotes>`
	res, err := ExtractDOCX(context.Background(), writeZip(t, "notetable.docx", m), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, t.Name(), res)
	var note []document.Element
	for _, e := range res.Elements {
		if e.Section == "footnotes" {
			note = append(note, e)
		}
	}
	if len(note) != 2 || note[0].Text != "Shares by region:" ||
		note[1].Category != document.TableCat || note[1].Text != "Region\tShare\nNorth and islands\t41 %" {
		t.Fatalf("footnote elements %+v, want its paragraph then a Table element of two rows", note)
	}
	if len(res.Tables) != 2 || note[1].TableSeq != 1 {
		t.Fatalf("%d tables, the note's element TableSeq %d; want the body's and the note's (seq 1)", len(res.Tables), note[1].TableSeq)
	}
	if tb := res.Tables[1]; strings.Join(tb.Header, "|") != "Region|Share" || len(tb.Rows) != 1 || strings.Join(tb.Rows[0], "|") != "North\nand islands|41 %" {
		t.Errorf("the note's table: header %q rows %q", tb.Header, tb.Rows)
	}
}

// TestODTNoteTable: a table in an ODT footnote lands as the body's tables
// do (office/7), the note's paragraph before it; before, each cell's
// paragraph was a note paragraph of its own and no table was stored.
func TestODTNoteTable(t *testing.T) {
	ns := `xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"`
	cell := func(ps ...string) string {
		s := `<table:table-cell>`
		for _, p := range ps {
			s += `<text:p>` + p + `</text:p>`
		}
		return s + `</table:table-cell>`
	}
	table := `<table:table><table:table-column table:number-columns-repeated="2"/>` +
		`<table:table-row>` + cell("Region") + cell("Share") + `</table:table-row>` +
		`<table:table-row>` + cell("North", "and islands") + cell("41 %") + `</table:table-row>` +
		`<table:table-row table:number-rows-repeated="1000">` + cell() + cell() + `</table:table-row></table:table>`
	content := `<office:document-content ` + ns + `><office:body><office:text>` +
		`<text:p>Sales rose<text:note text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body>` +
		`<text:p>Shares by region:</text:p>` + table + `</text:note-body></text:note>.</text:p>` +
		`</office:text></office:body></office:document-content>`
	p := writeZip(t, "notetable.odt", map[string]string{"mimetype": "application/vnd.oasis.opendocument.text", "content.xml": content})
	res, err := ExtractODT(context.Background(), p, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	assertElems(t, res, []el{
		{document.NarrativeText, "Sales rose.", 0, 1},
		{document.NarrativeText, "Shares by region:", 0, 1},
		{document.TableCat, "Region\tShare\nNorth and islands\t41 %", 0, 1},
	})
	if len(res.Tables) != 1 || res.Elements[2].Section != "footnotes" || res.Elements[2].TableSeq != 0 {
		t.Fatalf("%d tables, the table element's Section %q TableSeq %d; want 1, footnotes, 0", len(res.Tables), res.Elements[2].Section, res.Elements[2].TableSeq)
	}
	if tb := res.Tables[0]; strings.Join(tb.Header, "|") != "Region|Share" || len(tb.Rows) != 1 || strings.Join(tb.Rows[0], "|") != "North\nand islands|41 %" {
		t.Errorf("the note's table: header %q rows %q", tb.Header, tb.Rows)
	}
}

// TestXLSXComments: a sheet's cell comments (plain, or rich text in runs
// as Excel writes them) land after its table, in the order of their
// cells, Section "comments", on the sheet's page, without the author; a
// sheet without comments adds none. Before office/8 they
// were never read (excelize's Book1.xlsx lost its A22 comment silently).
func TestXLSXComments(t *testing.T) {
	f := excelize.NewFile()
	_ = f.SetSheetRow("Sheet1", "A1", &[]any{"Region", "Sales"})
	_ = f.SetSheetRow("Sheet1", "A2", &[]any{"North", 12.5})
	for _, c := range []excelize.Comment{
		{Cell: "B2", Author: "Bo", Text: "Includes the islands."},
		{Cell: "A1", Author: "Bo", Paragraph: []excelize.RichTextRun{{Text: "Regions ", Font: &excelize.Font{Bold: true}}, {Text: "as of 2024."}}},
	} {
		if err := f.AddComment("Sheet1", c); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.NewSheet("Other"); err != nil {
		t.Fatal(err)
	}
	_ = f.SetCellValue("Other", "A1", "plain")
	res := extractWorkbook(t, f)
	assertElems(t, res, []el{
		{document.TableCat, "Region\tSales\nNorth\t12.5", 0, 1},
		{document.NarrativeText, "Regions as of 2024.", 0, 1},
		{document.NarrativeText, "Includes the islands.", 0, 1},
		{document.TableCat, "plain", 0, 2},
	})
	for _, k := range []int{1, 2} {
		if s := res.Elements[k].Section; s != "comments" {
			t.Errorf("%q: Section %q, want comments", res.Elements[k].Text, s)
		}
	}
}

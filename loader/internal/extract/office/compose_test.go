package office

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/xuri/excelize/v2"
	"golang.org/x/text/unicode/norm"
)

// Decomposed words ("a" + U+0308 for "ä"), as a file written on macOS or
// pasted from one holds them, and the same words composed.
const (
	nfdWord  = "Bla\u0308tter"       // Blätter
	nfdName  = "Jose\u0301 Mu\u0303" // José Mũ
	nfdCell  = "Sa\u0303o Paulo"     // São Paulo
	nfcWord  = "Bl\u00e4tter"
	nfcName  = "Jos\u00e9 M\u0169"
	nfcCell  = "S\u00e3o Paulo"
	composed = nfcWord + " " + nfcCell
)

// assertComposed checks that everything a document landed (element and
// page texts, table cells, metadata) is in NFC and holds the words
// composed: the body's, a table cell's and the title's.
func assertComposed(t *testing.T, res *document.Result, title bool) {
	t.Helper()
	checkResult(t, t.Name(), res)
	var all []string
	for _, p := range res.Pages {
		all = append(all, p.Text)
	}
	for _, e := range res.Elements {
		all = append(all, e.Text, e.Section)
	}
	cells := ""
	for _, tb := range res.Tables {
		for _, r := range append([][]string{tb.Header}, tb.Rows...) {
			all = append(all, r...)
			cells += strings.Join(r, "\t") + "\n"
		}
	}
	md := res.Metadata
	all = append(all, md.Title, md.Author, md.Language)
	for _, v := range md.Extra {
		all = append(all, v)
	}
	for _, s := range all {
		if !norm.NFC.IsNormalString(s) {
			t.Errorf("landed decomposed: %q", s)
		}
	}
	text := strings.Join(all, "\n")
	if !strings.Contains(text, nfcWord) {
		t.Errorf("the body's %q is not in the text: %q", nfcWord, text)
	}
	if !strings.Contains(cells, nfcCell) {
		t.Errorf("the cell's %q is not in the tables: %q", nfcCell, cells)
	}
	if title && (md.Title != nfcWord || md.Author != nfcName) {
		t.Errorf("metadata title %q author %q, want %q %q", md.Title, md.Author, nfcWord, nfcName)
	}
}

// A DOCX, ODT, EPUB, PPTX, XLSX or CSV written decomposed lands its text in
// NFC, as HTML (html/22) and the text formats (text/5) do: the decomposed
// text landed as written, and a typed "Blätter" did not match it in SQL.
func TestDecomposedTextLandsComposed(t *testing.T) {
	ctx := context.Background()
	t.Run("docx", func(t *testing.T) {
		m := docxMembers()
		m["word/document.xml"] = `<w:document ` + wNS + `><w:body>` + para("Title", nfdWord) + para("", "Die "+nfdWord+" fallen.") +
			`<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Stadt</w:t></w:r></w:p></w:tc></w:tr><w:tr><w:tc><w:p><w:r><w:t>` + nfdCell + `</w:t></w:r></w:p></w:tc></w:tr></w:tbl>` +
			`</w:body></w:document>`
		m["docProps/core.xml"] = `<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>` + nfdWord + `</dc:title><dc:creator>` + nfdName + `</dc:creator><dc:subject>` + nfdCell + `</dc:subject></cp:coreProperties>`
		res, err := ExtractDOCX(ctx, writeZip(t, "t.docx", m), document.Options{})
		if err != nil {
			t.Fatal(err)
		}
		assertComposed(t, res, true)
	})
	t.Run("odt", func(t *testing.T) {
		ns := `xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/"`
		content := `<office:document-content ` + ns + `><office:body><office:text>` +
			`<text:h text:outline-level="1">` + nfdWord + `</text:h><text:p>Die ` + nfdWord + ` fallen.</text:p>` +
			`<table:table><table:table-row><table:table-cell><text:p>Stadt</text:p></table:table-cell></table:table-row>` +
			`<table:table-row><table:table-cell><text:p>` + nfdCell + `</text:p></table:table-cell></table:table-row></table:table>` +
			`</office:text></office:body></office:document-content>`
		res, err := ExtractODT(ctx, writeZip(t, "t.odt", map[string]string{
			"mimetype":    "application/vnd.oasis.opendocument.text",
			"content.xml": content,
			"meta.xml":    `<office:document-meta ` + ns + `><office:meta><dc:title>` + nfdWord + `</dc:title><meta:initial-creator>` + nfdName + `</meta:initial-creator></office:meta></office:document-meta>`,
		}), document.Options{})
		if err != nil {
			t.Fatal(err)
		}
		assertComposed(t, res, true)
	})
	t.Run("epub", func(t *testing.T) {
		res, err := ExtractEPUB(ctx, writeZip(t, "t.epub", map[string]string{
			"mimetype":               "application/epub+zip",
			"META-INF/container.xml": `<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
			"book.opf": `<package xmlns="http://www.idpf.org/2007/opf" xmlns:dc="http://purl.org/dc/elements/1.1/"><metadata><dc:title>` + nfdWord + `</dc:title><dc:creator>` + nfdName + `</dc:creator></metadata>` +
				`<manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/></spine></package>`,
			// the mark in an element of its own still joins its letter
			"c1.xhtml": `<html><body><h1>` + nfdWord + `</h1><p>Die Bla<em>&#x308;tter</em> fallen.</p><table><tr><th>Stadt</th></tr><tr><td>` + nfdCell + `</td></tr></table></body></html>`,
		}), document.Options{})
		if err != nil {
			t.Fatal(err)
		}
		assertComposed(t, res, true)
		if !strings.Contains(res.Pages[0].Text, "Die "+nfcWord+" fallen.") {
			t.Errorf("text %q", res.Pages[0].Text)
		}
	})
	t.Run("pptx", func(t *testing.T) {
		m := pptxMembers()
		m["ppt/slides/slide2.xml"] = `<p:sld ` + aNS + `><p:cSld><p:spTree>` + shape("ctrTitle", apara("", "", nfdWord)) +
			`<p:graphicFrame><p:nvGraphicFramePr/><a:graphic><a:graphicData><a:tbl><a:tr><a:tc><a:txBody><a:p><a:r><a:t>Stadt</a:t></a:r></a:p></a:txBody></a:tc></a:tr>` +
			`<a:tr><a:tc><a:txBody><a:p><a:r><a:t>` + nfdCell + `</a:t></a:r></a:p></a:txBody></a:tc></a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame>` +
			`</p:spTree></p:cSld></p:sld>`
		res, err := ExtractPPTX(ctx, writeZip(t, "t.pptx", m), document.Options{})
		if err != nil {
			t.Fatal(err)
		}
		assertComposed(t, res, false)
	})
	t.Run("xlsx", func(t *testing.T) {
		f := excelize.NewFile()
		_ = f.SetSheetRow("Sheet1", "A1", &[]any{"Stadt", nfdWord})
		_ = f.SetSheetRow("Sheet1", "A2", &[]any{nfdCell, 1})
		_ = f.SetDocProps(&excelize.DocProperties{Title: nfdWord, Creator: nfdName})
		p := filepath.Join(t.TempDir(), "t.xlsx")
		if err := f.SaveAs(p); err != nil {
			t.Fatal(err)
		}
		res, err := ExtractXLSX(ctx, p, document.Options{})
		if err != nil {
			t.Fatal(err)
		}
		assertComposed(t, res, true)
	})
	t.Run("csv", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "t.csv")
		if err := os.WriteFile(p, []byte("Stadt,Wort\n"+nfdCell+","+nfdWord+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := ExtractCSV(ctx, p, 0, document.Options{})
		if err != nil {
			t.Fatal(err)
		}
		assertComposed(t, res, false)
	})
}

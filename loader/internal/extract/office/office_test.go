package office

import (
	"archive/zip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/xuri/excelize/v2"
)

// writeZip builds a package from member name → content in a temp dir.
func writeZip(t *testing.T, name string, members map[string]string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for n, c := range members {
		w, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(c)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

type el struct {
	Cat   document.Category
	Text  string
	Level int
	Page  int
}

func elems(res *document.Result) []el {
	var out []el
	for _, e := range res.Elements {
		out = append(out, el{e.Category, e.Text, e.Level, e.Page})
	}
	return out
}

func assertElems(t *testing.T, res *document.Result, want []el) {
	t.Helper()
	checkResult(t, t.Name(), res)
	got := elems(res)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("elements:\n got %+v\nwant %+v", got, want)
	}
}

const wNS = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"`

func para(style, text string) string {
	ppr := ""
	if style != "" {
		ppr = `<w:pPr><w:pStyle w:val="` + style + `"/></w:pPr>`
	}
	return `<w:p>` + ppr + `<w:r><w:t>` + text + `</w:t></w:r></w:p>`
}

// docxMembers is a Transitional DOCX with styles, lists, a table, page
// breaks, tracked changes, alternate content, header and footer.
func docxMembers() map[string]string {
	body := para("Title", "Annual Report") +
		para("Heading2", "Scope") +
		para("", "Plain paragraph one.") +
		`<w:p><w:pPr><w:numPr><w:ilvl w:val="1"/><w:numId w:val="3"/></w:numPr></w:pPr><w:r><w:t>nested item</w:t></w:r></w:p>` +
		para("ListBullet", "bullet by style") +
		`<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Name</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>Qty</w:t></w:r></w:p></w:tc></w:tr>` +
		`<w:tr><w:tc><w:p><w:r><w:t>apple</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>3</w:t></w:r></w:p></w:tc></w:tr></w:tbl>` +
		`<w:p><w:r><w:t>before break</w:t></w:r><w:r><w:br w:type="page"/></w:r></w:p>` +
		`<w:p><w:r><w:lastRenderedPageBreak/><w:t xml:space="preserve">after </w:t></w:r><w:r><w:tab/><w:t>break</w:t></w:r>` +
		`<w:del><w:r><w:delText>deleted</w:delText></w:r></w:del>` +
		`<mc:AlternateContent><mc:Choice><w:r><w:t> choice</w:t></w:r></mc:Choice><mc:Fallback><w:r><w:t> fallback</w:t></w:r></mc:Fallback></mc:AlternateContent></w:p>` +
		`<w:p><w:pPr><w:outlineLvl w:val="0"/></w:pPr><w:r><w:t>Outline heading</w:t></w:r></w:p>` +
		`<w:sectPr><w:headerReference r:id="rH"/><w:footerReference r:id="rF"/></w:sectPr>`
	return map[string]string{
		"_rels/.rels":                  `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
		"word/document.xml":            `<w:document ` + wNS + `><w:body>` + body + `</w:body></w:document>`,
		"word/_rels/document.xml.rels": `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rH" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/header" Target="header1.xml"/><Relationship Id="rF" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footer" Target="footer1.xml"/></Relationships>`,
		"word/styles.xml": `<w:styles ` + wNS + `><w:docDefaults><w:rPrDefault><w:rPr><w:lang w:val="en-GB"/></w:rPr></w:rPrDefault></w:docDefaults>` +
			`<w:style w:styleId="Title"><w:name w:val="Title"/></w:style><w:style w:styleId="Heading2"><w:name w:val="heading 2"/></w:style>` +
			`<w:style w:styleId="ListBullet"><w:name w:val="List Bullet"/></w:style></w:styles>`,
		"word/header1.xml":  `<w:hdr ` + wNS + `>` + para("Header", "ACME confidential") + `</w:hdr>`,
		"word/footer1.xml":  `<w:ftr ` + wNS + `>` + para("Footer", "Page 7") + `</w:ftr>`,
		"docProps/core.xml": `<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/"><dc:title>Report 2024</dc:title><dc:creator>Ann</dc:creator><dcterms:created>2024-01-02T03:04:05Z</dcterms:created><dcterms:modified>2024-02-03T00:00:00Z</dcterms:modified></cp:coreProperties>`,
	}
}

func TestDOCX(t *testing.T) {
	p := writeZip(t, "t.docx", docxMembers())
	res, err := ExtractDOCX(context.Background(), p, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	assertElems(t, res, []el{
		{document.Header, "ACME confidential", 0, 1},
		{document.Title, "Annual Report", 1, 1},
		{document.Title, "Scope", 2, 1},
		{document.NarrativeText, "Plain paragraph one.", 0, 1},
		{document.ListItem, "nested item", 2, 1},
		{document.ListItem, "bullet by style", 1, 1},
		{document.TableCat, "Name\tQty\napple\t3", 0, 1},
		{document.NarrativeText, "before break", 0, 1},
		{document.NarrativeText, "after \tbreak choice", 0, 2},
		{document.Title, "Outline heading", 1, 2},
		{document.PageNumber, "Page 7", 0, 2},
	})
	if len(res.Pages) != 2 || res.Metadata.PageCount != 2 {
		t.Errorf("pages %d", len(res.Pages))
	}
	if len(res.Tables) != 1 || !reflect.DeepEqual(res.Tables[0].Header, []string{"Name", "Qty"}) || !reflect.DeepEqual(res.Tables[0].Rows, [][]string{{"apple", "3"}}) {
		t.Errorf("tables %+v", res.Tables)
	}
	md := res.Metadata
	if md.Title != "Report 2024" || md.Author != "Ann" || md.Created != "2024-01-02T03:04:05Z" || md.Modified != "2024-02-03T00:00:00Z" || md.Language != "en-GB" {
		t.Errorf("metadata %+v", md)
	}
	if res.Elements[4].Section != "Scope" || res.Pages[0].Method != document.MethodNative {
		t.Errorf("section %q method %q", res.Elements[4].Section, res.Pages[0].Method)
	}
}

const aNS = `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`

func shape(ph, paras string) string {
	nv := `<p:nvSpPr><p:cNvPr id="1" name="s"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr>`
	if ph != "" {
		nv = `<p:nvSpPr><p:cNvPr id="1" name="s"/><p:cNvSpPr/><p:nvPr><p:ph type="` + ph + `"/></p:nvPr></p:nvSpPr>`
	}
	return `<p:sp>` + nv + `<p:spPr/><p:txBody><a:bodyPr/>` + paras + `</p:txBody></p:sp>`
}

func apara(lvl, bullet, text string) string {
	ppr := ""
	if lvl != "" || bullet != "" {
		ppr = `<a:pPr`
		if lvl != "" {
			ppr += ` lvl="` + lvl + `"`
		}
		ppr += `>` + bullet + `</a:pPr>`
	}
	return `<a:p>` + ppr + `<a:r><a:t>` + text + `</a:t></a:r></a:p>`
}

// pptxMembers is a Transitional PPTX with placeholders, lists, groups, a
// table, notes and slides listed out of file order.
func pptxMembers() map[string]string {
	slide1 := `<p:sld ` + aNS + `><p:cSld><p:spTree>` +
		shape("dt", apara("", "", "2024-05-01")) +
		shape("title", apara("", "", "Roadmap")) +
		shape("", apara("", "", "Intro text")+apara("0", `<a:buChar char="•"/>`, "Point A")+apara("1", "", "Sub point")) +
		`<p:grpSp><p:nvGrpSpPr/><p:grpSpPr/>` + shape("", apara("", "", "In a group")) +
		`<p:grpSp><p:nvGrpSpPr/><p:grpSpPr/>` + shape("", apara("", "", "Nested group")) + `</p:grpSp></p:grpSp>` +
		`<p:graphicFrame><p:nvGraphicFramePr/><a:graphic><a:graphicData><a:tbl><a:tr><a:tc><a:txBody><a:p><a:r><a:t>K</a:t></a:r></a:p></a:txBody></a:tc><a:tc><a:txBody><a:p><a:r><a:t>V</a:t></a:r></a:p></a:txBody></a:tc></a:tr>` +
		`<a:tr><a:tc><a:txBody><a:p><a:r><a:t>x</a:t></a:r></a:p></a:txBody></a:tc><a:tc><a:txBody><a:p><a:r><a:t>1</a:t></a:r></a:p></a:txBody></a:tc></a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame>` +
		shape("sldNum", apara("", "", "1")) +
		`</p:spTree></p:cSld></p:sld>`
	slide2 := `<p:sld ` + aNS + `><p:cSld><p:spTree>` + shape("ctrTitle", apara("", "", "Thanks")) + `</p:spTree></p:cSld></p:sld>`
	notes := `<p:notes ` + aNS + `><p:cSld><p:spTree>` + shape("sldImg", "") + shape("body", apara("", "", "Say hello first.")) + `</p:spTree></p:cSld></p:notes>`
	rel := func(id, typ, target string) string {
		return `<Relationship Id="` + id + `" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/` + typ + `" Target="` + target + `"/>`
	}
	rels := func(s string) string {
		return `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` + s + `</Relationships>`
	}
	return map[string]string{
		"_rels/.rels":                      rels(rel("r1", "officeDocument", "ppt/presentation.xml")),
		"ppt/presentation.xml":             `<p:presentation ` + aNS + `><p:sldIdLst><p:sldId id="257" r:id="rB"/><p:sldId id="256" r:id="rA"/></p:sldIdLst><p:sldSz cx="9144000" cy="6858000"/></p:presentation>`,
		"ppt/_rels/presentation.xml.rels":  rels(rel("rA", "slide", "slides/slide2.xml") + rel("rB", "slide", "slides/slide1.xml")),
		"ppt/slides/slide1.xml":            slide1,
		"ppt/slides/slide2.xml":            slide2,
		"ppt/slides/_rels/slide1.xml.rels": rels(rel("rN", "notesSlide", "../notesSlides/notesSlide1.xml")),
		"ppt/notesSlides/notesSlide1.xml":  notes,
	}
}

func TestPPTX(t *testing.T) {
	p := writeZip(t, "t.pptx", pptxMembers())
	res, err := ExtractPPTX(context.Background(), p, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	assertElems(t, res, []el{
		{document.Title, "Roadmap", 1, 1},
		{document.Footer, "2024-05-01", 0, 1},
		{document.NarrativeText, "Intro text", 0, 1},
		{document.ListItem, "Point A", 1, 1},
		{document.ListItem, "Sub point", 2, 1},
		{document.NarrativeText, "In a group", 0, 1},
		{document.NarrativeText, "Nested group", 0, 1},
		{document.TableCat, "K\tV\nx\t1", 0, 1},
		{document.PageNumber, "1", 0, 1},
		{document.NarrativeText, "Say hello first.", 0, 1},
		{document.Title, "Thanks", 1, 2},
	})
	if n := res.Elements[9]; n.Section != "notes" {
		t.Errorf("notes section %q", n.Section)
	}
	if len(res.Pages) != 2 || res.Pages[0].Width != 720 || res.Pages[0].Height != 540 {
		t.Errorf("pages %+v", res.Pages)
	}
	if len(res.Tables) != 1 || res.Tables[0].Header[0] != "K" {
		t.Errorf("tables %+v", res.Tables)
	}
}

func TestXLSX(t *testing.T) {
	dir := t.TempDir()
	f := excelize.NewFile()
	_ = f.SetSheetRow("Sheet1", "B2", &[]any{"Region", "Sales"})
	_ = f.SetSheetRow("Sheet1", "B3", &[]any{"North", 12.5})
	_ = f.SetSheetRow("Sheet1", "B5", &[]any{"South", 7})
	if _, err := f.NewSheet("Empty"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.NewSheet("Big"); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 30; i++ {
		cell, _ := excelize.CoordinatesToCellName(1, i)
		_ = f.SetCellValue("Big", cell, i)
	}
	_ = f.SetDocProps(&excelize.DocProperties{Title: "Sales", Creator: "Bo", Created: "2024-03-04T05:06:07Z"})
	p := filepath.Join(dir, "t.xlsx")
	if err := f.SaveAs(p); err != nil {
		t.Fatal(err)
	}
	res, err := ExtractXLSX(context.Background(), p, document.Options{MaxSheetRows: 10})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, "xlsx", res)
	if len(res.Pages) != 3 {
		t.Fatalf("pages %d", len(res.Pages))
	}
	if got := res.Pages[0].Text; got != "\tRegion\tSales\n\tNorth\t12.5\n\tSouth\t7" {
		t.Errorf("sheet1 text %q", got)
	}
	if res.Pages[1].Text != "" || len(res.Tables) != 2 {
		t.Errorf("empty sheet %q, tables %d", res.Pages[1].Text, len(res.Tables))
	}
	tb := res.Tables[0]
	if !reflect.DeepEqual(tb.Header, []string{"", "Region", "Sales"}) || len(tb.Rows) != 2 || tb.Page != 1 {
		t.Errorf("table %+v", tb)
	}
	if big := res.Tables[1]; big.Page != 3 || len(big.Rows) != 9 || len(res.Warnings) != 1 {
		t.Errorf("bounded sheet: page %d rows %d warnings %v", big.Page, len(big.Rows), res.Warnings)
	}
	// the rows dropped are a review, not only a warning (they landed silently)
	if len(res.Reviews) != 1 || res.Reviews[0].Code != document.ReviewTruncated || !strings.Contains(res.Reviews[0].Message, "has more than 10 rows (loader.max_sheet_rows): only its first 10 are in the warehouse") {
		t.Errorf("bounded sheet: reviews %v", res.Reviews)
	}
	if res.Metadata.Title != "Sales" || res.Metadata.Author != "Bo" || res.Elements[0].Section != "Sheet1" {
		t.Errorf("metadata %+v section %q", res.Metadata, res.Elements[0].Section)
	}
}

func TestCSV(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	utf16 := []byte{0xFF, 0xFE}
	for _, r := range "a,b\n1,é\n" {
		utf16 = append(utf16, byte(r), byte(r>>8))
	}
	cases := []struct {
		name   string
		data   []byte
		delim  rune
		header []string
		rows   [][]string
		text   string
	}{
		{"comma.csv", []byte("name,note\nann,\"says \"\"hi\"\", ok\"\n\nbob,short,extra\n"), 0,
			[]string{"name", "note", ""}, [][]string{{"ann", `says "hi", ok`, ""}, {"bob", "short", "extra"}},
			"name\tnote\t\nann\tsays \"hi\", ok\t\nbob\tshort\textra"},
		{"semi.csv", []byte("x;y\n1;2\n"), 0, []string{"x", "y"}, [][]string{{"1", "2"}}, "x\ty\n1\t2"},
		{"t.tsv", []byte("x\ty\n1\t2\n"), '\t', []string{"x", "y"}, [][]string{{"1", "2"}}, "x\ty\n1\t2"},
		{"u16.csv", utf16, 0, []string{"a", "b"}, [][]string{{"1", "é"}}, "a\tb\n1\té"},
		{"cp1252.csv", []byte("a,b\ncaf\xe9,1\n"), 0, []string{"a", "b"}, [][]string{{"café", "1"}}, "a\tb\ncafé\t1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := ExtractCSV(context.Background(), write(c.name, c.data), c.delim, document.Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkResult(t, c.name, res)
			if len(res.Tables) != 1 || !reflect.DeepEqual(res.Tables[0].Header, c.header) || !reflect.DeepEqual(res.Tables[0].Rows, c.rows) {
				t.Errorf("table %+v", res.Tables)
			}
			if res.Pages[0].Text != c.text {
				t.Errorf("text %q want %q", res.Pages[0].Text, c.text)
			}
		})
	}
	res, err := ExtractCSV(context.Background(), write("empty.csv", nil), 0, document.Options{})
	if err != nil || len(res.Pages) != 1 || len(res.Elements) != 0 {
		t.Errorf("empty csv: %v %+v", err, res)
	}
	// rows past loader.max_sheet_rows are dropped with a review (they
	// were dropped with a warning only, the file landed unflagged)
	res, err = ExtractCSV(context.Background(), write("long.csv", []byte("a,b\n1,2\n3,4\n5,6\n")), 0, document.Options{MaxSheetRows: 2})
	if err != nil || len(res.Tables) != 1 || len(res.Tables[0].Rows) != 1 || len(res.Reviews) != 1 || res.Reviews[0].Code != document.ReviewTruncated ||
		!strings.Contains(res.Reviews[0].Message, "the file has more than 2 rows (loader.max_sheet_rows): only its first 2 are in the warehouse") {
		t.Errorf("long csv: %v, tables %+v, reviews %v", err, res.Tables, res.Reviews)
	}
}

func TestODT(t *testing.T) {
	ns := `xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/"`
	content := `<office:document-content ` + ns + `><office:automatic-styles><style:style style:name="P1" style:parent-style-name="Title"/></office:automatic-styles><office:body><office:text>` +
		`<text:p text:style-name="P1">Guide</text:p>` +
		`<text:h text:outline-level="2">Setup</text:h>` +
		`<text:p>Install<text:s text:c="2"/>it<text:note><text:note-citation>1</text:note-citation><text:note-body><text:p>footnote</text:p></text:note-body></text:note>.</text:p>` +
		`<text:list><text:list-item><text:p>one</text:p><text:list><text:list-item><text:p>deeper</text:p></text:list-item></text:list></text:list-item></text:list>` +
		`<table:table><table:table-row><table:table-cell><text:p>h1</text:p></table:table-cell><table:table-cell><text:p>h2</text:p></table:table-cell></table:table-row>` +
		`<table:table-row><table:table-cell table:number-columns-repeated="2"><text:p>v</text:p></table:table-cell></table:table-row></table:table>` +
		`<text:soft-page-break/><text:p>Next page</text:p>` +
		`</office:text></office:body></office:document-content>`
	p := writeZip(t, "t.odt", map[string]string{
		"mimetype":    "application/vnd.oasis.opendocument.text",
		"content.xml": content,
		"styles.xml":  `<office:document-styles ` + ns + `><office:master-styles><style:master-page style:name="Standard"><style:header><text:p>Top line</text:p></style:header><style:footer><text:p>Bottom line</text:p></style:footer></style:master-page></office:master-styles></office:document-styles>`,
		"meta.xml":    `<office:document-meta ` + ns + `><office:meta><dc:title>The Guide</dc:title><meta:initial-creator>Cy</meta:initial-creator><meta:creation-date>2023-05-04T17:47:22</meta:creation-date><dc:language>fr</dc:language></office:meta></office:document-meta>`,
	})
	res, err := ExtractODT(context.Background(), p, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	assertElems(t, res, []el{
		{document.Header, "Top line", 0, 1},
		{document.Title, "Guide", 1, 1},
		{document.Title, "Setup", 2, 1},
		{document.NarrativeText, "Install  it.", 0, 1},
		{document.ListItem, "one", 1, 1},
		{document.ListItem, "deeper", 2, 1},
		{document.TableCat, "h1\th2\nv\tv", 0, 1},
		{document.NarrativeText, "Next page", 0, 2},
		{document.NarrativeText, "footnote", 0, 2},
		{document.Footer, "Bottom line", 0, 2},
	})
	md := res.Metadata
	if md.Title != "The Guide" || md.Author != "Cy" || md.Created != "2023-05-04T17:47:22Z" || md.Language != "fr" {
		t.Errorf("metadata %+v", md)
	}
}

func TestEPUB(t *testing.T) {
	p := writeZip(t, "t.epub", map[string]string{
		"mimetype":               "application/epub+zip",
		"META-INF/container.xml": `<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OPS/book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
		"OPS/book.opf": `<package xmlns="http://www.idpf.org/2007/opf" xmlns:dc="http://purl.org/dc/elements/1.1/"><metadata><dc:title>Tale</dc:title><dc:creator>Di</dc:creator><dc:language>en</dc:language><meta property="dcterms:modified">2020-01-01T00:00:00Z</meta></metadata>` +
			`<manifest><item id="c2" href="text/c2.xhtml" media-type="application/xhtml+xml"/><item id="c1" href="text/c1.xhtml" media-type="application/xhtml+xml"/><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/></manifest>` +
			`<spine><itemref idref="nav"/><itemref idref="c1"/><itemref idref="c2"/></spine></package>`,
		"OPS/nav.xhtml":     `<html><body><nav><ol><li>Chapter One</li></ol></nav></body></html>`,
		"OPS/text/c1.xhtml": `<html><head><title>x</title><style>p{}</style></head><body><h1>Chapter One</h1><p>It was   a <em>dark</em> night.</p><ul><li>rain</li><li>wind</li></ul><table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table></body></html>`,
		"OPS/text/c2.xhtml": `<html><body><h2>Part</h2><p>The end.</p></body></html>`,
	})
	res, err := ExtractEPUB(context.Background(), p, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	assertElems(t, res, []el{
		{document.Title, "Chapter One", 1, 1},
		{document.NarrativeText, "It was a dark night.", 0, 1},
		{document.ListItem, "rain", 1, 1},
		{document.ListItem, "wind", 1, 1},
		{document.TableCat, "a\tb\n1\t2", 0, 1},
		{document.Title, "Part", 2, 2},
		{document.NarrativeText, "The end.", 0, 2},
	})
	if res.Metadata.Title != "Tale" || res.Metadata.Author != "Di" || res.Metadata.Modified != "2020-01-01T00:00:00Z" {
		t.Errorf("metadata %+v", res.Metadata)
	}
}

func TestBadFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ole := append(append([]byte{}, cfbMagic...), make([]byte, 600)...)
	enc := append(append([]byte{}, ole...), utf16le("EncryptedPackage")...)
	ctx := context.Background()
	cases := []struct {
		name string
		fn   func() error
		kind string
	}{
		{"docx garbage", func() error {
			_, err := ExtractDOCX(ctx, write("a.docx", []byte("not a zip")), document.Options{})
			return err
		}, document.KindCorrupt},
		{"docx empty", func() error { _, err := ExtractDOCX(ctx, write("b.docx", nil), document.Options{}); return err }, document.KindEmpty},
		{"docx encrypted", func() error { _, err := ExtractDOCX(ctx, write("c.docx", enc), document.Options{}); return err }, document.KindEncrypted},
		{"xlsx encrypted", func() error { _, err := ExtractXLSX(ctx, write("d.xlsx", enc), document.Options{}); return err }, document.KindEncrypted},
		{"xlsx legacy", func() error { _, err := ExtractXLSX(ctx, write("e.xlsx", ole), document.Options{}); return err }, document.KindUnsupported},
		{"xlsx garbage", func() error {
			_, err := ExtractXLSX(ctx, write("f.xlsx", []byte("PK junk")), document.Options{})
			return err
		}, document.KindCorrupt},
		{"pptx no presentation", func() error {
			_, err := ExtractPPTX(ctx, writeZip(t, "g.pptx", map[string]string{"x.xml": "<x/>"}), document.Options{})
			return err
		}, document.KindCorrupt},
		{"docx broken xml", func() error {
			_, err := ExtractDOCX(ctx, writeZip(t, "h.docx", map[string]string{"word/document.xml": "<w:document><w:body><w:p><w:r><w:t>x"}), document.Options{})
			return err
		}, document.KindCorrupt},
		{"epub no opf", func() error {
			_, err := ExtractEPUB(ctx, writeZip(t, "i.epub", map[string]string{"mimetype": "application/epub+zip"}), document.Options{})
			return err
		}, document.KindCorrupt},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.fn()
			var de *document.Error
			if !errors.As(err, &de) || de.Kind != c.kind {
				t.Errorf("err = %v, want kind %s", err, c.kind)
			}
		})
	}
	// a cancelled context stops the walk
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	big := strings.Repeat(para("", "x"), 10000)
	p := writeZip(t, "big.docx", map[string]string{"word/document.xml": `<w:document ` + wNS + `><w:body>` + big + `</w:body></w:document>`})
	if _, err := ExtractDOCX(cctx, p, document.Options{}); err == nil {
		t.Error("cancelled context: no error")
	}
}

// A DOCX or ODT whose body XML breaks off part-way lands what came before
// the damage, with a review: it landed with a warning only.
func TestBodyCutShortFlagged(t *testing.T) {
	m := docxMembers()
	doc := m["word/document.xml"]
	m["word/document.xml"] = doc[:strings.Index(doc, "before break")]
	res, err := ExtractDOCX(context.Background(), writeZip(t, "cut.docx", m), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Pages[0].Text, "Plain paragraph one.") || len(res.Reviews) != 1 || res.Reviews[0].Code != document.ReviewTruncated ||
		!strings.Contains(res.Reviews[0].Message, "the document's body is damaged (") || !strings.Contains(res.Reviews[0].Message, "only the text before the damage is in the warehouse") {
		t.Errorf("cut docx: text %q, reviews %v", res.Pages[0].Text, res.Reviews)
	}
	ns := `xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"`
	content := `<office:document-content ` + ns + `><office:body><office:text><text:p>Kept paragraph.</text:p><text:p>Lost para`
	res, err = ExtractODT(context.Background(), writeZip(t, "cut.odt", map[string]string{"mimetype": "application/vnd.oasis.opendocument.text", "content.xml": content}), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Pages[0].Text, "Kept paragraph.") || len(res.Reviews) != 1 || res.Reviews[0].Code != document.ReviewTruncated ||
		!strings.Contains(res.Reviews[0].Message, "the document's content is damaged (") {
		t.Errorf("cut odt: text %q, reviews %v, warnings %v", res.Pages[0].Text, res.Reviews, res.Warnings)
	}
}

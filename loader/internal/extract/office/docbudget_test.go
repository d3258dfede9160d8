package office

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestDocCharsBoundTheBuild (review45's MEDIUMs): small files whose cells
// or paragraphs repeat one long text built all of it before
// extract.LimitText cut it to loader.max_doc_chars: an XLSX whose 20,000
// cells name one 32,000-character shared string built 640M characters
// (5.1 GB), an ODS row of 30 such cells repeated 200 times 192M (1.35 GB),
// a DOCX repeating one paragraph 101M. The builder stops at max_doc_chars
// (the row or paragraph crossing it is the last) and flags the document
// truncated; what it built is about what lands.
func TestDocCharsBoundTheBuild(t *testing.T) {
	long := strings.Repeat("word ", 6400) // 32,000 characters
	const maxDoc = 1_000_000
	xlsx := sharedStringsSheet(t, "<si><t>"+long+"</t></si>", func(int) int { return 0 })
	cell := `<table:table-cell office:value-type="string"><text:p>` + long + `</text:p></table:table-cell>`
	ods := writeZip(t, "r.ods", map[string]string{
		"mimetype": "application/vnd.oasis.opendocument.spreadsheet",
		"content.xml": `<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:spreadsheet><table:table table:name="S">` +
			`<table:table-row table:number-rows-repeated="100">` + strings.Repeat(cell, 30) + `</table:table-row></table:table></office:spreadsheet></office:body></office:document-content>`,
	})
	var wide strings.Builder // one row naming the string in 2,000 columns (review45)
	for c := 1; c <= 2000; c++ {
		fmt.Fprintf(&wide, `<c r="%s1" t="s"><v>0</v></c>`, colName(c))
	}
	wideXLSX := writeZip(t, "w.xlsx", map[string]string{
		"[Content_Types].xml":        xlsxTypes,
		"_rels/.rels":                xlsxRels,
		"xl/workbook.xml":            xlsxBook,
		"xl/_rels/workbook.xml.rels": xlsxBookRels,
		"xl/sharedStrings.xml":       `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" uniqueCount="1"><si><t>` + long + `</t></si></sst>`,
		"xl/worksheets/sheet1.xml":   `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1">` + wide.String() + `</row></sheetData></worksheet>`,
	})
	m := docxMembers()
	m["word/document.xml"] = `<w:document ` + wNS + `><w:body>` + strings.Repeat(`<w:p><w:r><w:t>`+long+`</w:t></w:r></w:p>`, 300) + `</w:body></w:document>`
	delete(m, "word/_rels/document.xml.rels")
	docx := writeZip(t, "p.docx", m)
	for _, c := range []struct {
		name    string
		extract func(context.Context, string, document.Options) (*document.Result, error)
		path    string
		row     int // the most one row or paragraph adds
	}{
		{"xlsx shared string", ExtractXLSX, xlsx, 10 * 32001},
		{"xlsx one wide row", ExtractXLSX, wideXLSX, 32001},
		{"ods repeated rows", ExtractODS, ods, 30 * 32001},
		{"docx repeated paragraph", ExtractDOCX, docx, 32002},
	} {
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		res, err := c.extract(context.Background(), c.path, document.Options{MaxDocChars: maxDoc})
		runtime.ReadMemStats(&m1)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		n := 0
		for _, p := range res.Pages {
			n += utf8.RuneCountInString(p.Text)
		}
		if n < maxDoc || n > maxDoc+c.row {
			t.Errorf("%s: built %d characters, want %d to %d", c.name, n, maxDoc, maxDoc+c.row)
		}
		truncated := 0
		for _, r := range res.Reviews {
			if r.Code == document.ReviewTruncated && strings.Contains(r.Message, "loader.max_doc_chars") {
				truncated++
			}
		}
		if truncated != 1 {
			t.Errorf("%s: %d max_doc_chars reviews: %v", c.name, truncated, res.Reviews)
		}
		if a := m1.TotalAlloc - m0.TotalAlloc; a > 120<<20 {
			t.Errorf("%s: allocated %d MB", c.name, a>>20)
		}
	}
}

// The parts of a one-sheet workbook ("S") with a shared strings part.
const (
	xlsxTypes    = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`
	xlsxRels     = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`
	xlsxBook     = `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`
	xlsxBookRels = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`
)

// TestDocCharsCountCharacters (review46's HIGH on office/33): the room an
// XLSX sheet and a table have was taken in bytes, the document's text in
// characters: a sheet of Japanese cells stopped being read at about a
// third of loader.max_doc_chars and, the text staying under it, nothing
// was flagged (30 of 399 rows landed, no review); an ODS of such cells lost
// two thirds of its allowed text. Both now land up to max_doc_chars and
// are flagged truncated, as their ASCII twins are.
func TestDocCharsCountCharacters(t *testing.T) {
	const maxDoc = 100_000
	for _, word := range []string{"abcdefghij", "東京都港区芝公園四丁目"} {
		var sst strings.Builder
		for i := 0; i < 10; i++ {
			fmt.Fprintf(&sst, "<si><t>%d%s</t></si>", i, strings.Repeat(word, 10))
		}
		xlsx := sharedStringsSheet(t, sst.String(), func(c int) int { return c })
		cell := `<table:table-cell office:value-type="string"><text:p>` + strings.Repeat(word, 10) + `</text:p></table:table-cell>`
		var rows strings.Builder
		for r := 0; r < 400; r++ {
			fmt.Fprintf(&rows, `<table:table-row>%s<table:table-cell office:value-type="float" office:value="%d"><text:p>%d</text:p></table:table-cell></table:table-row>`, strings.Repeat(cell, 9), r, r)
		}
		ods := writeZip(t, "r.ods", map[string]string{
			"mimetype": "application/vnd.oasis.opendocument.spreadsheet",
			"content.xml": `<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:spreadsheet><table:table table:name="S">` +
				rows.String() + `</table:table></office:spreadsheet></office:body></office:document-content>`,
		})
		for name, extract := range map[string]func(context.Context, string, document.Options) (*document.Result, error){
			"xlsx": func(ctx context.Context, p string, o document.Options) (*document.Result, error) {
				return ExtractXLSX(ctx, xlsx, o)
			},
			"ods": func(ctx context.Context, p string, o document.Options) (*document.Result, error) {
				return ExtractODS(ctx, ods, o)
			},
		} {
			res, err := extract(context.Background(), "", document.Options{MaxDocChars: maxDoc})
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, pg := range res.Pages {
				n += utf8.RuneCountInString(pg.Text)
			}
			truncated := false
			for _, r := range res.Reviews {
				truncated = truncated || r.Code == document.ReviewTruncated
			}
			if n < maxDoc*95/100 || !truncated {
				t.Errorf("%s of %q cells, max_doc_chars %d: %d characters landed, truncated flagged %v", name, word[:3], maxDoc, n, truncated)
			}
		}
	}
}

// sharedStringsSheet is an XLSX whose shared strings are sis (<si>
// elements) and whose one sheet has 400 rows of 10 cells, the cell in
// column c naming shared string str(c).
func sharedStringsSheet(t *testing.T, sis string, str func(c int) int) string {
	t.Helper()
	var sheet strings.Builder
	for r := 1; r <= 400; r++ {
		fmt.Fprintf(&sheet, `<row r="%d">`, r)
		for c := 0; c < 10; c++ {
			fmt.Fprintf(&sheet, `<c r="%c%d" t="s"><v>%d</v></c>`, 'A'+c, r, str(c))
		}
		sheet.WriteString(`</row>`)
	}
	return writeZip(t, "s.xlsx", map[string]string{
		"[Content_Types].xml":        xlsxTypes,
		"_rels/.rels":                xlsxRels,
		"xl/workbook.xml":            xlsxBook,
		"xl/_rels/workbook.xml.rels": xlsxBookRels,
		"xl/sharedStrings.xml":       `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` + sis + `</sst>`,
		"xl/worksheets/sheet1.xml":   `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>` + sheet.String() + `</sheetData></worksheet>`,
	})
}

package office

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/extracttest"
)

const odfNS = `xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"`

// odsMembers is a spreadsheet as LibreOffice Calc writes one: two sheets,
// a head cell of two paragraphs, formatted numbers, a run of empty
// columns and rows repeated to the sheet's edge, a row repeated (the same
// values on 100 rows), a cell comment, and the print header and footer
// Calc fills in when it prints (sheet name "???", "Page 1").
func odsMembers() map[string]string {
	cell := func(s string) string {
		return `<table:table-cell office:value-type="string"><text:p>` + s + `</text:p></table:table-cell>`
	}
	num := func(v, shown string) string {
		return `<table:table-cell office:value-type="float" office:value="` + v + `"><text:p>` + shown + `</text:p></table:table-cell>`
	}
	edge := `<table:table-cell table:number-columns-repeated="1020"/>`
	row := func(cells ...string) string {
		return `<table:table-row>` + strings.Join(cells, "") + edge + `</table:table-row>`
	}
	content := `<office:document-content ` + odfNS + `><office:body><office:spreadsheet>` +
		`<table:table table:name="Population"><table:table-column table:number-columns-repeated="3"/>` +
		row(cell("Country"), `<table:table-cell office:value-type="string"><text:p>Population</text:p><text:p>in millions</text:p></table:table-cell>`, cell("Area")) +
		row(cell("Austria"), num("8.3", "8.3"), num("83858", "83,858")) +
		row(cell("Belgium"), `<table:table-cell office:value-type="float" office:value="10.5"><office:annotation><dc:creator>Søren</dc:creator><text:p>Estimate for 2008.</text:p></office:annotation><text:p>10.5</text:p></table:table-cell>`, num("30510", "30,510")) +
		`<table:table-row table:number-rows-repeated="1048573"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>` +
		`</table:table>` +
		`<table:table table:name="Checks"><table:table-column/>` +
		row(cell("Item"), cell("State")) +
		`<table:table-row table:number-rows-repeated="70">` + cell("pending") + cell("open") + edge + `</table:table-row>` +
		`</table:table>` +
		`</office:spreadsheet></office:body></office:document-content>`
	styles := `<office:document-styles ` + odfNS + `><office:master-styles><style:master-page style:name="Default">` +
		`<style:header><text:p><text:sheet-name>???</text:sheet-name></text:p></style:header>` +
		`<style:footer><text:p>Page <text:page-number>1</text:page-number></text:p></style:footer>` +
		`</style:master-page></office:master-styles></office:document-styles>`
	meta := `<office:document-meta ` + odfNS + `><office:meta><dc:title>Country statistics</dc:title><meta:initial-creator>Søren Roug</meta:initial-creator></office:meta></office:document-meta>`
	return map[string]string{"mimetype": "application/vnd.oasis.opendocument.spreadsheet", "content.xml": content, "styles.xml": styles, "meta.xml": meta}
}

// TestODSSheets: an ODS lands as an XLSX does: a page per sheet, Section
// the sheet's name, one table per sheet, a repeated row as its copies,
// the cell comment after the sheet's table (Section comments), no print
// header or footer. Before office/11 an ODS was quarantined
// unsupported_type (no route; the ODT reader read both sheets as one page
// without their names, "???" and "Page 1" with them, the repeated row 64
// times).
func TestODSSheets(t *testing.T) {
	res, err := ExtractODS(context.Background(), writeZip(t, "stats.ods", odsMembers()), document.Options{})
	extracttest.Golden(t, "gen.ods", res, err)
	if err != nil {
		t.Fatal(err)
	}
	if res.Type != "ods" || len(res.Pages) != 2 || len(res.Tables) != 2 {
		t.Fatalf("type %q, %d pages, %d tables", res.Type, len(res.Pages), len(res.Tables))
	}
	if h := res.Tables[0].Header; strings.Join(h, "|") != "Country|Population\nin millions|Area" {
		t.Errorf("sheet 1 header %q", h)
	}
	if tb := res.Tables[1]; tb.Page != 2 || len(tb.Rows) != 70 {
		t.Errorf("sheet 2: page %d, %d rows (want 2, 70)", tb.Page, len(tb.Rows))
	}
	for _, e := range res.Elements {
		want := []string{"", "Population", "Checks"}[e.Page]
		if e.Text == "Estimate for 2008." {
			want = "comments"
			if e.Page != 1 {
				t.Errorf("the comment on page %d", e.Page)
			}
		}
		if e.Section != want {
			t.Errorf("%.30q on page %d: Section %q, want %q", e.Text, e.Page, e.Section, want)
		}
		if strings.Contains(e.Text, "???") || strings.Contains(e.Text, "Page 1") {
			t.Errorf("print field landed: %q", e.Text)
		}
	}
	if got := res.Metadata.Extra["sheets"]; got != "Population\tChecks" {
		t.Errorf("sheets %q", got)
	}
}

// TestODSRowLimit: rows past loader.max_sheet_rows go with a warning and
// a truncated review, as an XLSX's, a repeated row counting as its copies.
func TestODSRowLimit(t *testing.T) {
	res, err := ExtractODS(context.Background(), writeZip(t, "stats.ods", odsMembers()), document.Options{MaxSheetRows: 50})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(res.Tables[1].Rows); n != 49 {
		t.Errorf("sheet 2 kept %d body rows, want 49", n)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], `sheet "Checks": more than 50 rows`) {
		t.Errorf("warnings %q", res.Warnings)
	}
	found := false
	for _, r := range res.AllReviews() {
		found = found || r.Code == document.ReviewTruncated
	}
	if !found {
		t.Errorf("no truncated review: %v", res.AllReviews())
	}
}

// TestODPNotesSection: an ODP slide's speaker notes are Section "notes",
// as a PPTX's; before office/11 they were the slide's paragraphs.
func TestODPNotesSection(t *testing.T) {
	content := `<office:document-content ` + odfNS + `><office:body><office:presentation>` +
		`<draw:page draw:name="p1"><draw:frame><draw:text-box><text:p>Slide text</text:p></draw:text-box></draw:frame>` +
		`<presentation:notes><draw:page-thumbnail/><draw:frame><draw:text-box><text:p>Thank the port authority.</text:p></draw:text-box></draw:frame></presentation:notes></draw:page>` +
		`<draw:page draw:name="p2"><draw:frame><draw:text-box><text:p>Second slide</text:p></draw:text-box></draw:frame></draw:page>` +
		`</office:presentation></office:body></office:document-content>`
	res, err := ExtractODT(context.Background(), writeZip(t, "deck.odp", map[string]string{"mimetype": "application/vnd.oasis.opendocument.presentation", "content.xml": content}), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"Slide text": "", "Thank the port authority.": "notes", "Second slide": ""}
	for _, e := range res.Elements {
		if s, ok := want[e.Text]; !ok || e.Section != s {
			t.Errorf("%q: Section %q (want %q, known %v)", e.Text, e.Section, s, ok)
		}
	}
	if len(res.Elements) != 3 || len(res.Pages) != 2 {
		t.Errorf("%d elements, %d pages", len(res.Elements), len(res.Pages))
	}
}

// TestODSRepeatBomb: a sheet of 100 rows each repeated 20,000 times
// (content.xml of 20 KB) keeps loader.max_sheet_rows rows with the
// truncated review, and its reading allocates tens of MB, not the 1.25 GB
// of two million rows (each row's copies were capped at the limit, the
// sheet's total was not: review37).
func TestODSRepeatBomb(t *testing.T) {
	row := `<table:table-row table:number-rows-repeated="20000"><table:table-cell table:number-columns-repeated="1024" office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row>`
	content := `<office:document-content ` + odfNS + `><office:body><office:spreadsheet><table:table table:name="Bomb">` +
		strings.Repeat(row, 100) + `</table:table></office:spreadsheet></office:body></office:document-content>`
	p := writeZip(t, "bomb.ods", map[string]string{"mimetype": "application/vnd.oasis.opendocument.spreadsheet", "content.xml": content})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := ExtractODS(context.Background(), p, document.Options{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(res.Tables[0].Rows) + 1; n != DefaultMaxSheetRows {
		t.Errorf("%d rows kept, want %d", n, DefaultMaxSheetRows)
	}
	// the sheet's rows past the limit, and (office/16) each row's 1024
	// copies of its cell cut to 64
	rv := res.AllReviews()
	if len(rv) != 2 || rv[0].Code != document.ReviewTruncated || rv[1].Code != document.ReviewTruncated || !strings.Contains(rv[1].Message, "repeats a row or cell") {
		t.Errorf("reviews %v", rv)
	}
	if mb := (after.TotalAlloc - before.TotalAlloc) >> 20; mb > 200 {
		t.Errorf("reading allocated %d MB", mb)
	}
}

// odfChartObject is an embedded chart's content.xml as LibreOffice and
// python-odf write it: a title, a subtitle, axis titles and the local
// table of its data.
func odfChartObject() string {
	cell := func(s string) string {
		return `<table:table-cell office:value-type="string"><text:p>` + s + `</text:p></table:table-cell>`
	}
	row := func(cells ...string) string {
		return `<table:table-row>` + strings.Join(cells, "") + `</table:table-row>`
	}
	return `<office:document-content ` + odfNS + ` xmlns:chart="urn:oasis:names:tc:opendocument:xmlns:chart:1.0"><office:body><office:chart><chart:chart chart:class="chart:bar">` +
		`<chart:title><text:p>SPECTRE</text:p></chart:title><chart:subtitle><text:p>Expense and revenue</text:p></chart:subtitle>` +
		`<chart:plot-area><chart:axis chart:dimension="x"><chart:title><text:p>Divisions</text:p></chart:title></chart:axis></chart:plot-area>` +
		`<table:table table:name="local-table"><table:table-header-rows>` + row(`<table:table-cell><text:p/></table:table-cell>`, cell("Expense"), cell("Revenue")) + `</table:table-header-rows>` +
		`<table:table-rows>` + row(cell("Counterfeit"), cell("1000"), cell("1500")) + row(cell("Larceny"), cell("1000"), cell("1750")) + `</table:table-rows></table:table>` +
		`</chart:chart></office:chart></office:body></office:document-content>`
}

// TestODFChartObjects: a chart embedded in an ODT (python-odf's barchart
// example: a paragraph holding a frame holding draw:object "./Object 1")
// and in an ODS sheet (table:shapes) lands as a Caption "Chart: title"
// (the subtitle on its next line, axis titles not) and a table of its data,
// as a DOCX's or XLSX's chart; an embedded formula lands its text where
// it stands (office/30: it was a warning), another object (an embedded
// text) is a warning. Before office/13 the ODT landed nothing at all and
// the formula went unsaid.
func TestODFChartObjects(t *testing.T) {
	obj := `<draw:frame><draw:object xlink:href="./Object 1" xmlns:xlink="http://www.w3.org/1999/xlink"/></draw:frame>`
	formula := `<draw:frame><draw:object xlink:href="./Object 2" xmlns:xlink="http://www.w3.org/1999/xlink"/></draw:frame>`
	math := `<math xmlns="http://www.w3.org/1998/Math/MathML"><mi>x</mi></math>`
	other := `<draw:frame><draw:object xlink:href="./Object 3" xmlns:xlink="http://www.w3.org/1999/xlink"/></draw:frame>`
	inner := `<office:document-content ` + odfNS + `><office:body><office:text><text:p>Inner</text:p></office:text></office:body></office:document-content>`
	odt := `<office:document-content ` + odfNS + `><office:body><office:text><text:p>Figures below.` + obj + `</text:p><text:p>` + formula + `</text:p><text:p>` + other + `</text:p></office:text></office:body></office:document-content>`
	res, err := ExtractODT(context.Background(), writeZip(t, "spectre.odt", map[string]string{
		"mimetype": "application/vnd.oasis.opendocument.text", "content.xml": odt, "Object 1/content.xml": odfChartObject(), "Object 2/content.xml": math, "Object 3/content.xml": inner}), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	assertElems(t, res, []el{
		{document.NarrativeText, "Figures below.", 0, 1},
		{document.Caption, "Chart: SPECTRE\nExpense and revenue", 0, 1},
		{document.TableCat, "\tExpense\tRevenue\nCounterfeit\t1000\t1500\nLarceny\t1000\t1750", 0, 1},
		{document.NarrativeText, "x", 0, 1},
	})
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], `"Object 3" is no chart`) {
		t.Errorf("warnings %q", res.Warnings)
	}

	ods := `<office:document-content ` + odfNS + `><office:body><office:spreadsheet><table:table table:name="Budget"><table:shapes>` + obj + `</table:shapes>` +
		`<table:table-row><table:table-cell office:value-type="string"><text:p>Rent</text:p></table:table-cell></table:table-row></table:table>` +
		`<table:table table:name="Notes"><table:table-row><table:table-cell office:value-type="string"><text:p>none</text:p></table:table-cell></table:table-row></table:table>` +
		`</office:spreadsheet></office:body></office:document-content>`
	res, err = ExtractODS(context.Background(), writeZip(t, "budget.ods", map[string]string{
		"mimetype": "application/vnd.oasis.opendocument.spreadsheet", "content.xml": ods, "Object 1/content.xml": odfChartObject()}), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	assertElems(t, res, []el{
		{document.TableCat, "Rent", 0, 1},
		{document.Caption, "Chart: SPECTRE\nExpense and revenue", 0, 1},
		{document.TableCat, "\tExpense\tRevenue\nCounterfeit\t1000\t1500\nLarceny\t1000\t1750", 0, 1},
		{document.TableCat, "none", 0, 2},
	})
	if res.Elements[1].Section != "Budget" || len(res.Warnings) > 0 {
		t.Errorf("chart Section %q, warnings %q", res.Elements[1].Section, res.Warnings)
	}
}

package extract

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/worker"
)

const odfNS = `xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:chart="urn:oasis:names:tc:opendocument:xmlns:chart:1.0" xmlns:xlink="http://www.w3.org/1999/xlink"`

// odgFixture is a drawing as LibreOffice Draw writes one: shapes in the
// order they were drawn (z-order), not the order they are read in. Page 1:
// a flow of three boxes side by side under a title, the right box drawn
// first, the title last; a group placed by its members; a rotated note
// placed by its transform; a connector with no text; a caption in mm
// under everything. Page 2: a frame showing a chart object.
func odgFixture(t *testing.T) []byte {
	box := func(x, y, w, h, s string) string {
		return `<draw:custom-shape draw:style-name="gr1" svg:x="` + x + `" svg:y="` + y + `" svg:width="` + w + `" svg:height="` + h + `"><text:p>` + s + `</text:p><draw:enhanced-geometry draw:type="rectangle"/></draw:custom-shape>`
	}
	content := `<office:document-content ` + odfNS + `><office:body><office:drawing>` +
		`<draw:page draw:name="page1" draw:master-page-name="Default">` +
		box("13cm", "4cm", "4cm", "2cm", "Step three: ship") +
		box("1cm", "4.2cm", "4cm", "2cm", "Step one: order") +
		`<draw:connector svg:x1="5cm" svg:y1="5cm" svg:x2="7cm" svg:y2="5cm"/>` +
		box("7cm", "3.9cm", "4cm", "2cm", "Step two: pack") +
		`<draw:g><draw:rect svg:x="1cm" svg:y="9cm" svg:width="6cm" svg:height="1cm"><text:p>Group member left</text:p></draw:rect>` +
		`<draw:rect svg:x="9cm" svg:y="9cm" svg:width="6cm" svg:height="1cm"><text:p>Group member right</text:p></draw:rect></draw:g>` +
		`<draw:custom-shape svg:width="3cm" svg:height="1cm" draw:transform="rotate (0.26) translate (2cm 12cm)"><text:p>Rotated note</text:p></draw:custom-shape>` +
		`<draw:frame svg:x="10mm" svg:y="150mm" svg:width="100mm" svg:height="10mm"><draw:text-box><text:p>Caption under everything</text:p><text:p>its second line</text:p></draw:text-box></draw:frame>` +
		`<draw:frame svg:x="1cm" svg:y="1cm" svg:width="16cm" svg:height="1.5cm"><draw:text-box><text:p>Order flow</text:p></draw:text-box></draw:frame>` +
		`</draw:page>` +
		`<draw:page draw:name="page2"><draw:frame svg:x="2cm" svg:y="2cm" svg:width="10cm" svg:height="8cm"><draw:object xlink:href="./Object 1" xlink:type="simple"/></draw:frame>` +
		`<draw:frame svg:x="2cm" svg:y="11cm" svg:width="10cm" svg:height="1cm"><draw:text-box><text:p>Figures for 2025</text:p></draw:text-box></draw:frame></draw:page>` +
		`</office:drawing></office:body></office:document-content>`
	return zipOf(t, "mimetype", "application/vnd.oasis.opendocument.graphics", "content.xml", content,
		"Object 1/content.xml", chartContent("Parcels shipped", ""))
}

// chartContent is a chart's content.xml as LibreOffice writes one (the
// standalone .odc's, or an embedded object's).
func chartContent(title, subtitle string) string {
	s := `<office:document-content ` + odfNS + `><office:body><office:chart><chart:chart chart:class="chart:bar">`
	if title != "" {
		s += `<chart:title><text:p>` + title + `</text:p></chart:title>`
	}
	if subtitle != "" {
		s += `<chart:subtitle><text:p>` + subtitle + `</text:p></chart:subtitle>`
	}
	s += `<chart:plot-area><chart:axis chart:dimension="y"><chart:title><text:p>Parcels</text:p></chart:title></chart:axis></chart:plot-area>` +
		`<table:table table:name="local-table"><table:table-header-columns><table:table-column/></table:table-header-columns><table:table-columns><table:table-column/></table:table-columns>` +
		`<table:table-header-rows><table:table-row><table:table-cell><text:p/></table:table-cell><table:table-cell office:value-type="string"><text:p>Parcels</text:p></table:table-cell></table:table-row></table:table-header-rows>` +
		`<table:table-rows><table:table-row><table:table-cell office:value-type="string"><text:p>March</text:p></table:table-cell><table:table-cell office:value-type="float" office:value="412"><text:p>412</text:p></table:table-cell></table:table-row>` +
		`<table:table-row><table:table-cell office:value-type="string"><text:p>April</text:p></table:table-cell><table:table-cell office:value-type="float" office:value="388"><text:p>388</text:p></table:table-cell></table:table-row></table:table-rows></table:table>` +
		`</chart:chart></office:chart></office:body></office:document-content>`
	return s
}

func routeFile(t *testing.T, name string, data []byte) (detect.Info, *document.Result) {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	info, err := detect.Detect(p)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Route(context.Background(), worker.Request{Path: p, Name: name, Type: info.Type, MIME: info.MIME})
	if err != nil {
		t.Fatalf("%s (%s): %v", name, info.Type, err)
	}
	checkElements(t, res)
	return info, res
}

// TestODGIsADrawing: an ODG lands a page per draw:page with its shapes'
// text in reading order (top to bottom, side by side left to right),
// whatever order they were drawn in, and a chart in a frame as a caption
// and its table. Before office/15 it was detected as a zip and landed as
// an archive (its content.xml a child document of XML).
func TestODGIsADrawing(t *testing.T) {
	info, res := routeFile(t, "flow.odg", odgFixture(t))
	if info.Type != detect.ODG || res.Type != detect.ODG {
		t.Fatalf("detected %q, landed %q", info.Type, res.Type)
	}
	if len(res.Pages) != 2 {
		t.Fatalf("%d pages, want 2", len(res.Pages))
	}
	want := strings.Join([]string{"Order flow", "Step one: order", "Step two: pack", "Step three: ship", "Group member left",
		"Group member right", "Rotated note", "Caption under everything", "its second line"}, "\n\n")
	if got := res.Pages[0].Text; got != want {
		t.Errorf("page 1:\n%s\nwant:\n%s", got, want)
	}
	p2 := res.Pages[1].Text
	for _, w := range []string{"Chart: Parcels shipped", "March", "412", "April", "388", "Figures for 2025"} {
		if !strings.Contains(p2, w) {
			t.Errorf("page 2 lacks %q:\n%s", w, p2)
		}
	}
	if i, j := strings.Index(p2, "Chart: Parcels shipped"), strings.Index(p2, "Figures for 2025"); i < 0 || j < i {
		t.Errorf("the chart (in the upper frame) should come before the text under it:\n%s", p2)
	}
	if len(res.Tables) != 1 {
		t.Errorf("%d tables, want the chart's", len(res.Tables))
	}
	if len(res.Warnings) > 0 {
		t.Errorf("warnings %v", res.Warnings)
	}
}

// TestODCIsAChart: a standalone chart lands its caption (title, subtitle)
// and its data table; one without data says so. Before office/15 it
// landed as a zip archive.
func TestODCIsAChart(t *testing.T) {
	info, res := routeFile(t, "parcels.odc", zipOf(t, "mimetype", "application/vnd.oasis.opendocument.chart", "content.xml", chartContent("Parcels shipped", "spring 2025")))
	if info.Type != detect.ODC || res.Type != detect.ODC {
		t.Fatalf("detected %q, landed %q", info.Type, res.Type)
	}
	if len(res.Elements) == 0 || res.Elements[0].Category != document.Caption || res.Elements[0].Text != "Chart: Parcels shipped\nspring 2025" {
		t.Fatalf("elements %+v", res.Elements)
	}
	if len(res.Tables) != 1 || !strings.Contains(res.Pages[0].Text, "April") || strings.Contains(res.Pages[0].Text, "Parcels\nParcels") {
		t.Errorf("tables %d, text:\n%s", len(res.Tables), res.Pages[0].Text)
	}
	empty := `<office:document-content ` + odfNS + `><office:body><office:chart><chart:chart><chart:title><text:p>No data yet</text:p></chart:title></chart:chart></office:chart></office:body></office:document-content>`
	_, res = routeFile(t, "empty.odc", zipOf(t, "mimetype", "application/vnd.oasis.opendocument.chart", "content.xml", empty))
	if res.Pages[0].Text != "Chart: No data yet" || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "no data table") {
		t.Errorf("text %q, warnings %v", res.Pages[0].Text, res.Warnings)
	}
}

// TestOtherZipsKeepTheirRoute: office/15's mimetypes change no other
// zip-based type's route: a DOCX, an EPUB, a JAR-like zip and a plain zip
// land as before.
func TestOtherZipsKeepTheirRoute(t *testing.T) {
	w := `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`
	rel := `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`
	container := `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`
	opf := `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>B</dc:title></metadata><manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/></spine></package>`
	for _, c := range []struct {
		name, typ string
		data      []byte
	}{
		{"a.docx", detect.DOCX, zipOf(t, "_rels/.rels", rel, "word/document.xml", `<w:document `+w+`><w:body><w:p><w:r><w:t>Docx text.</w:t></w:r></w:p></w:body></w:document>`)},
		{"b.epub", detect.EPUB, zipOf(t, "mimetype", "application/epub+zip", "META-INF/container.xml", container, "OEBPS/content.opf", opf, "OEBPS/c1.xhtml", `<html xmlns="http://www.w3.org/1999/xhtml"><body><p>Epub text.</p></body></html>`)},
		{"lib.jar", detect.Zip, zipOf(t, "META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n", "readme.txt", "Jar text.")},
		{"plain.zip", detect.Zip, zipOf(t, "notes.txt", "Zip text.")},
	} {
		info, res := routeFile(t, c.name, c.data)
		if info.Type != c.typ || res.Type != c.typ {
			t.Errorf("%s: detected %q, landed %q, want %q", c.name, info.Type, res.Type, c.typ)
		}
	}
}

// TestODGCutShortLandsItsText: a drawing whose content.xml breaks off
// mid-page lands the text before the damage flagged truncated, as an ODT
// does; it was quarantined corrupt (the page's shapes wait for the page's
// end to be put in reading order, and the error came first; review38).
func TestODGCutShortLandsItsText(t *testing.T) {
	content := `<office:document-content ` + odfNS + `><office:body><office:drawing><draw:page draw:name="page1">` +
		`<draw:frame svg:x="1cm" svg:y="1cm"><draw:text-box><text:p>Read before the damage</text:p></draw:text-box></draw:frame>` +
		`<draw:frame svg:x="1cm" svg:y="3cm"><draw:text-box><text:p>cut he`
	_, res := routeFile(t, "cut.odg", zipOf(t, "mimetype", "application/vnd.oasis.opendocument.graphics", "content.xml", content))
	if !strings.Contains(res.Pages[0].Text, "Read before the damage") || !hasReview(res, document.ReviewTruncated) {
		t.Errorf("text %q, reviews %v", res.Pages[0].Text, res.AllReviews())
	}
}

// TestRepeatCapSaid: a table row or cell holding text repeated past the
// cap of 64 copies (number-rows-repeated, number-columns-repeated) is a
// warning and a truncated review in an ODT table, an embedded chart and a
// standalone chart; the copies were left out without a word. Repeats
// within the cap, and empty rows repeated by the thousand, say nothing.
func TestRepeatCapSaid(t *testing.T) {
	table := func(rowRep, colRep string) string {
		return `<table:table table:name="T"><table:table-row table:number-rows-repeated="` + rowRep + `"><table:table-cell table:number-columns-repeated="` + colRep + `"><text:p>x</text:p></table:table-cell></table:table-row>` +
			`<table:table-row table:number-rows-repeated="100000"><table:table-cell/></table:table-row></table:table>`
	}
	odt := func(body string) []byte {
		return zipOf(t, "mimetype", "application/vnd.oasis.opendocument.text", "content.xml",
			`<office:document-content `+odfNS+`><office:body><office:text>`+body+`</office:text></office:body></office:document-content>`)
	}
	chart := func(tbl string) string {
		return `<office:document-content ` + odfNS + `><office:body><office:chart><chart:chart><chart:title><text:p>Bomb</text:p></chart:title>` + tbl + `</chart:chart></office:chart></office:body></office:document-content>`
	}
	for _, c := range []struct {
		name string
		data []byte
		cut  bool
	}{
		{"rows.odt", odt(table("1000000", "1")), true},
		{"cols.odt", odt(table("1", "1000")), true},
		{"small.odt", odt(table("3", "2")), false},
		{"footnote.odt", odt(`<text:p>Body<text:note text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body>` + table("200", "1") + `</text:note-body></text:note></text:p>`), true},
		{"chart.odt", zipOf(t, "mimetype", "application/vnd.oasis.opendocument.text", "content.xml",
			`<office:document-content `+odfNS+`><office:body><office:text><text:p>Shows a chart</text:p><draw:frame><draw:object xlink:href="./Object 1"/></draw:frame></office:text></office:body></office:document-content>`,
			"Object 1/content.xml", chart(table("500", "1"))), true},
		{"rows.odc", zipOf(t, "mimetype", "application/vnd.oasis.opendocument.chart", "content.xml", chart(table("1000000000", "1"))), true},
		{"small.odc", zipOf(t, "mimetype", "application/vnd.oasis.opendocument.chart", "content.xml", chart(table("2", "2"))), false},
	} {
		_, res := routeFile(t, c.name, c.data)
		warned := len(res.Warnings) > 0 && strings.Contains(strings.Join(res.Warnings, "\n"), "copies holding text were not kept")
		if hasReview(res, document.ReviewTruncated) != c.cut || warned != c.cut {
			t.Errorf("%s: warnings %v, reviews %v (want cut said: %v)", c.name, res.Warnings, res.AllReviews(), c.cut)
		}
	}
}

// TestODGMasterPageText: the text of shapes on an ODG's master page
// (Draw shows them on every page using it: a letterhead) lands as a
// Header, once, as an ODT's page header does; it was not read, without a
// word. A placeholder's prompt and a master no page uses are not read
// (review38).
func TestODGMasterPageText(t *testing.T) {
	styles := `<office:document-styles ` + odfNS + ` xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"><office:master-styles>` +
		`<style:master-page style:name="Default" draw:style-name="dp1"><draw:frame svg:x="1cm" svg:y="0.5cm" svg:width="10cm" svg:height="1cm"><draw:text-box><text:p>ACME Harbour Works letterhead</text:p></draw:text-box></draw:frame>` +
		`<draw:frame presentation:class="outline" presentation:placeholder="true" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"><draw:text-box><text:p>Click to edit the outline text format</text:p></draw:text-box></draw:frame></style:master-page>` +
		`<style:master-page style:name="Unused"><draw:frame><draw:text-box><text:p>Unused master words</text:p></draw:text-box></draw:frame></style:master-page>` +
		`</office:master-styles></office:document-styles>`
	content := `<office:document-content ` + odfNS + `><office:body><office:drawing><draw:page draw:name="page1" draw:master-page-name="Default">` +
		`<draw:frame svg:x="1cm" svg:y="3cm"><draw:text-box><text:p>Page body</text:p></draw:text-box></draw:frame></draw:page></office:drawing></office:body></office:document-content>`
	_, res := routeFile(t, "letter.odg", zipOf(t, "mimetype", "application/vnd.oasis.opendocument.graphics", "content.xml", content, "styles.xml", styles))
	if len(res.Elements) != 2 || res.Elements[0].Category != document.Header || res.Elements[0].Text != "ACME Harbour Works letterhead" || res.Elements[1].Text != "Page body" {
		t.Errorf("elements %+v", res.Elements)
	}
}

package office

import (
	"context"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestODTManualPageBreak: a paragraph whose style (or the style it
// inherits from) says fo:break-before="page" starts a page, one saying
// fo:break-after="page" ends one, as LibreOffice's Insert > Page Break and
// python-odf's manualpagebreak example write them (no soft page break
// beside). Before office/14 the document was one page.
func TestODTManualPageBreak(t *testing.T) {
	styles := `<office:document-styles ` + odfNS + ` xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"><office:styles>` +
		`<style:style style:name="Chapter" style:family="paragraph"><style:paragraph-properties fo:break-before="page"/></style:style>` +
		`</office:styles></office:document-styles>`
	content := `<office:document-content ` + odfNS + ` xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"><office:automatic-styles>` +
		`<style:style style:name="P1" style:family="paragraph" style:parent-style-name="Chapter"/>` +
		`<style:style style:name="P2" style:family="paragraph"><style:paragraph-properties fo:break-after="page"/></style:style>` +
		`</office:automatic-styles><office:body><office:text>` +
		`<text:p text:style-name="P1">First paragraph</text:p><text:p text:style-name="P2">Closing the first page</text:p>` +
		`<text:p>Second page</text:p><text:h text:style-name="Chapter" text:outline-level="1">Part two</text:h><text:p>Third page</text:p>` +
		`</office:text></office:body></office:document-content>`
	res, err := ExtractODT(context.Background(), writeZip(t, "breaks.odt", map[string]string{
		"mimetype": "application/vnd.oasis.opendocument.text", "content.xml": content, "styles.xml": styles}), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	assertElems(t, res, []el{
		{document.NarrativeText, "First paragraph", 0, 1},
		{document.NarrativeText, "Closing the first page", 0, 1},
		{document.NarrativeText, "Second page", 0, 2},
		{document.Title, "Part two", 1, 3},
		{document.NarrativeText, "Third page", 0, 3},
	})
}

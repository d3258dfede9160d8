package office

import (
	"context"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestEPUBMathAndLineBreaks (office/30): a MathML formula lands as shown,
// its annotations (pandoc's TeX) only where nothing else has text, in a
// paragraph and in a table cell; the source's line break after a <br/> is
// no leading space. Before, pandoc's formula landed "f=12.5×Lf = 12.5
// \times L" and "Line one<br />\nline two" landed " line two".
func TestEPUBMathAndLineBreaks(t *testing.T) {
	math := `<math display="inline" xmlns="http://www.w3.org/1998/Math/MathML"><semantics><mrow><mi>f</mi><mo>=</mo><mn>12.5</mn><mo>×</mo><mi>L</mi></mrow><annotation encoding="application/x-tex">f = 12.5 \times L</annotation></semantics></math>`
	texOnly := `<math xmlns="http://www.w3.org/1998/Math/MathML"><semantics><mrow></mrow><annotation encoding="application/x-tex">x^2</annotation></semantics></math>`
	p := writeZip(t, "m.epub", map[string]string{
		"mimetype":               "application/epub+zip",
		"META-INF/container.xml": `<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OPS/book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
		"OPS/book.opf": `<package xmlns="http://www.idpf.org/2007/opf" xmlns:dc="http://purl.org/dc/elements/1.1/"><metadata><dc:title>Fees</dc:title></metadata>` +
			`<manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/></spine></package>`,
		"OPS/c1.xhtml": `<html xmlns="http://www.w3.org/1999/xhtml"><body><p>The fee is ` + math + ` per call.</p>` +
			`<p>Only TeX: ` + texOnly + `.</p>` +
			`<table><tr><th>Rule</th></tr><tr><td>` + math + `</td></tr></table>` +
			"<p>Line one<br />\nline two<br/>   line three</p></body></html>",
	})
	res, err := ExtractEPUB(context.Background(), p, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "The fee is f=12.5×L per call.\n\nOnly TeX: x^2.\n\nRule\nf=12.5×L\n\nLine one\nline two\nline three"
	if got := res.Pages[0].Text; got != want {
		t.Errorf("text %q\nwant %q", got, want)
	}
	if tb := res.Tables[0]; len(tb.Rows) != 1 || strings.TrimSpace(tb.Rows[0][0]) != "f=12.5×L" {
		t.Errorf("table %q", tb.Rows)
	}
}

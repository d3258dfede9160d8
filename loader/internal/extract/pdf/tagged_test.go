package pdf

import (
	"fmt"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf/pdftest"
)

// taggedPDF is a one-page tagged PDF: a structure tree (Document > P, P)
// whose marked content the page's content stream points at by MCID, and a
// span whose glyphs "XX" carry /ActualText (Hello) in its BDC properties.
func taggedPDF() []byte {
	content := "/P <</MCID 0>> BDC BT /F1 12 Tf 72 700 Td (Tagged first paragraph) Tj ET EMC\n" +
		"/P <</MCID 1>> BDC BT /F1 12 Tf 72 650 Td (Second paragraph) Tj ET EMC\n" +
		"/Span <</ActualText (Hello)>> BDC BT /F1 12 Tf 72 600 Td (XX) Tj ET EMC\n"
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R /StructTreeRoot 5 0 R /MarkInfo << /Marked true >> >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /StructParents 0 /Resources << /Font << /F1 9 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", len(content), content),
		"<< /Type /StructTreeRoot /K 6 0 R /ParentTree 10 0 R >>",
		"<< /Type /StructElem /S /Document /P 5 0 R /K [7 0 R 8 0 R] >>",
		"<< /Type /StructElem /S /P /P 6 0 R /Pg 3 0 R /K 0 >>",
		"<< /Type /StructElem /S /P /P 6 0 R /Pg 3 0 R /K 1 >>",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
		"<< /Nums [0 [7 0 R 8 0 R]] >>",
	}
	return pdftest.Assemble("1.7", objs, "")
}

// TestTaggedPDF: docket drops the structure tree before interpreting pages
// (walk.c dk_drop_structure, for speed); the text of tagged content and an
// /ActualText given in the content's own properties must be unaffected.
func TestTaggedPDF(t *testing.T) {
	path := pdftest.WriteBytes(t, "tagged.pdf", taggedPDF())
	res, err := Extract(t.Context(), path, document.Options{MinCharsPerPage: 4})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pages) != 1 {
		t.Fatalf("pages: %d", len(res.Pages))
	}
	text := res.Pages[0].Text
	for _, want := range []string{"Tagged first paragraph", "Second paragraph", "Hello"} {
		if !strings.Contains(text, want) {
			t.Errorf("page text %q lacks %q", text, want)
		}
	}
	if strings.Contains(text, "XX") {
		t.Errorf("ActualText should replace the glyphs it covers: %q", text)
	}
	for _, w := range res.Warnings {
		t.Errorf("unexpected warning: %s", w)
	}
}

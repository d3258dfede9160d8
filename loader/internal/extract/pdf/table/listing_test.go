package table

import (
	"fmt"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/extract/pdf/pdftest"
)

// listingPDF is a page with a paragraph in Helvetica and, under it, a
// code listing in Courier inside a box ruled between its lines (a shaded
// band a line, as a paper's listings are set), line numbers in the
// margin and a comment set apart after one line of code.
func listingPDF() []byte {
	var c strings.Builder
	code := []string{
		"import layoutparser as lp",
		`image = cv2.imread("image_file")     # load images`,
		"model = lp.Detectron2LayoutModel(",
		`    "lp://PubLayNet/faster_rcnn_R_50_FPN_3x/config")`,
		"layout = model.detect(image)",
	}
	top := 300.0
	for i := 0; i <= len(code); i++ {
		y := 792 - (top + float64(i)*11)
		fmt.Fprintf(&c, "0.5 w 130 %g m 480 %g l S\n", y, y)
	}
	fmt.Fprintf(&c, "0.5 w 130 %g m 130 %g l S\n", 792-top, 792-top-11*float64(len(code)))
	fmt.Fprintf(&c, "0.5 w 480 %g m 480 %g l S\n", 792-top, 792-top-11*float64(len(code)))
	for i, l := range code {
		y := 792 - (top + float64(i)*11 + 8.5)
		fmt.Fprintf(&c, "BT /F2 6 Tf 122 %g Td (%d) Tj ET\n", y, i+1)
		fmt.Fprintf(&c, "BT /F2 9 Tf 135 %g Td (%s) Tj ET\n", y, pdftest.Esc(l))
	}
	for i, l := range []string{
		"In LayoutParser, a layout model takes a document image as an input and",
		"generates a list of rectangular boxes for the target content regions. We",
		"perform layout detection with only four lines of code in Python:",
	} {
		fmt.Fprintf(&c, "BT /F1 10 Tf 130 %g Td (%s) Tj ET\n", 792-(240+float64(i)*13), pdftest.Esc(l))
	}
	return twoFontPDF(c.String(), "Courier")
}

// twoFontPDF is a one-page PDF of content whose font F1 is Helvetica and
// F2 the base-14 font named.
func twoFontPDF(content, font string) []byte {
	return pdftest.Assemble("1.4", []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", len(content), content),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
		"<< /Type /Font /Subtype /Type1 /BaseFont /" + font + " /Encoding /WinAnsiEncoding >>",
	}, "")
}

// A code listing boxed and ruled line by line is no table: its columns
// are spaces in a fixed-pitch font (a comment after a line of code), and
// it has no rule between columns.
func TestCodeListingIsNoTable(t *testing.T) {
	name := pdftest.WriteBytes(t, "listing.pdf", listingPDF())
	if tabs := detectFile(t, name); len(tabs) != 0 {
		t.Errorf("a code listing read as %d table(s): %q", len(tabs), cellsOf(tabs[0]))
	}
}

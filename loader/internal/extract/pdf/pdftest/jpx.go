package pdftest

import (
	_ "embed"
	"fmt"
	"strings"
)

// ScanJP2 is a JPEG 2000 file (JP2) of a grey 1500x600 scan at 300 dpi:
// the three lines of ScanJP2Text in 14 pt Helvetica on a 5x2 in page.
// Made once with PyMuPDF 1.21 (the lines drawn, the page rendered at 300
// dpi in grey to a PGM) and OpenJPEG 2.5's opj_compress -r 40 (Debian
// libopenjp2-tools).
//
//go:embed scan.jp2
var ScanJP2 []byte

// ScanJP2Text is the text of ScanJP2 as docket's OCR reads it (its last
// line a paragraph of its own).
const ScanJP2Text = "Delivery note 8812 for Northwind Traders\nTwelve crates of copper fittings arrive\n\non the second Monday of March."

// JPX is a JPEG 2000 image on a page: Data (a JP2 file or a bare
// codestream) declared W×H pixels, drawn over the box at (X, Y) (PDF
// space, bottom-left) of Width×Height pt.
type JPX struct {
	Data                []byte
	W, H                int
	X, Y, Width, Height float64
}

// MakeJPX returns a one-page PDF of w×h pt showing img as a JPXDecode
// image, then the text items (Y from the page's top).
func MakeJPX(w, h float64, img JPX, items []Text) []byte {
	var c strings.Builder
	fmt.Fprintf(&c, "q %g 0 0 %g %g %g cm /Im1 Do Q\n", img.Width, img.Height, img.X, img.Y)
	for _, t := range items {
		fmt.Fprintf(&c, "BT /F1 %g Tf %g %g Td (%s) Tj ET\n", t.Size, t.X, h-t.Y, Esc(t.S))
	}
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %g %g] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> /XObject << /Im1 6 0 R >> >> >>", w, h),
		fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", c.Len(), c.String()),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
		fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /JPXDecode /Length %d >>\nstream\n%s\nendstream", img.W, img.H, len(img.Data), img.Data),
	}
	return Assemble("1.5", objs, "/Info "+Info)
}

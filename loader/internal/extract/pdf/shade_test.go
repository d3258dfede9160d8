package pdf

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/extract/pdf/pdftest"
)

// shadedPDF is one side×side point page whose content clips to the page
// and fills it with an axial shading (the sh operator), then shows a line
// of text.
func shadedPDF(side int) []byte {
	content := fmt.Sprintf("q 0 0 %d %d re W n /Sh1 sh Q\nBT /F1 12 Tf 72 72 Td (Text over a gradient.) Tj ET\n", side, side)
	return pdftest.Assemble("1.4", []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> /Shading << /Sh1 6 0 R >> >> >>", side, side),
		fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", len(content), content),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
		fmt.Sprintf("<< /ShadingType 2 /ColorSpace /DeviceRGB /Coords [0 0 %d %d] /Extend [true true] /Function << /FunctionType 2 /Domain [0 1] /C0 [1 0 0] /C1 [0 0 1] /N 1 >> >>", side, side),
	}, "")
}

// peakRSSGrowth runs f and returns by how much the process's peak
// resident set grew over its resident set before (Linux: VmHWM is reset
// through /proc/self/clear_refs), or -1 when the kernel does not say.
func peakRSSGrowth(f func()) int64 {
	if os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) != nil {
		f()
		return -1
	}
	before := procStatusKB("VmRSS:")
	f()
	after := procStatusKB("VmHWM:")
	if before < 0 || after < 0 {
		return -1
	}
	return (after - before) * 1024
}

func procStatusKB(key string) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == key {
			n, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				return -1
			}
			return n
		}
	}
	return -1
}

// TestShadingIsNotPainted: a shading is an image block of its box, with
// the pixel size MuPDF gives it (its box at 72 dpi), and the text over it
// is read; but the shading is not painted. MuPDF's stext device painted
// it into an RGBA pixmap of that size (here 4000x4000, 64 MB) that
// nothing reads, touching every byte of it.
func TestShadingIsNotPainted(t *testing.T) {
	const side = 4000
	path := pdftest.WriteBytes(t, "shaded.pdf", shadedPDF(side))
	doc, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	// The first page read loads fonts and sizes MuPDF's and Go's heaps.
	if _, err := doc.Page(1, Lines); err != nil {
		t.Fatal(err)
	}
	var lay *Layout
	grew := peakRSSGrowth(func() { lay, err = doc.Page(1, Lines) })
	if err != nil {
		t.Fatal(err)
	}
	var images, text int
	for _, b := range lay.Blocks {
		if !b.Image {
			for _, l := range b.Lines {
				if strings.Contains(l.Text, "Text over a gradient.") {
					text++
				}
			}
			continue
		}
		images++
		if b.ImageW != side || b.ImageH != side || b.BBox.X0 != 0 || b.BBox.Y0 != 0 || b.BBox.X1 != side || b.BBox.Y1 != side {
			t.Errorf("shading block %+v (%dx%d px), want the page's box at %dx%d px", b.BBox, b.ImageW, b.ImageH, side, side)
		}
	}
	if images != 1 || text != 1 {
		t.Fatalf("want one image block (the shading) and the text line, got %d image blocks, %d text lines", images, text)
	}
	if grew < 0 {
		t.Skip("no /proc/self/clear_refs: peak RSS not measured")
	}
	if grew > 16<<20 {
		t.Fatalf("reading the page grew the peak RSS by %d MB: the shading was painted (a %dx%d RGBA pixmap is %d MB)", grew>>20, side, side, side*side*4>>20)
	}
}

package pdf

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A tiny PDF writer for fixtures: Helvetica (F1) and Helvetica-Bold (F2)
// text at known positions, optionally a full-page grey image. y is from
// the top of a 612x792 page.
type txt struct {
	x, y, size float64
	bold       bool
	s          string
}

type pg struct {
	items []txt
	image bool
	draw  []string // raw content-stream operators (PDF space)
}

func esc(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`)
	return r.Replace(s)
}

func makePDF(pages []pg) []byte {
	var objs []string
	add := func(s string) int { objs = append(objs, s); return len(objs) }
	add("<< /Type /Catalog /Pages 2 0 R >>")
	add("") // pages, filled below
	f1 := add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	f2 := add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>")
	img := add("<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length 4 >>\nstream\n\x80\x40\x40\x80\nendstream")
	var kids []string
	for _, p := range pages {
		var c strings.Builder
		if p.image {
			c.WriteString("q 612 0 0 792 0 0 cm /Im1 Do Q\n")
		}
		for _, d := range p.draw {
			c.WriteString(d + "\n")
		}
		for _, t := range p.items {
			f := "F1"
			if t.bold {
				f = "F2"
			}
			fmt.Fprintf(&c, "BT /%s %g Tf %g %g Td (%s) Tj ET\n", f, t.size, t.x, 792-t.y, esc(t.s))
		}
		cs := add(fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", c.Len(), c.String()))
		pid := add(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R /Resources << /Font << /F1 %d 0 R /F2 %d 0 R >> /XObject << /Im1 %d 0 R >> >> >>", cs, f1, f2, img))
		kids = append(kids, fmt.Sprintf("%d 0 R", pid))
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(kids))
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	x := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R /Info << /Title (Fixture Title) /Author (Docket) /CreationDate (D:20240102030405Z) >> >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, x)
	return b.Bytes()
}

func writePDF(t *testing.T, pages []pg) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "f.pdf")
	if err := os.WriteFile(p, makePDF(pages), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// column writes lines of body text as one paragraph starting at (x, y).
func column(x, y float64, lines ...string) []txt {
	var out []txt
	for i, l := range lines {
		out = append(out, txt{x: x, y: y + float64(i)*13, size: 10, s: l})
	}
	return out
}

package table

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A tiny PDF writer for fixtures: Helvetica (F1) and Helvetica-Bold (F2)
// text and raw drawing operators on a 612x792 page; y is from the top.
type txt struct {
	x, y, size float64
	bold       bool
	s          string
}

type page struct {
	items []txt
	draw  []string // content stream operators in PDF space (bottom-left origin)
}

// hline and vline draw 0.5pt rules with top-left coordinates.
func hline(x0, x1, y float64) string {
	return fmt.Sprintf("0.5 w %g %g m %g %g l S", x0, 792-y, x1, 792-y)
}

func vline(x, y0, y1 float64) string {
	return fmt.Sprintf("0.5 w %g %g m %g %g l S", x, 792-y0, x, 792-y1)
}

// fillRule is a rule drawn as a thin filled rectangle (as word processors do).
func fillRule(x0, y, x1 float64) string {
	return fmt.Sprintf("%g %g %g 0.6 re f", x0, 792-y-0.3, x1-x0)
}

func esc(s string) string {
	return strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`).Replace(s)
}

func makePDF(pages []page) []byte {
	var objs []string
	add := func(s string) int { objs = append(objs, s); return len(objs) }
	add("<< /Type /Catalog /Pages 2 0 R >>")
	add("")
	f1 := add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	f2 := add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>")
	var kids []string
	for _, p := range pages {
		var c strings.Builder
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
		pid := add(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R /Resources << /Font << /F1 %d 0 R /F2 %d 0 R >> >> >>", cs, f1, f2))
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
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, x)
	return b.Bytes()
}

func writePDF(t *testing.T, pages []page) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "f.pdf")
	if err := os.WriteFile(p, makePDF(pages), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// prose is a paragraph of body text lines starting at (x, y).
func prose(x, y float64, lines ...string) []txt {
	var out []txt
	for i, l := range lines {
		out = append(out, txt{x: x, y: y + float64(i)*13, size: 10, s: l})
	}
	return out
}

// Package pdftest writes tiny PDF files for the PDF extractor's tests.
package pdftest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Text is a run of Helvetica (F1) or, when Bold, Helvetica-Bold (F2) text
// at (X, Y), Y from the top of a 612x792 page.
type Text struct {
	X, Y, Size float64
	Bold       bool
	S          string
}

// Page is one 612x792 page: text items, optionally a full-page grey image,
// and raw content-stream operators (in PDF space, bottom-left origin).
type Page struct {
	Items []Text
	Image bool
	Draw  []string
}

// Info is the document information dictionary Make gives each file.
const Info = "<< /Title (Fixture Title) /Author (Docket) /CreationDate (D:20240102030405Z) >>"

// Esc escapes a string for a PDF literal string.
func Esc(s string) string {
	return strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`).Replace(s)
}

// Column is a paragraph of body text lines (10pt, 13pt apart) starting at
// (x, y).
func Column(x, y float64, lines ...string) []Text {
	var out []Text
	for i, l := range lines {
		out = append(out, Text{X: x, Y: y + float64(i)*13, Size: 10, S: l})
	}
	return out
}

// Make returns a PDF of the pages, with the Info dictionary.
func Make(pages []Page) []byte {
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
		if p.Image {
			c.WriteString("q 612 0 0 792 0 0 cm /Im1 Do Q\n")
		}
		for _, d := range p.Draw {
			c.WriteString(d + "\n")
		}
		for _, t := range p.Items {
			f := "F1"
			if t.Bold {
				f = "F2"
			}
			fmt.Fprintf(&c, "BT /%s %g Tf %g %g Td (%s) Tj ET\n", f, t.Size, t.X, 792-t.Y, Esc(t.S))
		}
		cs := add(fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", c.Len(), c.String()))
		pid := add(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R /Resources << /Font << /F1 %d 0 R /F2 %d 0 R >> /XObject << /Im1 %d 0 R >> >> >>", cs, f1, f2, img))
		kids = append(kids, fmt.Sprintf("%d 0 R", pid))
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(kids))
	return Assemble("1.4", objs, "/Info "+Info)
}

// Assemble writes objects 1..len(objs) (object 1 the catalog) as a PDF of
// the given version, with a cross-reference table and a trailer that adds
// trailer (e.g. "/Info << … >>"; may be empty) to /Size and /Root.
func Assemble(version string, objs []string, trailer string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-" + version + "\n")
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
	if trailer != "" {
		trailer = " " + trailer
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R%s >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, trailer, x)
	return b.Bytes()
}

// Write writes Make(pages) to a file in a fresh temporary directory and
// returns its path.
func Write(t testing.TB, pages []Page) string {
	t.Helper()
	return WriteBytes(t, "f.pdf", Make(pages))
}

// WriteBytes writes data to name in a fresh temporary directory and returns
// its path.
func WriteBytes(t testing.TB, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

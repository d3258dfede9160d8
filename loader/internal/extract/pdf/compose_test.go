package pdf

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"codeberg.org/go-pdf/fpdf"
	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf/pdftest"
	unorm "golang.org/x/text/unicode/norm"
)

// TestTextLayerComposed: a PDF whose producer drew decomposed strings (a
// letter, then its combining mark, in a Unicode font; its title too)
// lands its text, elements and title in NFC, the element offsets and the
// page's real characters counted on the composed text. Before, "Ha" +
// U+0308 + "cker" landed as written: a typed "Häcker" did not match.
func TestTextLayerComposed(t *testing.T) {
	ttf, err := os.ReadFile(pdftest.UnicodeFont)
	if err != nil {
		t.Skipf("no Unicode font: %v", err)
	}
	lines := []string{"Martin Häcker wrote the résumé of Dominykas Blyžė.", "Zürich, Köln and Ångström: naïve café façades."}
	f := fpdf.New("P", "pt", "Letter", "")
	f.SetTitle(unorm.NFD.String("Résumé of Martin Häcker"), true)
	f.AddUTF8FontFromBytes("dejavu", "", ttf)
	f.SetFont("dejavu", "", 12)
	f.AddPage()
	for i, l := range lines {
		f.Text(72, 72+float64(i)*40, unorm.NFD.String(l))
	}
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		t.Fatal(err)
	}
	res, err := Extractor{}.ExtractBytes(context.Background(), buf.Bytes(), "nfd.pdf", document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pages) != 1 {
		t.Fatalf("%d pages", len(res.Pages))
	}
	pg := res.Pages[0]
	if want := strings.Join(lines, "\n\n"); pg.Text != want {
		t.Errorf("page text %q, want %q", pg.Text, want)
	}
	if pg.CharCount != document.RealChars(pg.Text) {
		t.Errorf("CharCount %d, real characters of the text %d", pg.CharCount, document.RealChars(pg.Text))
	}
	page := []rune(pg.Text)
	for _, e := range res.Elements {
		if !unorm.NFC.IsNormalString(e.Text) || string(page[e.CharStart:e.CharEnd]) != e.Text {
			t.Errorf("element %q at %d..%d: page slice %q", e.Text, e.CharStart, e.CharEnd, string(page[e.CharStart:e.CharEnd]))
		}
	}
	if res.Metadata.Title != "Résumé of Martin Häcker" {
		t.Errorf("title %q", res.Metadata.Title)
	}
}

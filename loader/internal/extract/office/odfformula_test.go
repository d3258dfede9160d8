package office

import (
	"context"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestODTFormulaInline (office/30): a LibreOffice Math object in a
// sentence lands its formula as shown (the MathML tokens, not the
// StarMath annotation) where it stands; one with no presentation text
// lands its annotation. Before, each was a warning ("is no chart") and the
// sentence read "The fee is  per call."
func TestODTFormulaInline(t *testing.T) {
	frame := func(n string) string {
		return `<draw:frame draw:name="Formula"><draw:object xlink:href="./` + n + `" xmlns:xlink="http://www.w3.org/1999/xlink"/></draw:frame>`
	}
	shown := `<math xmlns="http://www.w3.org/1998/Math/MathML"><semantics><mrow><mi>f</mi><mo>=</mo><mn>12.5</mn><mo>×</mo><mi>L</mi></mrow><annotation encoding="StarMath 5.0">f = 12.5 times L</annotation></semantics></math>`
	noteOnly := `<math xmlns="http://www.w3.org/1998/Math/MathML"><semantics><mrow/><annotation encoding="StarMath 5.0">x^2</annotation></semantics></math>`
	odt := `<office:document-content ` + odfNS + `><office:body><office:text><text:p>The fee is ` + frame("Object 1") + ` per call.</text:p><text:p>Square:` + frame("Object 2") + `.</text:p></office:text></office:body></office:document-content>`
	res, err := ExtractODT(context.Background(), writeZip(t, "f.odt", map[string]string{
		"mimetype": "application/vnd.oasis.opendocument.text", "content.xml": odt, "Object 1/content.xml": shown, "Object 2/content.xml": noteOnly}), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.Pages[0].Text, "The fee is f=12.5×L per call.\n\nSquare: x^2."; got != want {
		t.Errorf("text %q want %q", got, want)
	}
	if len(res.Warnings) > 0 {
		t.Errorf("warnings %q", res.Warnings)
	}
}

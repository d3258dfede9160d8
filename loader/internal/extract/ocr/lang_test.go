package ocr

import (
	"os"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf/pdftest"
)

// germanLines are a page of German prose with umlauts and ß.
var germanLines = []string{
	"Alle Menschen sind frei und gleich an Würde und Rechten geboren.",
	"Sie sind mit Vernunft und Gewissen begabt und sollen einander",
	"im Geist der Brüderlichkeit begegnen. Die Gemeinde prüft die",
	"Anträge für den Neubau der Brücke über die Mühlstraße noch",
	"in diesem Frühjahr; die Bürger können ihre Einwände schriftlich",
	"äußern. Über die Höhe der Gebühren entscheidet der Ausschuss",
	"für Verkehr erst nach der öffentlichen Anhörung im Rathaus.",
	"Größere Änderungen müssen zuvor im Amtsblatt veröffentlicht werden.",
}

// germanPage renders germanLines at 300 dpi as grey pixels.
func germanPage(t *testing.T) ([]byte, int, int) {
	t.Helper()
	data, err := pdftest.RTLPDF(germanLines, pdftest.Visual)
	if err != nil {
		t.Fatal(err)
	}
	return renderGrey(t, pdftest.WriteBytes(t, "german.pdf", data))
}

// A German page OCR'd with eng alone is flagged ocr_language_not_listed
// (it was read without a word said, "für" as "fur"): OSD says Latin
// script, which eng reads, so script_not_installed never fired.
func TestLanguageNotListedFlagged(t *testing.T) {
	g, w, h := germanPage(t)
	r, err := testEngine(t).RecognizeGray(g, w, h, w, 300, testOpts())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.ReviewReason, document.ReviewOCRLanguageNotListed+": the page reads as German (deu") ||
		!strings.Contains(r.ReviewReason, "install tesseract-ocr-deu") || !strings.Contains(r.ReviewReason, "OCR languages (eng)") {
		t.Errorf("review reason %q\ntext %q", r.ReviewReason, r.Text)
	}
	if _, err := os.Stat("/usr/share/tesseract-ocr/5/tessdata/deu.traineddata"); err != nil {
		return // the reading with deu needs its model (not part of make test's setup)
	}
	e, err := NewEngine([]string{"eng", "deu"})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	opts := testOpts()
	opts.OCRLanguages = []string{"eng", "deu"}
	r, err = e.RecognizeGray(g, w, h, w, 300, opts)
	if err != nil {
		t.Fatal(err)
	}
	if r.ReviewReason != "" || !strings.Contains(r.Text, "ü") {
		t.Errorf("with deu: review %q, text %q", r.ReviewReason, r.Text)
	}
}

// languageReview judges the text as read against the loaded models.
func TestLanguageReview(t *testing.T) {
	german := strings.Join(germanLines, "\n")
	asRead := strings.NewReplacer("ü", "u", "ä", "a", "ö", "o", "Ü", "U", "Ä", "A", "ß", "B").Replace(german) // as eng reads it
	english := strings.Repeat("Payment is due within thirty days of the invoice date. Termination requires written notice to the other party. ", 3)
	lorem := strings.Repeat("Quaerat ipsum dolore sit amet neque labore voluptatem magnam etincidunt numquam modi. ", 4)
	for _, c := range []struct {
		text, loaded string
		flag         bool
	}{
		{german, "eng", true},
		{asRead, "eng", true},
		{german, "eng+deu", false},
		{german, "deu", false},
		{german, "eng+script/Latin", false},
		{german, "eng+mymodel", false}, // a model of one's own may read it
		{german, "eng+fra", true},
		{english, "eng", false},
		{lorem, "eng", false},
		{germanLines[0], "eng", false}, // too short to judge
		{"", "eng", false},
	} {
		got := languageReview(c.text, c.loaded, "")
		if c.flag && got != "" && !strings.Contains(got, "("+c.loaded+")") {
			t.Errorf("%q: does not name the loaded languages", got)
		}
		if (got != "") != c.flag {
			t.Errorf("%q with %s: %q", c.text[:min(len(c.text), 30)], c.loaded, got)
		}
	}
}

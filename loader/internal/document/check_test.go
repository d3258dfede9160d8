package document

import (
	"strings"
	"testing"
)

func codes(r *Result) []string {
	var out []string
	for _, v := range r.AllReviews() {
		out = append(out, v.Code)
	}
	return out
}

func TestCheck(t *testing.T) {
	prose := strings.Repeat("The quarterly report lists every invoice paid in March. ", 5)
	cases := []struct {
		name  string
		res   Result
		codes string
	}{
		{"plain text passes", Result{Pages: []Page{{Number: 1, Text: prose}}}, ""},
		{"pages missing", Result{Metadata: Metadata{PageCount: 3}, Pages: []Page{{Number: 1, Text: prose}}}, "pages_missing"},
		{"no text on pages", Result{Pages: []Page{{Number: 1, NeedsOCR: true, Method: MethodNone}, {Number: 2}}}, "no_text"},
		{"replacement chars", Result{Pages: []Page{{Number: 1, Text: prose + strings.Repeat("\uFFFD\uFFFDx ", 20)}}}, "replacement_chars"},
		{"a few replacement chars pass", Result{Pages: []Page{{Number: 1, Text: prose + "caf\uFFFD"}}}, ""},
		{"mixed-script words", Result{Pages: []Page{{Number: 1, Text: strings.Repeat("дocтуп зaкрыт ", 10)}}}, "unexpected_chars"},
		{"private use and controls", Result{Pages: []Page{{Number: 1, Text: prose + strings.Repeat("\uE001\u0085\u0093 ", 10)}}}, "unexpected_chars"},
		{"UTF-8 read again as Latin-1", Result{Pages: []Page{{Number: 1, Text: strings.Repeat(prose+"1986\u00e2\u0080\u00932001 Watford ", 8)}}}, "unexpected_chars"},
		{"UTF-8 read again as Windows-1252", Result{Pages: []Page{{Number: 1, Text: strings.Repeat(prose+"caf\u00c3\u00a9 \u00e2\u20ac\u201cnot\u00e2\u20ac\u009d ", 3)}}}, "unexpected_chars"},
		{"a few such places pass", Result{Pages: []Page{{Number: 1, Text: prose + "caf\u00c3\u00a9"}}}, ""},
		{"Latin-1 accents and punctuation pass", Result{Pages: []Page{{Number: 1, Text: strings.Repeat("Straße\u00a0Nr. 5 «À bientôt» — Ça coûte 5 € · Ø 3 mm ± 0,5 °C ", 10)}}}, ""},
		{"Japanese with a Latin brand passes", Result{Pages: []Page{{Number: 1, Text: strings.Repeat("新しいiPhoneを買いました。", 10)}}}, ""},
		{"Arabic and Hebrew prose passes", Result{Pages: []Page{{Number: 1, Text: strings.Repeat("مرحبا بالعالم שלום עולם hello ", 10)}}}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.res
			Check(&r)
			if got := strings.Join(codes(&r), ","); got != tc.codes {
				t.Errorf("codes %q, want %q (%+v)", got, tc.codes, r.Reviews)
			}
			for _, v := range r.Reviews {
				if v.Message == "" {
					t.Errorf("review %s without a message", v.Code)
				}
			}
		})
	}
}

// TestNoTextSaysWhyInTheFilesTerms: a file with no text gets a no_text
// reason in its own terms: a text, XML or spreadsheet file has no pages
// ("the file has 1 page(s) but no text was extracted" was all it said),
// and a picture OCR found nothing in says so.
func TestNoTextSaysWhyInTheFilesTerms(t *testing.T) {
	cases := []struct {
		res  Result
		want string
	}{
		{Result{Type: "xml", Pages: []Page{{Number: 1}}}, "no text was extracted: its elements hold no text (attribute values are not read as text)"},
		{Result{Type: "text", Pages: []Page{{Number: 1, Text: " \n\t "}}}, "no text was extracted: the file holds only white space"},
		{Result{Type: "xlsx", Pages: []Page{{Number: 1}}}, "no text was extracted: its sheets have no cell with a value"},
		{Result{Type: "png", Pages: []Page{{Number: 1, Method: MethodOCR}}}, "OCR found no text in the file"},
		{Result{Type: "pdf", Pages: []Page{{Number: 1}, {Number: 2}}}, "the file has 2 pages but no text was extracted from any of them"},
		{Result{Type: "pdf", Pages: []Page{{Number: 1, NeedsOCR: true}}}, "no text was extracted from the file (1 page(s) need OCR, which did not run or failed)"},
	}
	for _, c := range cases {
		Check(&c.res)
		if len(c.res.Reviews) != 1 || c.res.Reviews[0].Code != ReviewNoText || !strings.HasPrefix(c.res.Reviews[0].Message, c.want) {
			t.Errorf("%s: reviews %+v, want no_text %q", c.res.Type, c.res.Reviews, c.want)
		}
	}
}

func TestCheckMessageAndNoDuplicates(t *testing.T) {
	r := Result{Metadata: Metadata{PageCount: 2}, Pages: []Page{{Number: 1, Text: "Only the first page was read, the second was lost."}}}
	r.Flag(0, ReviewPagesMissing, "page 2 could not be recovered")
	Check(&r)
	if len(r.Reviews) != 1 {
		t.Fatalf("reviews %+v, want the extractor's one only", r.Reviews)
	}
	r = Result{Metadata: Metadata{PageCount: 2}, Pages: []Page{{Number: 1, Text: "x"}}}
	Check(&r)
	if m := r.Reviews[0].Message; !strings.Contains(m, "declares 2 pages but only 1") {
		t.Errorf("message %q", m)
	}
}

func TestFlagAndAllReviews(t *testing.T) {
	r := Result{Pages: []Page{{Number: 1}, {Number: 2, ReviewReason: "low_ocr_confidence: mean 41.0 < 70"}, {Number: 3, ReviewReason: "ocr_found_no_text"}}}
	r.Flag(1, ReviewPageUnreadable, "page 1 content stream is damaged")
	r.Flag(0, ReviewRepaired, "the file was repaired")
	if got := r.Pages[0].ReviewReason; got != "page_unreadable: page 1 content stream is damaged" {
		t.Errorf("page reason %q", got)
	}
	all := r.AllReviews()
	want := []Review{
		{0, ReviewRepaired, "the file was repaired"},
		{1, ReviewPageUnreadable, "page 1 content stream is damaged"},
		{2, ReviewLowOCRConfidence, "mean 41.0 < 70"},
		{3, ReviewOCRNoText, "ocr found no text"},
	}
	if len(all) != len(want) {
		t.Fatalf("got %+v", all)
	}
	for i := range want {
		if all[i] != want[i] {
			t.Errorf("review %d: %+v, want %+v", i, all[i], want[i])
		}
	}
}

func TestRealChars(t *testing.T) {
	for s, n := range map[string]int{"": 0, " \t\n\u00a0\u2003": 0, "a b": 2, "caf\uFFFD": 3, "مرحبا": 5, "x\u200by": 3} {
		if got := RealChars(s); got != n {
			t.Errorf("RealChars(%q) = %d, want %d", s, got, n)
		}
	}
}

package pdf

import (
	"context"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf/pdftest"
)

// rtlLines are the RTL fixtures' lines in logical order: Hebrew, Arabic,
// RTL lines holding Latin words and numbers, LTR lines holding RTL words.
var rtlLines = []string{
	"שלום עולם, זהו מסמך לדוגמה",
	"הפגישה נקבעה ליום 12 בחודש",
	"مرحبا بالعالم هذا مستند تجريبي",
	"عندي 47 قطط في البيت",
	"اسمي Jeremy في الانجليزية",
	"המוצר Docket Loader עובד היטב",
	"Jeremy is جرمي in Arabic",
	"The word שלום עולם means hello world",
}

// Right-to-left lines come out in logical order, as words, whether the
// producer wrote them in visual or in logical order; mixed lines keep
// both runs readable.
func TestRTLLogicalOrder(t *testing.T) {
	for _, order := range []pdftest.Order{pdftest.Visual, pdftest.Logical} {
		name := map[pdftest.Order]string{pdftest.Visual: "visual", pdftest.Logical: "logical"}[order]
		t.Run(name, func(t *testing.T) {
			data, err := pdftest.RTLPDF(rtlLines, order)
			if err != nil {
				t.Fatal(err)
			}
			path := pdftest.WriteBytes(t, "rtl.pdf", data)
			res, err := Extract(context.Background(), path, document.Options{})
			if err != nil {
				t.Fatal(err)
			}
			// Lines join into paragraphs: compare the word sequence.
			want := strings.Fields(strings.Join(rtlLines, " "))
			if got := strings.Fields(res.Pages[0].Text); strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("text:\n got %q\nwant %q", got, want)
			}
			// Words (what table detection reads) are whole words too.
			doc, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer doc.Close()
			lay, err := doc.Page(1, Chars)
			if err != nil {
				t.Fatal(err)
			}
			var words []string
			for _, b := range lay.Blocks {
				for _, l := range b.Lines {
					for _, w := range l.Words {
						words = append(words, w.Text)
					}
				}
			}
			if strings.Join(words, " ") != strings.Join(want, " ") {
				t.Errorf("words:\n got %q\nwant %q", words, want)
			}
		})
	}
}

func TestVisualToLogical(t *testing.T) {
	for _, s := range rtlLines {
		vis := pdftest.VisualOrder(s)
		cs := make([]rtlChar, len(vis))
		for i, r := range vis {
			cs[i] = rtlChar{r: r, box: document.BBox{X0: float64(i), X1: float64(i) + 1}}
		}
		order := logicalOrder(cs)
		if got, _ := rtlText(cs, order); got != s {
			t.Errorf("visual %q:\n got %q\nwant %q", string(vis), got, s)
		}
	}
}

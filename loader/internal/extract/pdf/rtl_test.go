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
			text, words := rtlRead(t, rtlLines, order)
			// Lines join into paragraphs: compare the word sequence.
			want := strings.Fields(strings.Join(rtlLines, " "))
			if got := strings.Fields(text); strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("text:\n got %q\nwant %q", got, want)
			}
			if words != strings.Join(want, " ") {
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

// Arabic written in its presentation forms (the shaped glyphs' own code
// points, as many producers do) comes out as the letters a user types:
// "ﻛﺘﺎﺏ ﺟﻤﻴﻞ ﻻ" is "كتاب جميل لا", the lam-alef ligature read lam first,
// in the page text and in the words tables are built from. Before, the
// forms landed in staging.pages and the table cells (search folded them
// already: chunks and its tokenizer take NFKC), so a query over staging
// for "كتاب" missed the page.
func TestRTLPresentationForms(t *testing.T) {
	shaped := []string{
		"ﻛﺘﺎﺏ ﺟﻤﻴﻞ ﻻ",   // kaf teh alef beh: initial, medial, final, isolated; lam-alef
		"ﺍﻟﺒﺎﺏ 12 ﻣﻐﻠﻖ", // "الباب 12 مغلق", a number between
	}
	want := "كتاب جميل لا الباب 12 مغلق"
	for _, order := range []pdftest.Order{pdftest.Visual, pdftest.Logical} {
		text, words := rtlRead(t, shaped, order)
		if got := strings.Join(strings.Fields(text), " "); got != want {
			t.Errorf("order %v: text %q, want %q", order, got, want)
		}
		if words != want {
			t.Errorf("order %v: words %q, want %q", order, words, want)
		}
	}
}

// rtlRead writes lines as an RTL fixture in the given order and reads
// back its first page's text and its words (what table detection reads),
// joined by spaces.
func rtlRead(t *testing.T, lines []string, order pdftest.Order) (text, words string) {
	t.Helper()
	data, err := pdftest.RTLPDF(lines, order)
	if err != nil {
		t.Fatal(err)
	}
	path := pdftest.WriteBytes(t, "rtl.pdf", data)
	res, err := Extract(context.Background(), path, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	lay, err := doc.Page(1, Chars)
	if err != nil {
		t.Fatal(err)
	}
	var ws []string
	for _, b := range lay.Blocks {
		for _, l := range b.Lines {
			for _, w := range l.Words {
				ws = append(ws, w.Text)
			}
		}
	}
	return res.Pages[0].Text, strings.Join(ws, " ")
}

// A glyph whose ToUnicode gives two letters (here code "A" of a simple
// font mapped to lam and alef-hamza, as Chromium writes DejaVu's
// lam-alef ligature) reads in logical order: MuPDF gives the second letter
// no width at the glyph's right end, and the RTL rebuild put it before
// the lam ("األخ" for "الأخ"). Drawn left to right: kha, the ligature,
// alef.
func TestRTLGlyphOfTwoLetters(t *testing.T) {
	cmap := "/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /T def 1 begincodespacerange <00> <FF> endcodespacerange " +
		"3 beginbfchar <41> <06440623> <42> <0627> <43> <062E> endbfchar endcmap CMapName currentdict /CMap defineresource pop end end"
	data := pdftest.Assemble("1.4", []string{"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>",
		rawStream("BT /F1 24 Tf 72 700 Td (CAB) Tj ET"), rawStream(cmap)}, "")
	res, err := Extract(context.Background(), pdftest.WriteBytes(t, "lig.pdf", data), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(res.Pages[0].Text); got != "الأخ" {
		t.Errorf("text %q (%U), want %q", got, []rune(got), "الأخ")
	}
}

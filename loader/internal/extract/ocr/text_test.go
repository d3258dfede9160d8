package ocr

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// w builds a synthetic word: block, paragraph, line, x position, confidence.
func w(text string, b, p, l int, x, conf float64) document.OCRWord {
	return document.OCRWord{Text: text, Block: b, Paragraph: p, Line: l, Confidence: conf,
		BBox: document.BBox{X0: x, Y0: float64(l) * 40, X1: x + 30, Y1: float64(l)*40 + 30}}
}

func synthetic() []document.OCRWord {
	ws := []document.OCRWord{
		w("Dear", 0, 0, 0, 10, 95), w("Sir,", 0, 0, 0, 50, 93),
		w("the", 1, 1, 1, 10, 90), w("notice", 1, 1, 1, 50, 91), w("period", 1, 1, 1, 90, 92),
		w("is", 1, 1, 2, 10, 94), w("#%&", 1, 1, 2, 50, 20), w("thirty", 1, 1, 2, 90, 96), w("days.", 1, 1, 2, 130, 97),
		w("Yours", 1, 2, 3, 10, 88), w("faithfully", 1, 2, 3, 60, 89),
		w("~~", 2, 3, 4, 10, 10),
	}
	for i := range ws {
		ws[i].Seq = i
	}
	return ws
}

func TestRebuildReadingOrder(t *testing.T) {
	ws := synthetic()
	// Shuffle: the rebuild must restore the order from the indices.
	rand.New(rand.NewSource(1)).Shuffle(len(ws), func(i, j int) { ws[i], ws[j] = ws[j], ws[i] })
	tests := []struct {
		name    string
		minConf float64
		want    string
		paras   []string
	}{
		{"all words", 0, "Dear Sir,\n\nthe notice period\nis #%& thirty days.\n\nYours faithfully\n\n~~",
			[]string{"Dear Sir,", "the notice period\nis #%& thirty days.", "Yours faithfully", "~~"}},
		{"low confidence left out", 60, "Dear Sir,\n\nthe notice period\nis thirty days.\n\nYours faithfully",
			[]string{"Dear Sir,", "the notice period\nis thirty days.", "Yours faithfully"}},
		{"everything under cut", 99, "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sorted := SortWords(ws)
			text, paras := Rebuild(sorted, tc.minConf)
			if text != tc.want {
				t.Fatalf("text = %q, want %q", text, tc.want)
			}
			if len(paras) != len(tc.paras) {
				t.Fatalf("got %d paragraphs, want %d", len(paras), len(tc.paras))
			}
			runes := []rune(text)
			for i, p := range paras {
				if p.Text != tc.paras[i] {
					t.Errorf("paragraph %d = %q, want %q", i, p.Text, tc.paras[i])
				}
				if got := string(runes[p.CharStart:p.CharEnd]); got != p.Text {
					t.Errorf("paragraph %d offsets give %q, want %q", i, got, p.Text)
				}
			}
		})
	}
}

func TestSortWordsRenumbers(t *testing.T) {
	ws := synthetic()
	rand.New(rand.NewSource(2)).Shuffle(len(ws), func(i, j int) { ws[i], ws[j] = ws[j], ws[i] })
	got := SortWords(ws)
	for i, w := range got {
		if w.Seq != i {
			t.Fatalf("word %d has Seq %d", i, w.Seq)
		}
	}
	if got[0].Text != "Dear" || got[len(got)-1].Text != "~~" {
		t.Fatalf("order: first %q last %q", got[0].Text, got[len(got)-1].Text)
	}
}

func TestRebuildParagraphBoxAndOffsetsUnicode(t *testing.T) {
	ws := []document.OCRWord{w("Größe", 0, 0, 0, 10, 90), w("naïve", 0, 0, 0, 60, 90), w("café", 0, 1, 1, 5, 90)}
	text, paras := Rebuild(ws, 0)
	if text != "Größe naïve\n\ncafé" {
		t.Fatalf("text %q", text)
	}
	if paras[1].CharStart != 13 || paras[1].CharEnd != 17 {
		t.Fatalf("code point offsets %d..%d, want 13..17", paras[1].CharStart, paras[1].CharEnd)
	}
	if b := paras[0].BBox; b.X0 != 10 || b.X1 != 90 || b.Y0 != 0 || b.Y1 != 30 {
		t.Fatalf("paragraph box %+v", b)
	}
}

func TestAssembleConfidenceAndReview(t *testing.T) {
	ws := synthetic() // mean confidence of the 12 words
	var sum float64
	for _, w := range ws {
		sum += w.Confidence
	}
	mean := sum / float64(len(ws))
	tests := []struct {
		name   string
		below  float64
		review bool
	}{
		{"threshold under mean", mean - 1, false},
		{"threshold off", 0, false},
		{"threshold over mean", mean + 5, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := Assemble(ws, document.Options{OCRMinWordConf: 60, OCRReviewBelow: tc.below})
			if r.MeanConfidence != mean {
				t.Fatalf("mean %v, want %v", r.MeanConfidence, mean)
			}
			if len(r.Words) != len(ws) {
				t.Fatalf("%d words kept, want all %d", len(r.Words), len(ws))
			}
			if strings.Contains(r.Text, "#%&") {
				t.Fatalf("low-confidence word in text %q", r.Text)
			}
			if (r.ReviewReason != "") != tc.review {
				t.Fatalf("review reason %q, want review=%v", r.ReviewReason, tc.review)
			}
			if tc.review && !strings.HasPrefix(r.ReviewReason, "low_ocr_confidence: OCR read this page with a mean word confidence of ") {
				t.Fatalf("review reason %q", r.ReviewReason)
			}
		})
	}
	if r := Assemble(nil, document.Options{OCRReviewBelow: 60}); r.ReviewReason != "" || r.MeanConfidence != 0 || r.Text != "" {
		t.Fatalf("blank page: %+v", r)
	}
}

func TestLangString(t *testing.T) {
	tests := []struct {
		in   []string
		want string
		err  bool
	}{
		{nil, "eng", false},
		{[]string{"eng", "deu"}, "eng+deu", false},
		{[]string{"chi_sim"}, "chi_sim", false},
		{[]string{"eng;rm"}, "", true},
		{[]string{""}, "", true},
	}
	for _, tc := range tests {
		got, err := langString(tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("langString(%q) = %q, %v", tc.in, got, err)
		}
	}
}

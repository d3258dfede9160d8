package ocr

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// The gate that spares upright pages OSD: a reading of confident words
// along the lines, most of them dictionary words, is upright; a reading
// of unsure fragments (a page upside down), of words running down the page
// (sideways) or of few dictionary words (a script the languages do not
// read) is not.
func TestReadsUpright(t *testing.T) {
	line := func(conf float64, down bool, texts ...string) []document.OCRWord {
		var ws []document.OCRWord
		for i, s := range texts {
			b := document.BBox{X0: float64(100 * i), Y0: 0, X1: float64(100*i + 80), Y1: 20}
			if down {
				b = document.BBox{X0: 0, Y0: float64(100 * i), X1: 20, Y1: float64(100*i + 80)}
			}
			ws = append(ws, document.OCRWord{Text: s, Confidence: conf, BBox: b})
		}
		return ws
	}
	text := strings.Fields(strings.Repeat("Payment is due within thirty days of the invoice date and termination requires written notice to the other party ", 2))
	dict := func(ws []document.OCRWord, share float64) dictCount {
		var d dictCount
		for i, w := range ws {
			d.add(w.Text, float64(i) < share*float64(len(ws)))
		}
		return d
	}
	up := line(92, false, text...)
	for _, tc := range []struct {
		name  string
		words []document.OCRWord
		dict  dictCount
		want  bool
	}{
		{"upright", up, dict(up, 1), true},
		{"no words", nil, dictCount{}, true},
		{"unsure fragments", line(35, false, text...), dict(up, 1), false},
		{"words running down", line(92, true, text...), dict(up, 1), false},
		{"few dictionary words", up, dict(up, 0.2), false},
		{"a quarter unsure", append(line(92, false, text[:30]...), line(20, false, text[30:]...)...), dict(up, 1), true},
		{"three quarters unsure", append(line(92, false, text[:4]...), line(20, false, text[4:]...)...), dict(up, 1), false},
		{"few long words: dictionary not asked", line(92, false, "4711", "12.50", "EUR", "XQZ"), dictCount{long: 2}, true},
	} {
		if got := readsUpright(tc.words, tc.dict); got != tc.want {
			t.Errorf("%s: readsUpright = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// An upright page is read once, without OSD; a page upside down is read,
// found unsure, turned by OSD and read again.
func TestOSDOnlyWhenNeeded(t *testing.T) {
	e := testEngine(t)
	g, w, h := renderFixture(t)
	r, err := e.RecognizeGray(g, w, h, w, 300, testOpts())
	if err != nil {
		t.Fatal(err)
	}
	if r.Script != "" || r.Rotated != 0 || r.Text != fixtureText {
		t.Errorf("upright: OSD script %q (OSD ran), rotated %d, text %q", r.Script, r.Rotated, r.Text)
	}
	tg, tw, th := turn(g, w, h, 180)
	r, err = e.RecognizeGray(tg, tw, th, tw, 300, testOpts())
	if err != nil {
		t.Fatal(err)
	}
	if r.Script != "Latin" || r.Rotated != 180 || r.Text != fixtureText {
		t.Errorf("upside down: OSD script %q, rotated %d, text %q", r.Script, r.Rotated, r.Text)
	}
}

// A line printed white on black is still read: the first reading does not
// retry weak lines inverted, the second reading does.
func TestInvertedLineRead(t *testing.T) {
	e := testEngine(t)
	g, w, h := renderFixture(t)
	up, err := e.RecognizeGray(g, w, h, w, 300, testOpts())
	if err != nil {
		t.Fatal(err)
	}
	// The band of the first line, inverted.
	b := up.Words[0].BBox
	for _, wd := range up.Words {
		if wd.Line == 0 {
			b.X1, b.Y0, b.Y1 = max(b.X1, wd.BBox.X1), min(b.Y0, wd.BBox.Y0), max(b.Y1, wd.BBox.Y1)
		}
	}
	inv := append([]byte(nil), g...)
	for y := int(b.Y0) - 15; y < int(b.Y1)+15; y++ {
		for x := int(b.X0) - 30; x < int(b.X1)+30; x++ {
			inv[y*w+x] = 255 - inv[y*w+x]
		}
	}
	r, err := e.RecognizeGray(inv, w, h, w, 300, testOpts())
	if err != nil {
		t.Fatal(err)
	}
	if first := strings.SplitN(fixtureText, "\n", 2)[0]; !strings.Contains(r.Text, first) {
		t.Errorf("inverted first line %q not read: %q", first, r.Text)
	}
}

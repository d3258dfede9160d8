package ocr

import (
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// A weak line is read again from a crop that is dark-on-light whichever
// way it was printed: a line printed light on dark is turned by lineCrop
// itself (Tesseract's inverted retry, which read every weak line twice,
// is off), a dark-on-light line is left as it is.
func TestLineCropTurnsLightOnDark(t *testing.T) {
	testEngine(t) // loads leptonica
	const w, h = 300, 80
	for _, tc := range []struct {
		name         string
		ground, ink  byte
		wantG, wantI byte
	}{
		{"light on dark", 20, 230, 235, 25},
		{"dark on light", 240, 10, 240, 10},
	} {
		g := make([]byte, w*h)
		for i := range g {
			g[i] = tc.ground
		}
		for y := 30; y < 50; y++ { // a "glyph"
			for x := 100; x < 110; x++ {
				g[y*w+x] = tc.ink
			}
		}
		p := newPix(g, w, h, w, 300)
		c := lineCrop(p, weakLine{x0: 10, y0: 10, x1: 290, y1: 70})
		destroyPix(p)
		if c == nil {
			t.Fatal("no crop")
		}
		got, cw, ch := greyBytes(c)
		destroyPix(c)
		if cw != 280*rereadScale+2*rereadBorder || ch != 60*rereadScale+2*rereadBorder {
			t.Fatalf("%s: crop %dx%d", tc.name, cw, ch)
		}
		at := func(x, y int) byte { // in the line's pixels
			return got[(rereadBorder+y*rereadScale)*cw+rereadBorder+x*rereadScale]
		}
		if got[0] != 255 || at(5, 5) != tc.wantG || at(94, 30) != tc.wantI {
			t.Errorf("%s: border %d, ground %d (want %d), ink %d (want %d)", tc.name, got[0], at(5, 5), tc.wantG, at(94, 30), tc.wantI)
		}
	}
}

// weakLines picks the lines holding a word under the cut, with a margin
// kept inside the image, and leaves out vertical text.
func TestWeakLines(t *testing.T) {
	word := func(line int, x0, y0, x1, y1, conf float64, text string) document.OCRWord {
		return document.OCRWord{Line: line, Text: text, Confidence: conf, BBox: document.BBox{X0: x0, Y0: y0, X1: x1, Y1: y1}}
	}
	words := []document.OCRWord{
		word(0, 2, 10, 50, 30, 95, "sure"), word(0, 60, 10, 120, 30, 95, "words"),
		word(1, 10, 40, 50, 60, 95, "one"), word(1, 60, 41, 118, 62, 40, "weak"),
		word(2, 200, 100, 220, 198, 30, "vertical"),
		word(3, 190, 200, 198, 215, 20, "x"),
	}
	got := weakLines(words, 200, 220, 60)
	if len(got) != 2 {
		t.Fatalf("got %d lines, want 2: %+v", len(got), got)
	}
	if l := got[0]; len(l.all) != 2 || l.all[0] != 2 || l.x0 != 6 || l.y0 != 36 || l.x1 != 122 || l.y1 != 66 {
		t.Errorf("line 1: %+v", l)
	}
	if l := got[1]; len(l.all) != 1 || l.all[0] != 5 || l.x1 != 200 || l.y1 != 219 {
		t.Errorf("short line at the edge: %+v", l)
	}
}

// In a long line, only the weak words with rereadContext words either
// side are read again (runs merged), each crop the line's full height:
// a long table row with one weak cell is not read whole a second time.
func TestWeakLinesCropAroundWeakWords(t *testing.T) {
	var words []document.OCRWord
	for k := range 12 {
		conf := 95.0
		if k == 0 || k == 7 || k == 9 {
			conf = 30
		}
		y0 := 100.0
		if k == 4 {
			y0 = 90 // a tall word sets the line's height
		}
		words = append(words, document.OCRWord{Line: 0, Text: "word", Confidence: conf,
			BBox: document.BBox{X0: float64(10 + 50*k), Y0: y0, X1: float64(50 + 50*k), Y1: 120}})
	}
	got := weakLines(words, 1000, 300, 60)
	if len(got) != 2 {
		t.Fatalf("got %d crops, want 2: %+v", len(got), got)
	}
	want := []struct {
		first, last int
		x0, x1      int
	}{{0, 2, 6, 154}, {5, 11, 256, 604}}
	for i, w := range want {
		l := got[i]
		if l.all[0] != w.first || l.all[len(l.all)-1] != w.last || len(l.all) != w.last-w.first+1 ||
			l.x0 != w.x0 || l.x1 != w.x1 || l.y0 != 86 || l.y1 != 124 {
			t.Errorf("crop %d: %+v, want words %d..%d, x %d..%d, y 86..124", i, l, w.first, w.last, w.x0, w.x1)
		}
	}
}

// A span's crop keeps its margin off the words of the line left out of
// it: in a tight row (2 px between words) a sliver of the next word would
// be read as one more character of the span's last word.
func TestWeakSpanCropStopsBeforeNeighbours(t *testing.T) {
	var words []document.OCRWord
	for k := range 8 {
		conf := 95.0
		if k == 3 {
			conf = 30
		}
		words = append(words, document.OCRWord{Line: 0, Text: "w", Confidence: conf,
			BBox: document.BBox{X0: float64(100 + 22*k), Y0: 100, X1: float64(120 + 22*k), Y1: 120}})
	}
	got := weakLines(words, 1000, 300, 60)
	if len(got) != 1 || got[0].all[0] != 1 || got[0].all[len(got[0].all)-1] != 5 {
		t.Fatalf("got %+v, want one crop of words 1..5", got)
	}
	l := got[0]
	if prev, next := words[0].BBox.X1, words[6].BBox.X0; float64(l.x0) < prev || float64(l.x1) > next {
		t.Errorf("crop x %d..%d reaches into word 0 (ends %v) or word 6 (starts %v)", l.x0, l.x1, prev, next)
	}
	if l.x0 > int(words[1].BBox.X0) || l.x1 < int(words[5].BBox.X1) {
		t.Errorf("crop x %d..%d cuts the span's own words (%v..%v)", l.x0, l.x1, words[1].BBox.X0, words[5].BBox.X1)
	}
}

package ocr

import "testing"

// TestLineImagesSkipPNG: while a page is recognised, the line images
// Tesseract hands its LSTM reader go through the pixWriteMem stand-in
// (SPIX instead of PNG), and the reading is the same as through
// leptonica's PNG: every word, confidence and box.
func TestLineImagesSkipPNG(t *testing.T) {
	e := testEngine(t)
	g, w, h := renderFixture(t)
	before := lineCodec.writes.Load()
	got, err := e.RecognizeGray(g, w, h, w, 300, testOpts())
	if err != nil {
		t.Fatal(err)
	}
	if lineCodec.writes.Load() == before {
		t.Fatal("no line image went through the pixWriteMem stand-in: Tesseract's calls bind to liblept's")
	}
	lineCodec.off.Store(true)
	defer lineCodec.off.Store(false)
	before = lineCodec.writes.Load()
	want, err := e.RecognizeGray(g, w, h, w, 300, testOpts())
	if err != nil {
		t.Fatal(err)
	}
	if lineCodec.writes.Load() != before {
		t.Fatal("the stand-in wrote SPIX while off")
	}
	if len(got.Words) == 0 || len(got.Words) != len(want.Words) {
		t.Fatalf("%d words through SPIX, %d through PNG", len(got.Words), len(want.Words))
	}
	for i := range got.Words {
		if got.Words[i] != want.Words[i] {
			t.Fatalf("word %d: %+v through SPIX, %+v through PNG", i, got.Words[i], want.Words[i])
		}
	}
	if got.Text != want.Text {
		t.Fatalf("text differs:\n%s\n---\n%s", got.Text, want.Text)
	}
}

// TestPixWriteMemOutsideRecognition: outside a recognition the stand-in
// leaves the format alone (a PNG is a PNG).
func TestPixWriteMemOutsideRecognition(t *testing.T) {
	testEngine(t) // loads the libraries
	g := make([]byte, 40*30)
	for i := range g {
		g[i] = byte(i)
	}
	p := newPix(g, 40, 30, 40, 300)
	defer destroyPixForTest(p)
	data := writeMemForTest(p)
	if len(data) < 8 || string(data[1:4]) != "PNG" {
		t.Fatalf("not a PNG outside recognition: % x", data[:min(len(data), 8)])
	}
	var spix []byte
	withLineCodec(func() { spix = writeMemForTest(p) })
	if len(spix) < 4 || string(spix[:4]) != "spix" {
		t.Fatalf("not SPIX inside recognition: % x", spix[:min(len(spix), 8)])
	}
}

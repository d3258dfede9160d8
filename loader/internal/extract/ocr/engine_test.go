package ocr

import (
	"context"
	"image"
	"image/color"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

var (
	engOnce sync.Once
	eng     *Engine
	engErr  error
)

func testEngine(t *testing.T) *Engine {
	t.Helper()
	engOnce.Do(func() { eng, engErr = NewEngine([]string{"eng"}) })
	if engErr != nil {
		t.Fatalf("NewEngine: %v", engErr)
	}
	return eng
}

func testOpts() document.Options {
	return document.Options{OCR: true, OCRLanguages: []string{"eng"}, OCRDPI: 300, OCRMinWordConf: 60, OCRReviewBelow: 60}
}

// The fixture is a PDF of five short lines in two paragraphs, with no
// image: rendering it at 300 dpi gives a clean "scan".
const fixtureText = "Invoice 4711 from Acme Corporation\nPayment is due within thirty days\nof the invoice date.\n\nTermination requires written notice\nto the other party."

func TestOCRPDFPages(t *testing.T) {
	e := testEngine(t)
	rs, err := e.OCRPDFPages(context.Background(), "testdata/scan.pdf", nil, testOpts())
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 {
		t.Fatalf("%d pages, want 1", len(rs))
	}
	r := rs[0]
	if r.Text != fixtureText {
		t.Errorf("text = %q, want %q", r.Text, fixtureText)
	}
	// A 5x3 inch page is smaller than a letter page: rendered at 660 dpi
	// as if its long side were 11 inches (see minLongSide).
	if r.Page != 1 || r.DPI != 660 || r.Width != 3300 || r.Height != 1980 || r.WidthPt != 360 || r.HeightPt != 216 {
		t.Errorf("page %d dpi %d size %dx%d px %.1fx%.1f pt", r.Page, r.DPI, r.Width, r.Height, r.WidthPt, r.HeightPt)
	}
	if len(r.Words) != 23 {
		t.Errorf("%d words, want 23", len(r.Words))
	}
	if r.MeanConfidence < 85 || r.ReviewReason != "" {
		t.Errorf("mean confidence %.1f review %q", r.MeanConfidence, r.ReviewReason)
	}
	if len(r.Paragraphs) != 2 {
		t.Fatalf("%d paragraphs, want 2", len(r.Paragraphs))
	}
	first := r.Words[0]
	if first.Text != "Invoice" || first.Page != 1 || first.Line != 0 || first.Confidence < 80 {
		t.Errorf("first word %+v", first)
	}
	// Times 14pt: the first word starts 24 pt from the left edge and is
	// about 38 pt wide and 10-14 pt high; boxes are pixels at r.DPI.
	pt := func(px float64) float64 { return px * 72 / float64(r.DPI) }
	if b := first.BBox; pt(b.X0) < 18 || pt(b.X0) > 30 || pt(b.X1-b.X0) < 28 || pt(b.X1-b.X0) > 53 || pt(b.Y1-b.Y0) < 7 || pt(b.Y1-b.Y0) > 17 {
		t.Errorf("first word box %+v (%.1f pt wide)", b, pt(b.X1-b.X0))
	}
	last := r.Words[len(r.Words)-1]
	if last.Line != 4 || last.Paragraph != 1 || last.Seq != 22 {
		t.Errorf("last word %+v", last)
	}
}

func TestPageDPI(t *testing.T) {
	tests := []struct{ w, h, dpi, want int }{
		{612, 792, 300, 300},  // letter: as configured
		{595, 842, 300, 300},  // A4
		{360, 216, 300, 660},  // 5x3 in: as 11 in long
		{143, 202, 300, 1177}, // a 2480x3508 scan on a 202 pt page
		{50, 80, 300, 1200},   // tiny: at most 4x
		{612, 792, 200, 200},  // the configured dpi is respected
		{306, 396, 200, 400},  // half letter at 200: as a letter page
		{0, 0, 300, 300},
	}
	for _, tc := range tests {
		if got := pageDPI(tc.w, tc.h, tc.dpi); got != tc.want {
			t.Errorf("pageDPI(%d, %d, %d) = %d, want %d", tc.w, tc.h, tc.dpi, got, tc.want)
		}
	}
}

func TestThresholdsOnRealPage(t *testing.T) {
	e := testEngine(t)
	grey, w, h := renderFixture(t)
	opts := testOpts()
	opts.OCRMinWordConf = 101 // every word is under the cut
	opts.OCRReviewBelow = 101 // every page is under the review line
	r, err := e.RecognizeGray(grey, w, h, w, 300, opts)
	if err != nil {
		t.Fatal(err)
	}
	if r.Text != "" || len(r.Paragraphs) != 0 {
		t.Errorf("text %q with every word under the cut", r.Text)
	}
	if len(r.Words) != 23 {
		t.Errorf("%d words kept in Words, want 23", len(r.Words))
	}
	if !strings.HasPrefix(r.ReviewReason, "low_ocr_confidence: OCR read this page with a mean word confidence of ") || !strings.Contains(r.ReviewReason, "under ocr.review_below (101)") {
		t.Errorf("review reason %q", r.ReviewReason)
	}
}

func TestDeskew(t *testing.T) {
	e := testEngine(t)
	grey, w, h := renderFixture(t)
	rot, rw, rh := rotate(grey, w, h, 2.5)
	r, err := e.RecognizeGray(rot, rw, rh, rw, 300, testOpts())
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(math.Abs(r.SkewAngle)-2.5) > 0.5 {
		t.Errorf("skew angle %.2f, want about 2.5", r.SkewAngle)
	}
	if r.Text != fixtureText {
		t.Errorf("deskewed text %q", r.Text)
	}
}

func TestBlankPage(t *testing.T) {
	e := testEngine(t)
	w, h := 600, 400
	grey := make([]byte, w*h)
	for i := range grey {
		grey[i] = 255
	}
	r, err := e.RecognizeGray(grey, w, h, w, 300, testOpts())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Words) != 0 || r.Text != "" || r.ReviewReason != "" {
		t.Errorf("blank page gave %+v", r)
	}
}

func TestBadInput(t *testing.T) {
	e := testEngine(t)
	if _, err := e.RecognizeGray(make([]byte, 10), 10, 10, 10, 300, testOpts()); err == nil {
		t.Error("short buffer accepted")
	}
	if _, err := e.OCRPDFPages(context.Background(), "testdata/scan.pdf", []int{2}, testOpts()); err == nil {
		t.Error("page out of range accepted")
	}
	if _, err := e.OCRPDFPages(context.Background(), "testdata/missing.pdf", nil, testOpts()); err == nil {
		t.Error("missing file accepted")
	}
	if _, err := NewEngine([]string{"xx_nope"}); err == nil {
		t.Error("missing language accepted")
	}
}

func TestClosedEngine(t *testing.T) {
	e, err := NewEngine(nil)
	if err != nil {
		t.Fatal(err)
	}
	e.Close()
	e.Close() // twice is fine
	if _, err := e.RecognizeGray(make([]byte, 100), 10, 10, 10, 300, testOpts()); err == nil {
		t.Error("closed engine recognised")
	}
}

func TestGray(t *testing.T) {
	rgba := image.NewRGBA(image.Rect(0, 0, 2, 1))
	rgba.Set(0, 0, color.RGBA{255, 0, 0, 255})
	rgba.Set(1, 0, color.RGBA{0, 0, 0, 0}) // transparent: white
	nrgba := image.NewNRGBA(image.Rect(0, 0, 2, 1))
	nrgba.Set(0, 0, color.NRGBA{0, 0, 0, 255})
	nrgba.Set(1, 0, color.NRGBA{0, 0, 0, 128}) // half black over white
	gray := image.NewGray(image.Rect(0, 0, 2, 1))
	gray.Pix = []byte{7, 9}
	pal := image.NewPaletted(image.Rect(0, 0, 2, 1), color.Palette{color.Black, color.White})
	pal.Pix = []byte{1, 0}
	tests := []struct {
		name string
		img  image.Image
		want []byte
	}{
		{"rgba", rgba, []byte{76, 255}},
		{"nrgba", nrgba, []byte{0, 127}},
		{"gray", gray, []byte{7, 9}},
		{"paletted", pal, []byte{255, 0}},
		{"sub image", gray.SubImage(image.Rect(1, 0, 2, 1)), []byte{9}},
	}
	for _, tc := range tests {
		got, w, h := Gray(tc.img)
		if string(got) != string(tc.want) || w*h != len(tc.want) {
			t.Errorf("%s: got %v (%dx%d), want %v", tc.name, got, w, h, tc.want)
		}
	}
}

func renderFixture(t *testing.T) ([]byte, int, int) {
	t.Helper()
	return renderGrey(t, "testdata/scan.pdf")
}

// renderGrey renders the first page of the PDF at path at 300 dpi as
// grey pixels (the OCR tests' pages: the fixture scan and the generated
// German and Arabic ones).
func renderGrey(t *testing.T, path string) ([]byte, int, int) {
	t.Helper()
	doc, err := OpenFitz(path)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	img, err := doc.ImageDPI(0, 300)
	if err != nil {
		t.Fatal(err)
	}
	return Gray(img)
}

// rotate turns a grey image by deg degrees about its centre (nearest
// neighbour, white fill), like a crooked scan.
func rotate(src []byte, w, h int, deg float64) ([]byte, int, int) {
	out := make([]byte, w*h)
	s, c := math.Sincos(deg * math.Pi / 180)
	cx, cy := float64(w)/2, float64(h)/2
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			dx, dy := float64(x)-cx, float64(y)-cy
			sx, sy := int(math.Round(c*dx+s*dy+cx)), int(math.Round(-s*dx+c*dy+cy))
			v := byte(255)
			if sx >= 0 && sx < w && sy >= 0 && sy < h {
				v = src[sy*w+sx]
			}
			out[y*w+x] = v
		}
	}
	return out, w, h
}

// TestFitDPI: a page rendered at fitDPI stays within the pixel limit, one
// or two dots per inch more would not (a 14400 pt square page at 300 dpi
// would be 3.6 billion pixels).
func TestFitDPI(t *testing.T) {
	for _, c := range []struct{ w, h, max int }{{14400, 14400, 178_956_970}, {612, 792, 178_956_970}, {612, 792, 1_000_000}, {200, 50000, 10_000_000}} {
		d := fitDPI(c.w, c.h, c.max)
		px := func(dpi int) int64 { return int64(c.w*dpi/72) * int64(c.h*dpi/72) }
		if px(d) > int64(c.max) || px(d+2) <= int64(c.max) {
			t.Errorf("%dx%d pt, %d pixels: fitDPI %d renders %d pixels (%d at %d)", c.w, c.h, c.max, d, px(d), px(d+2), d+2)
		}
	}
}

// The engine takes every row as proportional text (textord_all_prop):
// textord's fixed-pitch search per row is work the LSTM reader does not
// use. Tesseract must know the variable and hold it set.
func TestEngineSkipsFixedPitchSearch(t *testing.T) {
	e := testEngine(t)
	v, ok := e.boolVar("textord_all_prop")
	if !ok || !v {
		t.Errorf("textord_all_prop = %v (known %v), want set", v, ok)
	}
}

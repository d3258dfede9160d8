package image

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	goimage "image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/image/bmp"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/ocr"
)

var (
	engOnce sync.Once
	eng     *ocr.Engine
	engErr  error
)

func testEngine(t *testing.T) *ocr.Engine {
	t.Helper()
	engOnce.Do(func() { eng, engErr = ocr.NewEngine([]string{"eng"}) })
	if engErr != nil {
		t.Fatal(engErr)
	}
	return eng
}

func testOpts() document.Options {
	return document.Options{OCR: true, OCRLanguages: []string{"eng"}, OCRDPI: 300, OCRMinWordConf: 60, OCRReviewBelow: 60}
}

// testdata/scan.png is testdata/two.pdf's sibling scan.pdf rendered by
// pdftoppm at 300 dpi in grey: five lines in two paragraphs.
const scanText = "Invoice 4711 from Acme Corporation\nPayment is due within thirty days\nof the invoice date.\n\nTermination requires written notice\nto the other party."

func loadScan(t *testing.T) goimage.Image {
	t.Helper()
	f, err := os.Open("testdata/scan.png")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func write(t *testing.T, name string, enc func(*bytes.Buffer) error) string {
	t.Helper()
	var buf bytes.Buffer
	if err := enc(&buf); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func checkScan(t *testing.T, res *document.Result, typ string) {
	t.Helper()
	if res.Type != typ || res.Metadata.PageCount != 1 || len(res.Pages) != 1 {
		t.Fatalf("type %q, %d pages (metadata %d)", res.Type, len(res.Pages), res.Metadata.PageCount)
	}
	p := res.Pages[0]
	if p.Method != document.MethodOCR || p.Text != scanText {
		t.Errorf("method %q text %q", p.Method, p.Text)
	}
	if p.OCRConfidence < 80 || p.ReviewReason != "" {
		t.Errorf("confidence %.1f review %q", p.OCRConfidence, p.ReviewReason)
	}
	if p.Width != 1500 || p.Height != 900 {
		t.Errorf("page size %vx%v px, want the image's own 1500x900", p.Width, p.Height)
	}
	if len(res.Words) != 23 || res.Words[0].Text != "Invoice" || res.Words[0].Page != 1 {
		t.Errorf("%d words, first %+v", len(res.Words), res.Words[0])
	}
	if len(res.Elements) != 2 {
		t.Fatalf("%d elements, want 2 paragraphs", len(res.Elements))
	}
	runes := []rune(p.Text)
	for i, el := range res.Elements {
		if el.Category != document.NarrativeText || el.Seq != i || el.Page != 1 || el.TableSeq != -1 {
			t.Errorf("element %d: %+v", i, el)
		}
		if string(runes[el.CharStart:el.CharEnd]) != el.Text {
			t.Errorf("element %d offsets %d..%d do not give its text", i, el.CharStart, el.CharEnd)
		}
		if el.BBox.X1 <= el.BBox.X0 || el.BBox.Y1 <= el.BBox.Y0 || el.BBox.X1 > 1500 || el.BBox.Y1 > 900 {
			t.Errorf("element %d box %+v", i, el.BBox)
		}
	}
}

func TestFormats(t *testing.T) {
	e := testEngine(t)
	img := loadScan(t)
	tests := []struct {
		name, typ string
		path      func(t *testing.T) string
	}{
		{"png", "png", func(*testing.T) string { return "testdata/scan.png" }},
		// JPEG is decoded by MuPDF in the binary that links go-fitz, where
		// leptonica's own JPEG reading would fail.
		{"jpeg", "jpeg", func(t *testing.T) string {
			return write(t, "scan.jpg", func(b *bytes.Buffer) error { return jpeg.Encode(b, img, &jpeg.Options{Quality: 85}) })
		}},
		{"bmp", "bmp", func(t *testing.T) string {
			return write(t, "scan.bmp", func(b *bytes.Buffer) error { return bmp.Encode(b, img) })
		}},
		{"gif", "gif", func(t *testing.T) string {
			return write(t, "scan.gif", func(b *bytes.Buffer) error { return gif.Encode(b, img, nil) })
		}},
		{"tiff", "tiff", func(t *testing.T) string {
			return write(t, "scan.tif", func(b *bytes.Buffer) error { return writeTIFF(b, []goimage.Image{img}) })
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := ExtractWith(context.Background(), e, tc.path(t), testOpts())
			if err != nil {
				t.Fatal(err)
			}
			checkScan(t, res, tc.typ)
		})
	}
}

func TestMultiPageTIFF(t *testing.T) {
	e := testEngine(t)
	doc, err := ocr.OpenFitz("testdata/two.pdf")
	if err != nil {
		t.Fatal(err)
	}
	var frames []goimage.Image
	for i := 0; i < 2; i++ {
		img, err := doc.ImageDPI(i, 300)
		if err != nil {
			t.Fatal(err)
		}
		g, w, h := ocr.Gray(img)
		frames = append(frames, &goimage.Gray{Pix: g, Stride: w, Rect: goimage.Rect(0, 0, w, h)})
	}
	doc.Close()
	p := write(t, "two.tif", func(b *bytes.Buffer) error { return writeTIFF(b, frames) })
	res, err := ExtractWith(context.Background(), e, p, testOpts())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"First page of the report\nabout quarterly revenue.", "Second page lists the\nwarehouse inventory."}
	if len(res.Pages) != 2 || res.Metadata.PageCount != 2 {
		t.Fatalf("%d pages, want 2", len(res.Pages))
	}
	for i, pg := range res.Pages {
		if pg.Number != i+1 || pg.Text != want[i] || pg.Method != document.MethodOCR {
			t.Errorf("page %d: %+v", i+1, pg)
		}
	}
	if last := res.Words[len(res.Words)-1]; last.Page != 2 || last.Text != "inventory." {
		t.Errorf("last word %+v", last)
	}
	if last := res.Elements[len(res.Elements)-1]; last.Page != 2 || last.Seq != len(res.Elements)-1 {
		t.Errorf("last element %+v", last)
	}
}

func TestReviewFlag(t *testing.T) {
	opts := testOpts()
	opts.OCRReviewBelow = 100.5
	res, err := ExtractWith(context.Background(), testEngine(t), "testdata/scan.png", opts)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.Pages[0].ReviewReason, "low_ocr_confidence: OCR read this page with a mean word confidence of ") {
		t.Errorf("review reason %q", res.Pages[0].ReviewReason)
	}
}

func TestOCROff(t *testing.T) {
	opts := testOpts()
	opts.OCR = false
	res, err := Extract(context.Background(), "testdata/scan.png", opts)
	if err != nil {
		t.Fatal(err)
	}
	if p := res.Pages[0]; p.Method != document.MethodNone || !p.NeedsOCR || p.Text != "" || p.Width != 1500 {
		t.Errorf("page %+v", p)
	}
}

func TestBadFiles(t *testing.T) {
	scan, err := os.ReadFile("testdata/scan.png")
	if err != nil {
		t.Fatal(err)
	}
	heic := append([]byte("\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic"), make([]byte, 64)...)
	tests := []struct {
		name string
		data []byte
		kind string
		msg  string
	}{
		{"heic", heic, document.KindUndecodable, "HEIC images are not supported by the image decoder (MuPDF/Go); convert to PNG or JPEG"},
		{"webp", []byte("RIFF\x10\x00\x00\x00WEBPVP8 "), document.KindUndecodable, "WebP"},
		{"not an image", []byte("hello, world: this is text"), document.KindUndecodable, "not an image"},
		{"empty", nil, document.KindEmpty, "empty"},
		{"png garbage", append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{0xAB}, 200)...), document.KindCorrupt, "the png image is damaged or cut short"},
		{"png truncated header", scan[:30], document.KindCorrupt, "png"},
		{"jpeg garbage", append([]byte{0xff, 0xd8, 0xff, 0xe0}, bytes.Repeat([]byte{0x11}, 300)...), document.KindCorrupt, "the jpeg image is damaged or cut short"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "f")
			if err := os.WriteFile(p, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ExtractWith(context.Background(), testEngine(t), p, testOpts())
			var de *document.Error
			if !errors.As(err, &de) {
				t.Fatalf("error %v is not a *document.Error", err)
			}
			if de.Kind != tc.kind || !strings.Contains(de.Msg, tc.msg) {
				t.Errorf("got %s: %s, want kind %s with %q", de.Kind, de.Msg, tc.kind, tc.msg)
			}
		})
	}
}

func TestSniff(t *testing.T) {
	tests := map[string]string{
		"\x89PNG\r\n\x1a\nxxxx": "png", "\xff\xd8\xff\xe1": "jpeg", "II*\x00": "tiff", "MM\x00*": "tiff",
		"BMxx": "bmp", "GIF89a": "gif", "\x00\x00\x00\x18ftypmif1": "heic", "\x00\x00\x00\x18ftypavif": "heic", "%PDF-1.4": "",
	}
	for in, want := range tests {
		if got := Sniff([]byte(in)).Type; got != want {
			t.Errorf("Sniff(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCorpusImages(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "..", "..", "shared", "corpus", "mixed", "img")
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) == 0 {
		t.Skip("corpus not present")
	}
	if testing.Short() {
		t.Skip("short")
	}
	for _, f := range files {
		res, err := ExtractWith(context.Background(), testEngine(t), f, testOpts())
		var de *document.Error
		switch {
		case strings.HasSuffix(f, ".heic"):
			if !errors.As(err, &de) || de.Kind != document.KindUndecodable {
				t.Errorf("%s: %v", f, err)
			}
		case err != nil:
			t.Errorf("%s: %v", f, err)
		default:
			t.Logf("%s: %d pages, %d words, conf %.1f", filepath.Base(f), len(res.Pages), len(res.Words), res.Pages[0].OCRConfidence)
		}
	}
}

// writeTIFF writes grey frames as an uncompressed multi-page TIFF at 300
// dpi (Go's encoder writes one page only).
func writeTIFF(b *bytes.Buffer, frames []goimage.Image) error {
	le := binary.LittleEndian
	b.WriteString("II*\x00")
	_ = binary.Write(b, le, uint32(8))
	for i, img := range frames {
		r := img.Bounds()
		w, h := r.Dx(), r.Dy()
		const entries = 11
		ifdLen := 2 + entries*12 + 4
		base := b.Len()
		resOff := base + ifdLen
		dataOff := resOff + 8
		next := uint32(0)
		if i < len(frames)-1 {
			next = uint32(dataOff + w*h)
		}
		tag := func(id, typ uint16, count, val uint32) {
			_ = binary.Write(b, le, id)
			_ = binary.Write(b, le, typ)
			_ = binary.Write(b, le, count)
			_ = binary.Write(b, le, val)
		}
		_ = binary.Write(b, le, uint16(entries))
		tag(256, 4, 1, uint32(w))       // ImageWidth
		tag(257, 4, 1, uint32(h))       // ImageLength
		tag(258, 3, 1, 8)               // BitsPerSample
		tag(259, 3, 1, 1)               // Compression: none
		tag(262, 3, 1, 1)               // Photometric: BlackIsZero
		tag(273, 4, 1, uint32(dataOff)) // StripOffsets
		tag(277, 3, 1, 1)               // SamplesPerPixel
		tag(278, 4, 1, uint32(h))       // RowsPerStrip
		tag(279, 4, 1, uint32(w*h))     // StripByteCounts
		tag(282, 5, 1, uint32(resOff))  // XResolution
		tag(283, 5, 1, uint32(resOff))  // YResolution (same rational)
		_ = binary.Write(b, le, next)
		_ = binary.Write(b, le, [2]uint32{300, 1})
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				b.WriteByte(color.GrayModel.Convert(img.At(x, y)).(color.Gray).Y)
			}
		}
	}
	return nil
}

// TestPixelLimit (issue 17): an image over loader.max_image_pixels is
// quarantined too_large from its header, before MuPDF decodes it (a
// 30000 x 30000 PNG of 1 MB took a worker to the 4 GB memory limit);
// scan.png (1500 px wide) is well within a limit above its size.
func TestPixelLimit(t *testing.T) {
	cfg, err := os.Open("testdata/scan.png")
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := goimage.DecodeConfig(cfg)
	cfg.Close()
	if err != nil {
		t.Fatal(err)
	}
	opts := testOpts()
	opts.OCR = false
	opts.MaxImagePixels = c.Width*c.Height - 1
	_, err = ExtractWith(context.Background(), nil, "testdata/scan.png", opts)
	var de *document.Error
	if !errors.As(err, &de) || de.Kind != document.KindTooLarge || !strings.Contains(de.Msg, "loader.max_image_pixels") {
		t.Fatalf("one pixel over the limit: want too_large naming loader.max_image_pixels, got %v", err)
	}
	opts.MaxImagePixels = c.Width * c.Height
	if _, err := ExtractWith(context.Background(), nil, "testdata/scan.png", opts); err != nil {
		t.Fatalf("at the limit the image is read: %v", err)
	}
}

// withPHYs returns a PNG file's bytes with a pHYs chunk of ppm pixels per
// metre inserted after IHDR.
func withPHYs(t *testing.T, file []byte, ppm uint32) []byte {
	t.Helper()
	const ihdrEnd = 8 + 12 + 13
	if len(file) < ihdrEnd || string(file[12:16]) != "IHDR" {
		t.Fatal("not a PNG with IHDR first")
	}
	chunk := make([]byte, 0, 21)
	chunk = binary.BigEndian.AppendUint32(chunk, 9)
	chunk = append(chunk, "pHYs"...)
	chunk = binary.BigEndian.AppendUint32(chunk, ppm)
	chunk = binary.BigEndian.AppendUint32(chunk, ppm)
	chunk = append(chunk, 1)
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
	out := append([]byte{}, file[:ihdrEnd]...)
	out = append(out, chunk...)
	return append(out, file[ihdrEnd:]...)
}

// A PNG that MuPDF renders one to one is decoded by Go to the same grey
// pixels (grey, colour with transparency, palette), with the same
// resolution for Tesseract; one it would resample is left to MuPDF.
func TestPNGDecodedAsMuPDFRendersIt(t *testing.T) {
	src := loadScan(t)
	b := src.Bounds()
	rgba := goimage.NewNRGBA(b)
	pal := goimage.NewPaletted(b, color.Palette{color.White, color.Black, color.NRGBA{200, 30, 40, 255}, color.NRGBA{10, 90, 200, 128}})
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			v := color.GrayModel.Convert(src.At(x, y)).(color.Gray).Y
			rgba.SetNRGBA(x, y, color.NRGBA{v, v / 2, 255 - v, uint8(128 + x%128)})
			pal.SetColorIndex(x, y, uint8((x/7+y/5)%4))
		}
	}
	wide := goimage.NewGray(goimage.Rect(0, 0, 1503, 900))
	draw.Draw(wide, b, src, goimage.Point{}, draw.Src)
	for _, tc := range []struct {
		name    string
		img     goimage.Image
		ppm     uint32 // pHYs pixels per metre, 0: none
		tess    int
		decoded bool
	}{
		{"grey 300 dpi", src, 11811, 300, true},
		{"colour with alpha, no pHYs", rgba, 0, 0, true},
		{"palette 200 dpi", pal, 7874, 200, true},
		{"1503 px at 300 dpi, resampled by MuPDF", wide, 11811, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := png.Encode(&buf, tc.img); err != nil {
				t.Fatal(err)
			}
			data := buf.Bytes()
			if tc.ppm > 0 {
				data = withPHYs(t, data, tc.ppm)
			}
			p, cfg := writePNG(t, data)
			img, tess, ok := decodePNG(p, cfg)
			if ok != tc.decoded {
				t.Fatalf("decoded in Go: %v, want %v", ok, tc.decoded)
			}
			if !ok {
				return
			}
			want, ww, wh, wantTess := mupdfGrey(t, p, cfg)
			if tess != wantTess || tess != tc.tess {
				t.Errorf("Tesseract resolution %d, MuPDF path %d, want %d", tess, wantTess, tc.tess)
			}
			got, gw, gh := ocr.Gray(img)
			if gw != ww || gh != wh || !bytes.Equal(got, want) {
				diff, maxd := greyDiff(got, want)
				t.Errorf("Go %dx%d, MuPDF %dx%d, %d pixels differ (by up to %d)", gw, gh, ww, wh, diff, maxd)
			}
		})
	}
	if got := pngDPI(withPHYs(t, []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR0123456789abcdefg"), 11811)); got != 300 {
		t.Errorf("pngDPI %d, want 300", got)
	}
}

// mupdfGrey is the grey pixels MuPDF renders a one-frame image file as
// (header cfg), and the resolution its path tells Tesseract.
func mupdfGrey(t *testing.T, path string, cfg goimage.Config) (grey []byte, w, h, tess int) {
	t.Helper()
	doc, err := ocr.OpenFitz(path)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	bd, err := doc.Bound(0)
	if err != nil {
		t.Fatal(err)
	}
	render, tess := resolution(cfg, true, bd)
	m, err := doc.ImageDPI(0, render)
	if err != nil {
		t.Fatal(err)
	}
	grey, w, h = ocr.Gray(m)
	return grey, w, h, tess
}

// greyDiff counts the pixels that differ and the largest difference.
func greyDiff(got, want []byte) (n, most int) {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			n++
			most = max(most, int(got[i])-int(want[i]), int(want[i])-int(got[i]))
		}
	}
	return n, most
}

// writePNG writes a PNG file's bytes to a temporary file and reads its
// header.
func writePNG(t *testing.T, data []byte) (string, goimage.Config) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "x.png")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return p, cfg
}

package image

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	goimage "image"
	"image/png"
	"io"
	"math"
	"os"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/ocr"
	"github.com/docket-dev/docket/loader/internal/extract/version"
)

// decodePNG decodes a PNG file (header cfg) with Go's decoder when MuPDF
// would render it one pixel to one (see resolution), and returns the
// resolution to tell Tesseract. ok is false otherwise, and when Go cannot
// decode the file: MuPDF then renders it as before.
//
// Go decodes a 300-dpi scan in about 0.02 CPU s, where MuPDF's render of
// it as a page (RGB, then grey) cost 0.1-0.15 s, and a grey PNG decodes
// straight to the grey pixels Tesseract reads. Where MuPDF resamples (a
// size that is not a whole number of points at the file's resolution: the
// page's bounds are truncated to points, so a 1254 px wide scan at 300 dpi
// came out 1259 px wide) MuPDF still renders it: reading the file's own
// pixels instead changed that corpus scan's F1 (p10, -0.009), and this
// change is meant to leave every reading as it was. A file with an
// embedded colour profile (iCCP) stays with MuPDF too: MuPDF converts its
// pixels through the profile, Go's decoder ignores it (an Adobe RGB
// corpus image, DA-1p.png, came out up to 9 grey levels off).
func decodePNG(path string, cfg goimage.Config) (img goimage.Image, tessDPI int, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, false
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, pngHeadLen)
	head, err := r.Peek(pngHeadLen)
	if err != nil && err != io.EOF {
		return nil, 0, false
	}
	if icc, whole := pngChunk(head, "iCCP"); icc != nil || !whole {
		// MuPDF converts the pixels through an embedded colour profile
		// (Adobe RGB, a grey dot gain, ...); Go's decoder ignores it
		return nil, 0, false
	}
	dpi := pngDPI(head)
	if dpi <= 0 {
		dpi = 96 // MuPDF's resolution for a PNG that declares none
	}
	b := goimage.Rect(0, 0, int(float64(cfg.Width)*72/float64(dpi)), int(float64(cfg.Height)*72/float64(dpi)))
	if b.Dx() <= 0 || b.Dy() <= 0 {
		return nil, 0, false
	}
	exact, tess := resolution(cfg, true, b)
	if exact != float64(dpi) {
		return nil, 0, false // MuPDF resamples it
	}
	img, err = png.Decode(r)
	if err != nil {
		return nil, 0, false
	}
	return img, tess, true
}

// pngHeadLen is how much of a PNG file is searched for its pHYs chunk
// (which comes before the image data).
const pngHeadLen = 64 << 10

// pngDPI returns the resolution the pHYs chunk in the head of a PNG file
// declares, rounded to dots per inch, or 0 without one (or when its unit
// is not the metre: then it is only an aspect ratio).
func pngDPI(head []byte) int {
	d, _ := pngChunk(head, "pHYs")
	if len(d) != 9 || d[8] != 1 {
		return 0
	}
	return int(math.Round(float64(binary.BigEndian.Uint32(d)) * 0.0254))
}

// pngChunk returns the data of the first chunk of type typ before the
// image data in the head of a PNG file (nil when there is none); whole
// is false when the head ends before the image data (a chunk may then be
// past it).
func pngChunk(head []byte, typ string) (data []byte, whole bool) {
	const sig = 8
	for i := sig; i+8 <= len(head); {
		n := int(binary.BigEndian.Uint32(head[i:]))
		t := string(head[i+4 : i+8])
		if t == "IDAT" {
			return nil, true
		}
		if n < 0 || i+12+n > len(head) {
			return nil, false
		}
		if t == typ {
			return head[i+8 : i+8+n], true
		}
		i += 12 + n
	}
	return nil, false
}

// recognizeDecoded OCRs a one-frame image decoded in Go.
func recognizeDecoded(ctx context.Context, e *ocr.Engine, img goimage.Image, format Format, tessDPI int, opts document.Options, path string) (*document.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var grey []byte
	var w, h, stride int
	if g, ok := img.(*goimage.Gray); ok && g.Rect.Min == (goimage.Point{}) {
		grey, w, h, stride = g.Pix, g.Rect.Dx(), g.Rect.Dy(), g.Stride
	} else {
		grey, w, h = ocr.Gray(img)
		stride = w
	}
	if w == 0 || h == 0 {
		return nil, &document.Error{Kind: document.KindCorrupt, Msg: fmt.Sprintf("the %s image is empty", format.Type)}
	}
	res := &document.Result{
		Type:             format.Type,
		MIME:             format.MIME,
		Metadata:         document.Metadata{PageCount: 1},
		ExtractorVersion: version.With(ExtractorVersion, version.OCR),
	}
	r, err := e.RecognizeGray(grey, w, h, stride, tessDPI, opts)
	if err != nil {
		return nil, fmt.Errorf("image: %s: %w", path, err)
	}
	r.Page = 1
	addPage(res, r)
	return res, nil
}

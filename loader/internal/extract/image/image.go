// Package image extracts text from raster image files (PNG, JPEG, TIFF
// including multi-page, BMP, GIF) by OCR. It takes a file path and the
// extraction options and produces a *document.Result: one page per image
// frame (Method "ocr", mean word confidence, review reason), every OCR word
// with its box in image pixels, and one NarrativeText element per OCR
// paragraph with code point offsets into the page text.
//
// Decoding is done by MuPDF (through go-fitz, which opens images as
// documents and gives every TIFF frame as a page) at the image's own
// resolution, so no pixel is resampled; a PNG that MuPDF would render one
// to one is decoded by Go's image/png instead, to the same grey pixels at a
// tenth of the CPU (see decodePNG). Leptonica never sees the file bytes:
// in a binary that also links go-fitz, MuPDF's static libjpeg v9 replaces
// the system libjpeg-turbo leptonica was built for, and leptonica's JPEG
// decoding fails; handing Tesseract grey pixels avoids that entirely.
// Go's image packages read only the header (size) to pick the render
// resolution. HEIC/HEIF/AVIF and WebP files, which neither MuPDF nor Go's
// standard decoders read, are reported as undecodable.
package image

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	goimage "image"
	_ "image/gif"  // header decoding
	_ "image/jpeg" // header decoding
	_ "image/png"  // header decoding
	"io"
	"math"
	"os"

	_ "golang.org/x/image/bmp"  // header decoding
	_ "golang.org/x/image/tiff" // header decoding

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/ocr"
	"github.com/docket-dev/docket/loader/internal/extract/version"
)

// ExtractorVersion identifies this extractor's output in staging.pages
// (with version.OCR added when a frame was OCR'd).
const ExtractorVersion = version.Image

// Format is a sniffed image format.
type Format struct {
	Type string // "png", "jpeg", "tiff", "bmp", "gif", "heic", "webp" or ""
	MIME string
}

// Sniff names the image format from the first bytes of a file.
func Sniff(head []byte) Format {
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return Format{"png", "image/png"}
	case bytes.HasPrefix(head, []byte{0xff, 0xd8, 0xff}):
		return Format{"jpeg", "image/jpeg"}
	case bytes.HasPrefix(head, []byte("II*\x00")), bytes.HasPrefix(head, []byte("MM\x00*")):
		return Format{"tiff", "image/tiff"}
	case bytes.HasPrefix(head, []byte("BM")):
		return Format{"bmp", "image/bmp"}
	case bytes.HasPrefix(head, []byte("GIF87a")), bytes.HasPrefix(head, []byte("GIF89a")):
		return Format{"gif", "image/gif"}
	case len(head) >= 12 && string(head[0:4]) == "RIFF" && string(head[8:12]) == "WEBP":
		return Format{"webp", "image/webp"}
	case len(head) >= 12 && string(head[4:8]) == "ftyp":
		switch string(head[8:12]) {
		case "heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1":
			return Format{"heic", "image/heic"}
		case "avif", "avis":
			return Format{"heic", "image/avif"}
		}
	}
	return Format{}
}

// Extract OCRs every frame of the image at path with the process' shared
// OCR engine for opts.OCRLanguages.
func Extract(ctx context.Context, path string, opts document.Options) (*document.Result, error) {
	if !opts.OCR {
		return ExtractWith(ctx, nil, path, opts)
	}
	e, err := ocr.Shared(opts.OCRLanguages)
	if err != nil {
		return nil, err
	}
	return ExtractWith(ctx, e, path, opts)
}

// ExtractWith is Extract with an explicit engine. With a nil engine (or
// opts.OCR false) pages are returned with Method "none" and NeedsOCR set.
func ExtractWith(ctx context.Context, e *ocr.Engine, path string, opts document.Options) (*document.Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("image: %w", err)
	}
	head := make([]byte, 64)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if n == 0 {
		f.Close()
		return nil, &document.Error{Kind: document.KindEmpty, Msg: "the image file is empty"}
	}
	format := Sniff(head)
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("image: %s: %w", path, err)
	}
	cfg, _, cfgErr := goimage.DecodeConfig(f)
	f.Close()
	switch format.Type {
	case "heic":
		return nil, &document.Error{Kind: document.KindUndecodable, Msg: "HEIC images are not supported by the image decoder (MuPDF/Go); convert to PNG or JPEG"}
	case "webp":
		return nil, &document.Error{Kind: document.KindUndecodable, Msg: "WebP images are not supported by the image decoder (MuPDF/Go); convert to PNG or JPEG"}
	case "":
		return nil, &document.Error{Kind: document.KindUndecodable, Msg: "not an image format docket can decode (PNG, JPEG, TIFF, BMP, GIF)"}
	}
	// The header's size is checked before MuPDF decodes a pixel (a
	// 30000 x 30000 PNG of 1 MB took a worker to the 4 GB memory limit).
	if cfgErr == nil {
		if err := checkPixels(opts, cfg.Width, cfg.Height, 0); err != nil {
			return nil, err
		}
	}
	if format.Type == "png" && cfgErr == nil && e != nil && opts.OCR {
		// A PNG is one frame whose pixels Go decodes directly, in grey
		// when the file is grey (see decodePNG); a file Go cannot decode
		// goes to MuPDF, whose errors say what is wrong.
		if img, tessDPI, ok := decodePNG(path, cfg); ok {
			return recognizeDecoded(ctx, e, img, format, tessDPI, opts, path)
		}
	}
	doc, err := ocr.OpenFitz(path)
	if err != nil {
		var de *document.Error
		if errors.As(err, &de) {
			de.Msg = fmt.Sprintf("cannot decode the %s image: %s", format.Type, de.Msg)
		}
		return nil, err
	}
	defer doc.Close()
	pages := doc.NumPage()
	if pages <= 0 {
		return nil, &document.Error{Kind: document.KindCorrupt, Msg: fmt.Sprintf("the %s image is damaged or cut short: no picture in it can be decoded", format.Type)}
	}
	if opts.MaxPages > 0 && pages > opts.MaxPages {
		return nil, &document.Error{Kind: document.KindTooManyPage, Msg: fmt.Sprintf("%d frames, more than the limit of %d", pages, opts.MaxPages)}
	}
	res := &document.Result{
		Type:             format.Type,
		MIME:             format.MIME,
		Metadata:         document.Metadata{PageCount: pages},
		ExtractorVersion: ExtractorVersion,
	}
	for p := 1; p <= pages; p++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := doc.Bound(p - 1)
		if err != nil || b.Dx() <= 0 || b.Dy() <= 0 {
			return nil, &document.Error{Kind: document.KindCorrupt, Msg: fmt.Sprintf("the %s image is damaged or cut short: the size of its picture %d cannot be read", format.Type, p)}
		}
		renderDPI, tessDPI := resolution(cfg, cfgErr == nil && p == 1 || cfgErr == nil && sameSize(cfg, b, pages), b)
		if err := checkPixels(opts, int(float64(b.Dx())*renderDPI/72), int(float64(b.Dy())*renderDPI/72), p); err != nil {
			return nil, err
		}
		if e == nil || !opts.OCR {
			res.Pages = append(res.Pages, document.Page{Number: p, Width: float64(b.Dx()) * renderDPI / 72, Height: float64(b.Dy()) * renderDPI / 72, Method: document.MethodNone, NeedsOCR: true})
			continue
		}
		img, err := doc.ImageDPI(p-1, renderDPI)
		if err != nil {
			return nil, &document.Error{Kind: document.KindCorrupt, Msg: fmt.Sprintf("the %s image is damaged or cut short: its picture %d cannot be decoded (%v)", format.Type, p, err)}
		}
		grey, w, h := ocr.Gray(img)
		if w == 0 || h == 0 {
			return nil, &document.Error{Kind: document.KindCorrupt, Msg: fmt.Sprintf("frame %d of the %s image is empty", p, format.Type)}
		}
		res.ExtractorVersion = version.With(res.ExtractorVersion, version.OCR)
		r, err := e.RecognizeGray(grey, w, h, w, tessDPI, opts)
		if err != nil {
			return nil, fmt.Errorf("image: %s frame %d: %w", path, p, err)
		}
		r.Page = p
		addPage(res, r)
	}
	return res, nil
}

// sameSize reports whether frame bounds b match the first frame's header
// size at some resolution; multi-frame TIFFs usually share one.
func sameSize(cfg goimage.Config, b goimage.Rectangle, pages int) bool {
	return pages > 1 && cfg.Width > 0 && b.Dx() > 0 &&
		math.Abs(float64(cfg.Width)/float64(b.Dx())-float64(cfg.Height)/float64(b.Dy())) < 0.01
}

// resolution picks the DPI to render a frame at so that MuPDF reproduces
// its pixels one to one (MuPDF sizes an image page as pixels*72/xres), and
// the DPI to tell Tesseract. Resolutions of 72 and 96 are what encoders write
// when they know nothing, so Tesseract is left to estimate it from glyph
// sizes (0), as the tesseract CLI does for images without resolution.
func resolution(cfg goimage.Config, known bool, b goimage.Rectangle) (render float64, tess int) {
	if !known || cfg.Width <= 0 {
		return 72, 0 // one pixel per point is MuPDF's best guess too
	}
	exact := 72 * float64(cfg.Width) / float64(b.Dx())
	// MuPDF truncates the bound to whole points: prefer an integer
	// resolution that reproduces it, so the render is an identity scale.
	if r := math.Round(exact); r > 0 && int(float64(cfg.Width)*72/r) == b.Dx() {
		exact = r
	}
	tess = int(math.Round(exact))
	if tess == 72 || tess == 96 || tess < 70 || tess > 2400 {
		tess = 0
	}
	return exact, tess
}

// addPage appends one OCR'd page, its words and its paragraph elements.
func addPage(res *document.Result, r ocr.PageResult) {
	res.Pages = append(res.Pages, document.Page{
		Number:        r.Page,
		Width:         float64(r.Width),
		Height:        float64(r.Height),
		Text:          r.Text,
		Method:        document.MethodOCR,
		NeedsOCR:      true,
		OCRConfidence: r.MeanConfidence,
		ReviewReason:  r.ReviewReason,
	})
	for _, w := range r.Words {
		w.Page = r.Page
		res.Words = append(res.Words, w)
	}
	for _, p := range r.Paragraphs {
		res.Elements = append(res.Elements, document.Element{
			Page:      r.Page,
			Seq:       len(res.Elements),
			Category:  document.NarrativeText,
			Text:      p.Text,
			BBox:      p.BBox,
			CharStart: p.CharStart,
			CharEnd:   p.CharEnd,
			TableSeq:  -1,
		})
	}
}

// checkPixels quarantines an image (or frame) of more pixels than
// opts.MaxImagePixels as too_large.
func checkPixels(opts document.Options, w, h, frame int) error {
	if opts.MaxImagePixels <= 0 || int64(w)*int64(h) <= int64(opts.MaxImagePixels) {
		return nil
	}
	what := "the image"
	if frame > 0 {
		what = fmt.Sprintf("frame %d of the image", frame)
	}
	return document.Errorf(document.KindTooLarge, "%s is %d x %d pixels (%d million), over the %d million-pixel limit (loader.max_image_pixels)",
		what, w, h, int64(w)*int64(h)/1_000_000, opts.MaxImagePixels/1_000_000)
}

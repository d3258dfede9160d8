package ocr

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"sync"

	"github.com/gen2brain/go-fitz"

	"github.com/docket-dev/docket/loader/internal/document"
)

// DefaultDPI is the render resolution when opts.OCRDPI is unset.
const DefaultDPI = 300

// OCRPDFPages renders the given 1-based pages of a PDF (or any document
// MuPDF opens) at opts.OCRDPI in grey and recognises each with the process'
// shared engine for opts.OCRLanguages. pages == nil means every page.
// Pages smaller than a letter page are rendered at a higher resolution
// (see minLongSide); PageResult.DPI says which, so boxes convert
// to points as px*72/DPI.
func OCRPDFPages(ctx context.Context, path string, pages []int, opts document.Options) ([]PageResult, error) {
	e, err := Shared(opts.OCRLanguages)
	if err != nil {
		return nil, err
	}
	return e.OCRPDFPages(ctx, path, pages, opts)
}

// OCRPDFPages is the package function with an explicit engine.
func (e *Engine) OCRPDFPages(ctx context.Context, path string, pages []int, opts document.Options) ([]PageResult, error) {
	return e.OCRPDFPagesScan(ctx, path, pages, nil, opts)
}

// OCRPDFPagesScan is OCRPDFPages for pages whose scan resolution is known
// (scanDPI[page], see pdf.Layout.ScanDPI): those are rendered at it, so
// the embedded scan keeps its own pixels instead of being resampled, up
// to the pixels of a letter page at maxScanDPI.
func OCRPDFPagesScan(ctx context.Context, path string, pages []int, scanDPI map[int]int, opts document.Options) ([]PageResult, error) {
	e, err := Shared(opts.OCRLanguages)
	if err != nil {
		return nil, err
	}
	return e.OCRPDFPagesScan(ctx, path, pages, scanDPI, opts)
}

// maxScanDPI caps the rendering of a scan: a page renders to at most the
// pixels of a letter page's long side (11 in) at this resolution.
const maxScanDPI = 400

// OCRPDFPagesScan is the package function with an explicit engine.
func (e *Engine) OCRPDFPagesScan(ctx context.Context, path string, pages []int, scanDPI map[int]int, opts document.Options) ([]PageResult, error) {
	doc, err := OpenFitz(path)
	if err != nil {
		return nil, err
	}
	defer doc.Close()
	n := doc.NumPage()
	if pages == nil {
		for i := 1; i <= n; i++ {
			pages = append(pages, i)
		}
	}
	dpi := opts.OCRDPI
	if dpi <= 0 {
		dpi = DefaultDPI
	}
	out := make([]PageResult, 0, len(pages))
	for _, p := range pages {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		if p < 1 || p > n {
			return out, fmt.Errorf("ocr: %s: page %d out of range 1..%d", path, p, n)
		}
		pd := dpi
		b, berr := doc.Bound(p - 1)
		if berr == nil {
			pd = pageDPI(b.Dx(), b.Dy(), dpi)
		}
		tess := pd
		if pd != dpi {
			tess = 0 // see minLongSide: the page's inches are not the scan's
		}
		if sd := scanDPI[p]; sd > 0 && berr == nil {
			long := max(b.Dx(), b.Dy())
			pd = min(sd, maxScanDPI*minLongSide/max(long, 1))
			tess = 0
			if long >= minLongSide/2 && pd <= 2*maxScanDPI {
				tess = pd // real inches: tell Tesseract
			}
		}
		if berr == nil && opts.MaxImagePixels > 0 {
			// A page too large to render at pd within the pixel limit is
			// rendered at the resolution that fits (14400 pt square at
			// 300 dpi would be 3.6 billion pixels).
			if fit := fitDPI(b.Dx(), b.Dy(), opts.MaxImagePixels); pd > fit {
				pd, tess = fit, 0
			}
		}
		r, err := e.recognizeFitz(doc, p, pd, tess, opts)
		if err != nil {
			return out, fmt.Errorf("ocr: %s page %d: %w", path, p, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// minLongSide is the length, in points, that a page's longer side is
// rendered as at least: a letter page's 11 inches. Image-only PDFs are not
// always sized in real inches: scanned.pdf in the corpus puts a 2480x3508
// scan on a 143x202 pt page (1250 ppi), which at 300 dpi would keep a
// sixteenth of its pixels and lose most words. Pages smaller than a letter
// page are therefore rendered as if they were one (a 5x3 in page at 300
// dpi gets 660), at most at 4x the configured resolution.
const minLongSide = 792

// pageDPI picks the render resolution of a w×h pt page for configured dpi.
func pageDPI(w, h, dpi int) int {
	long := max(w, h)
	if long <= 0 || long >= minLongSide {
		return dpi
	}
	return min((dpi*minLongSide+long-1)/long, 4*dpi)
}

// RecognizeFitzPage renders 1-based page p of an open MuPDF document at dpi
// in grey and recognises it.
func (e *Engine) RecognizeFitzPage(doc *fitz.Document, p, dpi int, opts document.Options) (PageResult, error) {
	return e.recognizeFitz(doc, p, dpi, dpi, opts)
}

// recognizeFitz renders at dpi and tells Tesseract tessDPI (0: estimate).
func (e *Engine) recognizeFitz(doc *fitz.Document, p, dpi, tessDPI int, opts document.Options) (PageResult, error) {
	img, err := doc.ImageDPI(p-1, float64(dpi))
	if err != nil {
		return PageResult{}, &document.Error{Kind: document.KindCorrupt, Msg: fmt.Sprintf("MuPDF cannot render page %d: %v", p, err)}
	}
	grey, w, h := Gray(img)
	if w == 0 || h == 0 {
		return PageResult{}, &document.Error{Kind: document.KindCorrupt, Msg: fmt.Sprintf("page %d renders to an empty image", p)}
	}
	r, err := e.RecognizeGray(grey, w, h, w, tessDPI, opts)
	if err != nil {
		return r, err
	}
	r.Page, r.DPI = p, dpi
	r.WidthPt, r.HeightPt = float64(w)*72/float64(dpi), float64(h)*72/float64(dpi)
	for i := range r.Words {
		r.Words[i].Page = p
	}
	return r, nil
}

// OpenFitz opens a document with MuPDF, mapping failures to *document.Error.
func OpenFitz(path string) (*fitz.Document, error) {
	doc, err := fitz.New(path)
	switch {
	case err == nil:
		return doc, nil
	case errors.Is(err, fitz.ErrNeedsPassword):
		doc.Close()
		return nil, &document.Error{Kind: document.KindEncrypted, Msg: "the document needs a password"}
	case errors.Is(err, fitz.ErrNoSuchFile):
		return nil, fmt.Errorf("ocr: %s: %w", path, err)
	default:
		return nil, &document.Error{Kind: document.KindCorrupt, Msg: fmt.Sprintf("MuPDF cannot open the file: %v", err)}
	}
}

// Gray converts any image to 8-bit grey (stride == width), compositing
// transparency over white. Common types take a fast path.
func Gray(img image.Image) ([]byte, int, int) {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w <= 0 || h <= 0 {
		return nil, 0, 0
	}
	out := make([]byte, w*h)
	lum := func(r, g, bl uint32) uint32 { return (19595*r + 38470*g + 7471*bl + 1<<15) >> 16 }
	switch m := img.(type) {
	case *image.Gray:
		for y := 0; y < h; y++ {
			copy(out[y*w:(y+1)*w], m.Pix[(y+b.Min.Y-m.Rect.Min.Y)*m.Stride+(b.Min.X-m.Rect.Min.X):])
		}
	case *image.RGBA: // premultiplied: over white adds 255-a
		for y := 0; y < h; y++ {
			row := m.Pix[(y+b.Min.Y-m.Rect.Min.Y)*m.Stride+(b.Min.X-m.Rect.Min.X)*4:]
			for x := 0; x < w; x++ {
				p := row[x*4 : x*4+4]
				out[y*w+x] = uint8(min(lum(uint32(p[0]), uint32(p[1]), uint32(p[2]))+255-uint32(p[3]), 255))
			}
		}
	case *image.NRGBA: // premultiplied as MuPDF does (fz_mul255), then as RGBA
		mul := func(c, a uint32) uint32 { x := c*a + 128; return (x + x>>8) >> 8 }
		for y := 0; y < h; y++ {
			row := m.Pix[(y+b.Min.Y-m.Rect.Min.Y)*m.Stride+(b.Min.X-m.Rect.Min.X)*4:]
			for x := 0; x < w; x++ {
				p := row[x*4 : x*4+4]
				a := uint32(p[3])
				g := lum(mul(uint32(p[0]), a), mul(uint32(p[1]), a), mul(uint32(p[2]), a))
				out[y*w+x] = uint8(min(g+255-a, 255))
			}
		}
	case *image.Gray16: // the high byte, as the generic path below
		for y := 0; y < h; y++ {
			row := m.Pix[(y+b.Min.Y-m.Rect.Min.Y)*m.Stride+(b.Min.X-m.Rect.Min.X)*2:]
			for x := 0; x < w; x++ {
				out[y*w+x] = row[x*2]
			}
		}
	case *image.Paletted: // each palette entry converted once
		var lut [256]uint8
		for i, c := range m.Palette {
			lut[i] = grey(c)
		}
		for y := 0; y < h; y++ {
			row := m.Pix[(y+b.Min.Y-m.Rect.Min.Y)*m.Stride+(b.Min.X-m.Rect.Min.X):]
			for x := 0; x < w; x++ {
				out[y*w+x] = lut[row[x]]
			}
		}
	default:
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				out[y*w+x] = grey(img.At(b.Min.X+x, b.Min.Y+y))
			}
		}
	}
	return out, w, h
}

// grey is a colour's 8-bit grey over white.
func grey(c color.Color) uint8 {
	lum := func(r, g, bl uint32) uint32 { return (19595*r + 38470*g + 7471*bl + 1<<15) >> 16 }
	r, g, bl, a := c.RGBA() // premultiplied 16-bit
	return uint8(min(lum(r>>8, g>>8, bl>>8)+(0xffff-a)>>8, 255))
}

var shared struct {
	mu sync.Mutex
	e  *Engine
}

// Shared returns the process-wide engine for langs, creating it on first
// use and replacing it when the languages change. Worker processes use it
// so that Tesseract loads its models once per process, not per document.
func Shared(langs []string) (*Engine, error) {
	l, err := langString(langs)
	if err != nil {
		return nil, err
	}
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.e != nil && shared.e.langs == l {
		return shared.e, nil
	}
	if shared.e != nil {
		shared.e.Close()
		shared.e = nil
	}
	e, err := NewEngine(langs)
	if err != nil {
		return nil, err
	}
	shared.e = e
	return e, nil
}

// fitDPI is the highest resolution at which a w x h pt page renders to at
// most maxPixels pixels (at least 1).
func fitDPI(w, h, maxPixels int) int {
	if w <= 0 || h <= 0 {
		return 1
	}
	return max(int(72*math.Sqrt(float64(maxPixels)/(float64(w)*float64(h)))), 1)
}

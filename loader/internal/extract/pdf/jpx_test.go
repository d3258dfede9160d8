package pdf

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf/pdftest"
)

// jpxData is pdftest.ScanJP2 whole and spoilt after its main header (the
// first tile-part's SOT marker): cut short there (OpenJPEG cannot decode
// it: MuPDF's loader fails), zeroed from there (it decodes, with a
// warning), and bytes that are no JPEG 2000 at all.
func jpxData(t *testing.T) map[string][]byte {
	good := pdftest.ScanJP2
	sot := bytes.Index(good, []byte{0xff, 0x90})
	if sot < 0 {
		t.Fatal("no SOT marker in pdftest.ScanJP2")
	}
	zero := append([]byte(nil), good...)
	clear(zero[sot+200:])
	return map[string][]byte{
		"good":  good,
		"cut":   good[:sot+300],
		"zero":  zero,
		"noJPX": []byte("hello world, no JPEG 2000 at all"),
	}
}

// textPageJPX: a page of text with a JPEG 2000 picture above it.
func textPageJPX(data []byte) []byte {
	img := pdftest.JPX{Data: data, W: 1500, H: 600, X: 72, Y: 500, Width: 360, Height: 144}
	return pdftest.MakeJPX(612, 792, img, pdftest.Column(72, 300,
		"A page of text with a picture above it, long enough to keep its text layer",
		"and more words on a second line, so the page is not OCR'd at all."))
}

func extractFile(t *testing.T, pdfBytes []byte) *document.Result {
	t.Helper()
	f := pdftest.WriteBytes(t, "f.pdf", pdfBytes)
	res, err := Extractor{}.Extract(context.Background(), f, document.Options{MinCharsPerPage: DefaultMinCharsPerPage})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// A text page's JPEG 2000 image is not decoded (images.c): nothing on
// the page needs its pixels, so a codestream spoilt past its header says
// nothing (MuPDF's decode said "openjpeg error: ..." and flagged the page
// repaired, "text may be missing", for text that was read whole), and
// the image is an element where it stands, as a good one is.
func TestJPXOnTextPageNotDecoded(t *testing.T) {
	for name, data := range jpxData(t) {
		if name == "noJPX" {
			continue // not JPEG 2000: MuPDF's loader (see TestJPXAsDecoded)
		}
		res := extractFile(t, textPageJPX(data))
		for _, w := range res.Warnings {
			if strings.Contains(w, "openjpeg") || strings.Contains(w, "JPX") {
				t.Errorf("%s: warning %q: the image was decoded", name, w)
			}
		}
		if len(res.Reviews) != 0 {
			t.Errorf("%s: reviews %+v", name, res.Reviews)
		}
		var images []document.BBox
		for _, e := range res.Elements {
			if e.Category == document.ImageCat {
				images = append(images, e.BBox)
			}
		}
		want := document.BBox{X0: 72, Y0: 792 - 644, X1: 432, Y1: 792 - 500}
		if len(images) != 1 || images[0] != want {
			t.Errorf("%s: image elements at %v, want one at %v", name, images, want)
		}
		if len(res.Pages) != 1 || res.Pages[0].Method != document.MethodTextLayer || !strings.HasPrefix(res.Pages[0].Text, "A page of text") {
			t.Errorf("%s: pages %+v", name, res.Pages)
		}
	}
}

// Where a page's images decide what it becomes (it goes to OCR, or it has
// nothing but images), it is read as if its JPEG 2000 images were decoded
// when loaded, as MuPDF does: the same result, messages and all, whether
// the image is good, decodes with a warning, cannot be decoded (a lost
// page) or is no JPEG 2000 at all. On a text page the text, its elements
// and the page are the same; MuPDF's messages about the image, the
// reviews they raised and, for an image that cannot be decoded, its
// element (see TestJPXOnTextPageNotDecoded) are not.
func TestJPXAsDecoded(t *testing.T) {
	defer func() { decodeImages = false }()
	for name, data := range jpxData(t) {
		for _, tc := range []struct {
			page string
			pdf  []byte
		}{
			{"scan", pdftest.MakeJPX(360, 144, pdftest.JPX{Data: data, W: 1500, H: 600, Width: 360, Height: 144}, nil)},
			{"small image alone", pdftest.MakeJPX(612, 792, pdftest.JPX{Data: data, W: 1500, H: 600, X: 100, Y: 100, Width: 50, Height: 20}, nil)},
			{"text", textPageJPX(data)},
		} {
			decodeImages = false
			lazy := extractFile(t, tc.pdf)
			decodeImages = true
			decoded := extractFile(t, tc.pdf)
			if tc.page == "text" {
				textOnly(lazy)
				textOnly(decoded)
			}
			a, _ := json.Marshal(lazy)
			b, _ := json.Marshal(decoded)
			if !bytes.Equal(a, b) {
				t.Errorf("%s, %s page:\n%s\nread decoded:\n%s", name, tc.page, a, b)
			}
		}
	}
}

// A scan in JPEG 2000 goes to OCR at its own resolution, with nothing
// to say about the image.
func TestJPXScanNeedsOCR(t *testing.T) {
	res := extractFile(t, pdftest.MakeJPX(360, 144, pdftest.JPX{Data: pdftest.ScanJP2, W: 1500, H: 600, Width: 360, Height: 144}, nil))
	if len(res.Pages) != 1 || !res.Pages[0].NeedsOCR || res.Pages[0].ScanDPI != 300 || len(res.Warnings) != 0 || len(res.Reviews) != 0 {
		t.Errorf("pages %+v, warnings %q, reviews %+v", res.Pages, res.Warnings, res.Reviews)
	}
}

// textOnly leaves out of res MuPDF's messages, the reviews and the image
// elements (the others renumbered).
func textOnly(res *document.Result) {
	res.Warnings, res.Reviews = nil, nil
	for i := range res.Pages {
		res.Pages[i].ReviewReason = ""
	}
	var els []document.Element
	for _, e := range res.Elements {
		if e.Category != document.ImageCat {
			e.Seq = len(els)
			els = append(els, e)
		}
	}
	res.Elements = els
}

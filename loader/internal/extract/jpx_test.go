package extract

import (
	"context"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf/pdftest"
	"github.com/docket-dev/docket/loader/internal/worker"
)

// A scan stored as a JPEG 2000 image (JPXDecode), the page's only
// content, is OCR'd at the scan's own 300 dpi and reads as it says: the
// page walk leaves JPEG 2000 images undecoded where nothing needs their
// pixels, and this page needs them.
func TestJPXScanIsOCRd(t *testing.T) {
	img := pdftest.JPX{Data: pdftest.ScanJP2, W: 1500, H: 600, Width: 360, Height: 144}
	f := pdftest.WriteBytes(t, "scan.pdf", pdftest.MakeJPX(360, 144, img, nil))
	opts := document.Options{OCR: true, OCRLanguages: []string{"eng"}, OCRDPI: 150, OCRMinWordConf: 60, OCRReviewBelow: 60}
	res, err := Route(context.Background(), worker.Request{Path: f, Type: "pdf", Opts: opts})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pages) != 1 {
		t.Fatalf("%d pages", len(res.Pages))
	}
	p := res.Pages[0]
	if p.Method != document.MethodOCR || p.ScanDPI != 300 || p.Text != pdftest.ScanJP2Text || p.ReviewReason != "" {
		t.Errorf("page: method %q, scan dpi %d, review %q, text %q, want %q", p.Method, p.ScanDPI, p.ReviewReason, p.Text, pdftest.ScanJP2Text)
	}
}

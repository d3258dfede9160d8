package extract

import (
	"context"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
	"github.com/docket-dev/docket/loader/internal/extract/pdf/pdftest"
	"github.com/docket-dev/docket/loader/internal/extract/version"
	"github.com/docket-dev/docket/loader/internal/worker"
)

// A PDF's recorded version names the OCR engine's only when pages were
// OCR'd, so that a change to OCR redoes the OCR'd PDFs and no others; both
// are current versions (the loader would extract them again otherwise).
func TestPDFVersionNamesOCROnlyWhenUsed(t *testing.T) {
	if version.MuPDF != "mupdf/"+pdf.MuPDFVersion {
		t.Errorf("version.MuPDF %q, the PDF reader is built against MuPDF %s", version.MuPDF, pdf.MuPDFVersion)
	}
	ocrOpts := document.Options{OCR: true, OCRLanguages: []string{"eng"}, OCRDPI: 150, OCRMinWordConf: 60, OCRReviewBelow: 60}
	text := pdftest.Write(t, []pdftest.Page{{Items: pdftest.Column(72, 72, "A page with a text layer of its own,", "so nothing on it is OCR'd at all.")}})
	scan := pdftest.Write(t, []pdftest.Page{{Image: true}}) // a page-size image, no text layer
	for _, tc := range []struct {
		name, path string
		opts       document.Options
		want       string
	}{
		{"text layer", text, ocrOpts, version.Join(version.PDF, version.MuPDF)},
		{"scan, OCR off", scan, document.Options{}, version.Join(version.PDF, version.MuPDF)},
		{"scan, OCR on", scan, ocrOpts, version.Join(version.PDF, version.MuPDF, version.OCR)},
	} {
		res, err := Route(context.Background(), worker.Request{Path: tc.path, Type: "pdf", Opts: tc.opts})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if res.ExtractorVersion != tc.want || !version.Current(res.ExtractorVersion) {
			t.Errorf("%s: version %q, want %q (current %v)", tc.name, res.ExtractorVersion, tc.want, version.Current(res.ExtractorVersion))
		}
	}
}

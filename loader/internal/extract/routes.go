package extract

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/archive"
	"github.com/docket-dev/docket/loader/internal/extract/email"
	"github.com/docket-dev/docket/loader/internal/extract/html"
	"github.com/docket-dev/docket/loader/internal/extract/image"
	"github.com/docket-dev/docket/loader/internal/extract/ocr"
	"github.com/docket-dev/docket/loader/internal/extract/office"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
	"github.com/docket-dev/docket/loader/internal/extract/pdf/table"
	"github.com/docket-dev/docket/loader/internal/extract/text"
	"github.com/docket-dev/docket/loader/internal/extract/version"
	"github.com/docket-dev/docket/loader/internal/worker"
)

func init() {
	routes["pdf"] = extractPDF
	for _, t := range []string{"png", "jpeg", "tiff", "bmp", "gif", "webp", "heic"} {
		routes[t] = func(ctx context.Context, r worker.Request) (*document.Result, error) {
			return image.Extract(ctx, r.Path, r.Opts)
		}
	}
	routes["docx"] = pathFunc(office.ExtractDOCX)
	routes["pptx"] = pathFunc(office.ExtractPPTX)
	routes["xlsx"] = pathFunc(office.ExtractXLSX)
	routes["odt"] = pathFunc(office.ExtractODT)
	// An ODP's slides are pages of the ODT reader's (draw:page), grouped
	// shapes and speaker notes with them; it was "no extractor for type
	// odp" though the reader read it (office/10).
	routes[detect.ODP] = func(ctx context.Context, r worker.Request) (*document.Result, error) {
		res, err := office.ExtractODT(ctx, r.Path, r.Opts)
		if res != nil {
			res.Type = detect.ODP
		}
		return res, err
	}
	// An ODS's sheets are pages, as an XLSX's (office/11: it was
	// quarantined unsupported_type).
	routes[detect.ODS] = pathFunc(office.ExtractODS)
	// An ODG's pages and a standalone ODC chart (office/15: both landed
	// as zip archives, their XML members as child documents).
	routes[detect.ODG] = pathFunc(office.ExtractODG)
	routes[detect.ODC] = pathFunc(office.ExtractODC)
	routes["epub"] = pathFunc(office.ExtractEPUB)
	routes["eml"] = extractMail
	for _, t := range []string{detect.Zip, detect.Tar, detect.TarGz, detect.Gzip, detect.TarBz2, detect.Bzip2, detect.TarXz, detect.Xz} {
		routes[t] = func(ctx context.Context, r worker.Request) (*document.Result, error) {
			return archive.ExtractNamed(ctx, r.Path, r.Name, r.Type, r.Opts)
		}
	}
	for _, t := range []string{"text", "markdown", "rst", "org", "json", "ndjson", "xml", detect.WebVTT, detect.SRT, detect.LaTeX, detect.ICalendar} {
		routes[t] = extractText
	}
	routes["html"] = func(ctx context.Context, r worker.Request) (*document.Result, error) {
		return html.Extract(ctx, r.Path, info(r), r.Opts)
	}
	routes["csv"] = func(ctx context.Context, r worker.Request) (*document.Result, error) {
		return office.ExtractCSV(ctx, r.Path, ',', r.Opts)
	}
	routes["tsv"] = func(ctx context.Context, r worker.Request) (*document.Result, error) {
		return office.ExtractCSV(ctx, r.Path, '\t', r.Opts)
	}
}

// extractMail reads a message; a file routed so by its name that starts
// with a line of text (email.NotMessage) lands as plain text with a
// warning saying so, its version the text reader's and the e-mail
// reader's that judged it (email/7; it lost its first line, or was
// quarantined corrupt).
func extractMail(ctx context.Context, r worker.Request) (*document.Result, error) {
	res, err := email.Extract(ctx, r.Path, r.Opts)
	var nm *email.NotMessage
	if !errors.As(err, &nm) {
		return res, err
	}
	res, err = text.Extract(ctx, r.Path, detect.Info{Type: detect.Text, MIME: "text/plain", Encoding: r.Encoding}, r.Opts)
	if err != nil {
		return nil, err
	}
	res.Warnings = append(res.Warnings, nm.Error()+": landed as plain text")
	res.ExtractorVersion = version.With(res.ExtractorVersion, version.Email)
	return res, nil
}

func pathFunc(f func(context.Context, string, document.Options) (*document.Result, error)) Func {
	return func(ctx context.Context, r worker.Request) (*document.Result, error) { return f(ctx, r.Path, r.Opts) }
}

// extractPDF reads the text layer page by page and OCRs exactly the pages
// that have no usable one.
func extractPDF(ctx context.Context, r worker.Request) (*document.Result, error) {
	res, err := pdf.Extractor{Tables: tableDetector}.Extract(ctx, r.Path, r.Opts)
	if err != nil {
		return nil, err
	}
	if !r.Opts.OCR {
		return res, nil
	}
	var need []int
	scan := map[int]int{}
	for _, p := range res.Pages {
		if p.NeedsOCR {
			need = append(need, p.Number)
			if p.ScanDPI > 0 {
				scan[p.Number] = p.ScanDPI
			}
		}
	}
	if len(need) == 0 {
		return res, nil
	}
	ocrPages, err := ocr.OCRPDFPagesScan(ctx, r.Path, need, scan, r.Opts)
	if err != nil {
		res.Warnings = append(res.Warnings, fmt.Sprintf("OCR failed: %v", err))
		return res, nil
	}
	MergeOCR(res, ocrPages)
	if len(ocrPages) > 0 {
		res.ExtractorVersion = version.With(res.ExtractorVersion, version.OCR)
	}
	return res, nil
}

// tableDetector finds tables on text-layer PDF pages (nil: none).
var tableDetector pdf.TableDetector = table.New()

// MergeOCR fills the OCR'd pages of res: page text, method, confidence,
// review reason, words, and one NarrativeText element per OCR paragraph,
// keeping elements in reading order.
func MergeOCR(res *document.Result, pages []ocr.PageResult) {
	byNum := map[int]ocr.PageResult{}
	for _, p := range pages {
		byNum[p.Page] = p
	}
	for i := range res.Pages {
		pg := &res.Pages[i]
		o, ok := byNum[pg.Number]
		if !ok {
			continue
		}
		pg.Text = o.Text
		pg.Method = document.MethodOCR
		pg.OCRConfidence = o.MeanConfidence
		pg.ReviewReason = o.ReviewReason
		if len(o.Words) == 0 && pg.ReviewReason == "" {
			pg.ReviewReason = "ocr_found_no_text"
		}
		// OCR boxes are in rendered pixels; PDF pages are in points.
		scale := 1.0
		if o.DPI > 0 {
			scale = 72 / float64(o.DPI)
		}
		for _, w := range o.Words {
			w.Page = pg.Number
			w.BBox = scaleBox(w.BBox, scale)
			res.Words = append(res.Words, w)
		}
		for _, para := range o.Paragraphs {
			res.Elements = append(res.Elements, document.Element{Page: pg.Number, Seq: 1 << 30, Category: document.NarrativeText,
				Text: para.Text, BBox: scaleBox(para.BBox, scale), CharStart: para.CharStart, CharEnd: para.CharEnd, TableSeq: -1})
		}
	}
	sort.SliceStable(res.Elements, func(a, b int) bool {
		ea, eb := res.Elements[a], res.Elements[b]
		if ea.Page != eb.Page {
			return ea.Page < eb.Page
		}
		return ea.Seq < eb.Seq
	})
	for i := range res.Elements {
		res.Elements[i].Seq = i
	}
}

func info(r worker.Request) detect.Info {
	return detect.Info{Type: r.Type, MIME: r.MIME, Encoding: r.Encoding}
}

func extractText(ctx context.Context, r worker.Request) (*document.Result, error) {
	return text.Extract(ctx, r.Path, info(r), r.Opts)
}

func scaleBox(b document.BBox, f float64) document.BBox {
	return document.BBox{X0: b.X0 * f, Y0: b.Y0 * f, X1: b.X1 * f, Y1: b.Y1 * f}
}

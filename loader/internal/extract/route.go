// Package extract routes a detected document to the cheapest extractor that
// works and returns the shared element model. It runs inside worker
// processes (see package worker); the loader never calls it directly.
package extract

import (
	"context"
	"fmt"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/version"
	"github.com/docket-dev/docket/loader/internal/worker"
)

// Func extracts one document.
type Func func(ctx context.Context, req worker.Request) (*document.Result, error)

var routes = map[string]Func{}

// unsupported explains types docket knows but cannot extract.
var unsupported = map[string]string{
	"doc":             "legacy Word 97-2003 (.doc) files are not supported; save as .docx or PDF",
	"xls":             "legacy Excel 97-2003 (.xls) files are not supported; save as .xlsx or CSV",
	"ppt":             "legacy PowerPoint 97-2003 (.ppt) files are not supported; save as .pptx or PDF",
	"msg":             "Outlook .msg files are not supported; export the message as .eml",
	"ole":             "this OLE2 compound file is of no known kind",
	"audio":           "audio files carry no text docket can extract (no speech recognition)",
	"video":           "video files carry no text docket can extract",
	"unknown":         "the file type could not be recognised from its bytes",
	"rtf":             "RTF files are not supported yet; save as .docx or PDF",
	"ooxml_encrypted": "", // handled as encrypted below
}

// Route extracts req with the extractor registered for its type.
func Route(ctx context.Context, req worker.Request) (*document.Result, error) {
	if req.Type == "ooxml_encrypted" {
		return nil, document.Errorf(document.KindEncrypted, "the document is password-protected (encrypted Office file); remove the password and load it again")
	}
	fn, ok := routes[req.Type]
	if !ok {
		msg := unsupported[req.Type]
		if msg == "" {
			msg = fmt.Sprintf("no extractor for type %q yet", req.Type)
		}
		return nil, &document.Error{Kind: document.KindUnsupported, Msg: msg}
	}
	res, err := fn(ctx, req)
	if err != nil {
		return nil, err
	}
	if res.Type == "" {
		res.Type = req.Type
	}
	if res.ExtractorVersion == "" {
		res.ExtractorVersion = version.Router
	}
	if req.Opts.MaxPages > 0 && len(res.Pages) > req.Opts.MaxPages {
		return nil, document.Errorf(document.KindTooManyPage, "the document has %d pages, over the %d-page limit (loader.max_pages)", len(res.Pages), req.Opts.MaxPages)
	}
	// Before the result crosses to the loader (it was written and tested
	// but not called here until `make hostile` landed a 384 MB page).
	LimitText(res, req.Opts.MaxPageChars, req.Opts.MaxDocChars)
	document.Check(res)
	return res, nil
}

// Supported reports whether a type has an extractor.
func Supported(typ string) bool { _, ok := routes[typ]; return ok }

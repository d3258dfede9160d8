package office

import (
	"archive/zip"
	"context"
	"errors"
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/xuri/excelize/v2"
)

// DefaultMaxSheetRows bounds the rows kept per sheet when
// Options.MaxSheetRows is 0.
const DefaultMaxSheetRows = 10000

func maxRows(opts document.Options) int {
	if opts.MaxSheetRows > 0 {
		return opts.MaxSheetRows
	}
	return DefaultMaxSheetRows
}

// ExtractXLSX reads a workbook with excelize's streaming row iterator: one
// page per sheet in workbook order, one table per sheet (header = first
// non-empty row, cells as formatted by the workbook's number formats),
// page text = the rows as tab-separated lines. Rows beyond
// Options.MaxSheetRows (default 10000) are dropped with a warning. A
// password-protected workbook is quarantined as encrypted; an empty one
// gives empty pages.
func ExtractXLSX(ctx context.Context, p string, opts document.Options) (*document.Result, error) {
	if err := sniffOLE(p, "XLSX"); err != nil {
		return nil, err
	}
	f, err := excelize.OpenFile(p, excelize.Options{UnzipXMLSizeLimit: 16 << 20})
	if err != nil {
		switch {
		case errors.Is(err, excelize.ErrWorkbookPassword):
			return nil, document.Errorf(document.KindEncrypted, "the workbook is password-protected")
		case errors.Is(err, zip.ErrFormat), errors.Is(err, excelize.ErrWorkbookFileFormat):
			return nil, document.Errorf(document.KindCorrupt, "not a readable XLSX workbook: %v", err)
		}
		if f == nil {
			return nil, document.Errorf(document.KindCorrupt, "cannot open the workbook: %v", err)
		}
	}
	defer f.Close()

	b := newBuilder("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
	if dp, err := f.GetDocProps(); err == nil && dp != nil {
		md := &b.res.Metadata
		md.Title = strings.TrimSpace(dp.Title)
		md.Author = strings.TrimSpace(dp.Creator)
		md.Created = normDate(dp.Created)
		md.Modified = normDate(dp.Modified)
		md.Language = strings.TrimSpace(dp.Language)
		setExtra(md, "subject", dp.Subject)
		setExtra(md, "keywords", dp.Keywords)
	}
	limit := maxRows(opts)
	sheets := f.GetSheetList()
	if opts.MaxPages > 0 && len(sheets) > opts.MaxPages {
		return nil, document.Errorf(document.KindTooManyPage, "%d sheets, more than the limit of %d", len(sheets), opts.MaxPages)
	}
	var names []string
	for i, sheet := range sheets {
		if i > 0 {
			b.newUnit()
		}
		names = append(names, sheet)
		rows, err := readSheet(ctx, f, sheet, limit, b)
		if err != nil {
			if ce := ctxErr(ctx); ce != nil {
				return nil, ce
			}
			b.warn("sheet %q: %v", sheet, err)
		}
		b.section = sheet
		b.addTableRows(rows)
	}
	if len(sheets) > 0 {
		setExtra(&b.res.Metadata, "sheets", strings.Join(names, "\t"))
	}
	return b.finish(), nil
}

// readSheet streams one sheet's rows (up to limit non-empty rows).
func readSheet(ctx context.Context, f *excelize.File, sheet string, limit int, b *builder) ([][]string, error) {
	it, err := f.Rows(sheet)
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var out [][]string
	n := 0
	for it.Next() {
		n++
		if n%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return out, err
			}
		}
		cols, err := it.Columns()
		if err != nil {
			return out, err
		}
		empty := true
		for _, c := range cols {
			if strings.TrimSpace(c) != "" {
				empty = false
				break
			}
		}
		if empty {
			continue
		}
		if len(out) >= limit {
			b.warn("sheet %q: more than %d rows, the rest were dropped", sheet, limit)
			break
		}
		out = append(out, cols)
	}
	return out, it.Error()
}

package office

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
)

// ExtractODS reads an OpenDocument spreadsheet as ExtractXLSX reads a
// workbook: one page per sheet (a table:table of office:spreadsheet) in
// order, each element's Section the sheet's name, one table per sheet
// (header = first non-empty row, each cell's text as the file shows it),
// the sheet's cell comments (office:annotation) after its table on its
// page, Section "comments"; rows past Options.MaxSheetRows are dropped
// with a warning and a truncated review; metadata "sheets" lists the
// sheet names. Before office/11 an ODS was quarantined unsupported_type
// (the ODT reader read its cells, but as one page without sheet names).
func ExtractODS(ctx context.Context, p string, opts document.Options) (*document.Result, error) {
	return extractODF(ctx, p, odfSheets, opts)
}

var odfSheets = odfKind{typ: "ods", name: "ODS", mime: "application/vnd.oasis.opendocument.spreadsheet", sheets: true}

// odsSheets turns the ODF walk's tables into sheets.
type odsSheets struct {
	b     *builder
	notes *[]odfNote  // the walk's notes so far: the open sheet's comments
	objs  *odfObjects // the open sheet's charts
	limit int         // rows kept per sheet
	names []string
	// the open sheet's hidden rows and columns with text (odfTables.HidRows),
	// and every sheet's as metadata says them
	hidRows, hidCols       []span
	hiddenRows, hiddenCols []string
}

// newODSSheets makes w's outermost tables sheets of b.
func newODSSheets(b *builder, w *odfWalker, notes *[]odfNote, objs *odfObjects, limit int) *odsSheets {
	s := &odsSheets{b: b, notes: notes, objs: objs, limit: limit}
	w.onSheet = s.start
	w.onTable = s.table
	// A row LibreOffice writes once with number-rows-repeated (the same
	// values on consecutive rows) counts as that many rows; a sheet holds
	// one row past the limit at most, so that the limit's review is
	// raised and no file can make it hold more.
	w.rowCap = limit + 1
	w.onHidden = func(rows, cols []span) { s.hidRows, s.hidCols = rows, cols }
	return s
}

// start opens a sheet's page.
func (s *odsSheets) start(name string) {
	if len(s.names) > 0 {
		s.b.newUnit()
	}
	s.names = append(s.names, name)
	s.b.section = name
}

// table adds the sheet's rows (up to the limit), its charts and its
// comments.
func (s *odsSheets) table(rows [][]string) {
	sheet := ""
	if len(s.names) > 0 {
		sheet = s.names[len(s.names)-1]
	}
	var kept [][]string
	for _, r := range rows {
		if !slices.ContainsFunc(r, func(c string) bool { return strings.TrimSpace(c) != "" }) {
			continue
		}
		if len(kept) == s.limit {
			sheetTruncated(s.b, sheet, s.limit)
			break
		}
		kept = append(kept, r)
	}
	sayHidden(s.b, "LibreOffice does not show them; a filter hides rows so too", fmt.Sprintf("sheet %q", sheet), sheet, s.hidRows, s.hidCols, &s.hiddenRows, &s.hiddenCols)
	s.hidRows, s.hidCols = nil, nil
	s.b.addTableRows(kept)
	s.objs.flush()
	addODFNotes(s.b, *s.notes)
	*s.notes = nil
}

// finish records the sheet names.
func (s *odsSheets) finish() {
	if len(s.names) > 0 {
		setExtra(&s.b.res.Metadata, "sheets", strings.Join(s.names, "\t"))
	}
	setExtra(&s.b.res.Metadata, "hidden_rows", strings.Join(s.hiddenRows, "\t"))
	setExtra(&s.b.res.Metadata, "hidden_columns", strings.Join(s.hiddenCols, "\t"))
}

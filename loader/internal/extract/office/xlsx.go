package office

import (
	"archive/zip"
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

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

	b := newBuilderFor("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", opts)
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
	b.chartRows = limit
	sheets := f.GetSheetList()
	if opts.MaxPages > 0 && len(sheets) > opts.MaxPages {
		return nil, document.Errorf(document.KindTooManyPage, "%d sheets, more than the limit of %d", len(sheets), opts.MaxPages)
	}
	sheetParts, states, ix, closeZip := xlsxSheetParts(p)
	defer closeZip()
	calc, err := planCalc(ctx, f, ix, sheets, sheetParts)
	if err != nil {
		return nil, err
	}
	var names, hidden, hiddenRows, hiddenCols []string
	for i, sheet := range sheets {
		if i > 0 {
			b.newUnit()
		}
		names = append(names, sheet)
		switch states[sheet] {
		case "hidden":
			hidden = append(hidden, sheet)
			b.warn("sheet %q is hidden in the workbook: its cells landed as the others' (metadata hidden_sheets)", sheet)
		case "veryHidden":
			hidden = append(hidden, sheet)
			b.warn("sheet %q is very hidden in the workbook (Excel's menus do not show it; a macro or the VBA editor does): its cells landed as the others' (metadata hidden_sheets)", sheet)
		}
		calc[sheet].say(b, sheet)
		rows, rowNums, err := readSheet(ctx, f, sheet, limit, b, calc[sheet])
		if err != nil {
			if ce := ctxErr(ctx); ce != nil {
				return nil, ce
			}
			b.warn("sheet %q: %v", sheet, err)
		}
		b.section = sheet
		hRows, hCols, err := hiddenRowsCols(ix, sheetParts[sheet])
		if err != nil {
			b.warn("sheet %q: hidden rows and columns not read: %v", sheet, err)
		}
		rs, cs := hiddenLanded(rows, rowNums, hRows, hCols)
		sayHidden(b, "Excel does not show them; a filter hides rows so too", fmt.Sprintf("sheet %q", sheet), sheet, rs, cs, &hiddenRows, &hiddenCols)
		b.addTableSpans(rows, xlsxSpans(ix, sheetParts[sheet], rowNums, b, sheet))
		if part, ok := sheetParts[sheet]; ok {
			if err := emitCharts(ctx, b, ix, part, cellRange(f)); err != nil {
				return nil, err
			}
		}
		emitXLSXComments(b, f, sheet)
	}
	if len(sheets) > 0 {
		setExtra(&b.res.Metadata, "sheets", strings.Join(names, "\t"))
	}
	if len(hidden) > 0 {
		setExtra(&b.res.Metadata, "hidden_sheets", strings.Join(hidden, "\t"))
	}
	if len(hiddenRows) > 0 {
		setExtra(&b.res.Metadata, "hidden_rows", strings.Join(hiddenRows, "\t"))
	}
	if len(hiddenCols) > 0 {
		setExtra(&b.res.Metadata, "hidden_columns", strings.Join(hiddenCols, "\t"))
	}
	return b.finish(), nil
}

// emitXLSXComments adds the sheet's cell comments (notes), in the order
// of their cells (row by row), one NarrativeText each, Section "comments"
// as a DOCX's or ODT's comments (docxNoteParts): after the sheet's table
// and charts, on the sheet's page, without the author. Before office/8
// they were never read: excelize's Book1.xlsx landed every cell but its
// A22 comment "Hyperlink test", with no warning. A comments part that
// cannot be read is a warning.
func emitXLSXComments(b *builder, f *excelize.File, sheet string) {
	cmts, err := f.GetComments(sheet)
	if err != nil {
		b.warn("sheet %q: comments: %v", sheet, err)
		return
	}
	type at struct{ row, col int }
	pos := func(ref string) at {
		c, r, err := excelize.CellNameToCoordinates(ref)
		if err != nil {
			return at{1 << 30, 0}
		}
		return at{r, c}
	}
	slices.SortStableFunc(cmts, func(a, c excelize.Comment) int {
		pa, pc := pos(a.Cell), pos(c.Cell)
		return cmp.Or(cmp.Compare(pa.row, pc.row), cmp.Compare(pa.col, pc.col))
	})
	for _, c := range cmts {
		text := c.Text // a plain comment's; a rich one's is in its runs
		for _, r := range c.Paragraph {
			text += r.Text
		}
		if k := b.add(document.NarrativeText, text, 0); k >= 0 {
			b.res.Elements[k].Section = "comments"
		}
	}
}

// sheetTruncated says that a sheet's rows past limit were dropped.
func sheetTruncated(b *builder, sheet string, limit int) {
	b.warn("sheet %q: more than %d rows, the rest were dropped", sheet, limit)
	b.res.Flag(0, document.ReviewTruncated, "sheet %q has more than %d rows (loader.max_sheet_rows): only its first %d are in the warehouse, the rest of its rows were not read", sheet, limit, limit)
}

// readSheet streams one sheet's rows (up to limit non-empty rows), and
// returns each one's row number in the sheet (the iterator steps through
// every row number, gaps included). calc's values fill the formula cells
// saved without one (planCalc).
func readSheet(ctx context.Context, f *excelize.File, sheet string, limit int, b *builder, calc *sheetCalc) ([][]string, []int, error) {
	it, err := f.Rows(sheet)
	if err != nil {
		return nil, nil, err
	}
	defer it.Close()
	var out [][]string
	var nums []int
	n := 0
	room := b.room() // excelize copies a shared string into every cell naming it: rows past the document's room are not read
	for it.Next() {
		n++
		if n%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return out, nums, err
			}
		}
		cols, err := it.Columns()
		if err != nil {
			return out, nums, err
		}
		cols = calc.fill(n, cols)
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
			sheetTruncated(b, sheet, limit)
			break
		}
		for i, c := range cols {
			if room -= utf8.RuneCountInString(c) + 1; room < 0 { // characters, as docChars counts them (bytes cut a CJK sheet at a third: review46)
				cols = cols[:i+1] // one row may name a long string in each of 16,384 columns
				break
			}
		}
		out = append(out, cols)
		nums = append(nums, n)
		if room < 0 {
			b.stop() // the rows after it are not read
			break
		}
	}
	return out, nums, it.Error()
}

// xlsxSpans are the sheet's merged cells (its part's <mergeCells>, read
// by sheetMerges) as spans of the rows readSheet read (rowNums: their row
// numbers, ascending): a merge whose first row was not read (empty, or
// past the row limit) is left out, and one's height counts the rows read
// inside it. Before office/19 they were not recorded: "Sales" over two
// year columns was a head with an empty one beside it. (excelize's
// GetMergeCells unmarshals the whole worksheet and checks every pair of
// merges for overlap: 19 s and 1.1 GB on a 100k-row sheet, 70 s for 50k
// merges; review42.)
func xlsxSpans(ix *zipIndex, part string, rowNums []int, b *builder, sheet string) []document.CellSpan {
	if ix == nil || part == "" || len(rowNums) == 0 {
		return nil
	}
	refs, err := sheetMerges(ix, part)
	if err != nil {
		b.warn("sheet %q: merged cells not read: %v", sheet, err)
	}
	var out []document.CellSpan
	for _, ref := range refs {
		from, to, _ := strings.Cut(ref, ":")
		if to == "" {
			continue
		}
		c0, r0, err0 := excelize.CellNameToCoordinates(from)
		c1, r1, err1 := excelize.CellNameToCoordinates(to)
		if err0 != nil || err1 != nil || c1 < c0 || r1 < r0 {
			continue
		}
		i := sort.SearchInts(rowNums, r0)
		if i == len(rowNums) || rowNums[i] != r0 {
			continue
		}
		n := sort.SearchInts(rowNums, r1+1) - i
		out = append(out, document.CellSpan{Row: i, Col: c0 - 1, Rows: n, Cols: c1 - c0 + 1})
	}
	slices.SortFunc(out, func(a, b document.CellSpan) int { return cmp.Or(cmp.Compare(a.Row, b.Row), cmp.Compare(a.Col, b.Col)) })
	return out
}

// maxMerges bounds the merged cells read from one sheet.
const maxMerges = 100000

// sheetMerges streams a worksheet part for its <mergeCells> (after the
// sheet's rows): the bytes are searched, not parsed, up to the element,
// whose mergeCell refs alone go through the XML decoder. A sheet without
// merges costs an inflate and a byte search.
func sheetMerges(ix *zipIndex, part string) ([]string, error) {
	key := []byte("mergeCells")
	var refs []string
	// a key cut by a chunk's end, with its prefix and "<"
	_, err := searchPart(ix, part, 48, func(buf []byte) int { return mergeCellsTag(buf, key) },
		func(from io.Reader) (err error) {
			refs, err = mergeRefs(from)
			return err
		})
	return refs, err
}

// searchPart streams a part in 64 KiB chunks, each searched by find
// together with the last overlap bytes of the chunk before it (a key cut
// by a chunk's end), and on find's first match (an offset in the bytes it
// was given) calls found, when not nil, with the part from the match on.
// It says whether there was a match. sheetMerges and mayLackValues share
// it: each had its own copy of this loop.
func searchPart(ix *zipIndex, part string, overlap int, find func(buf []byte) int, found func(from io.Reader) error) (bool, error) {
	rc, err := ix.open(part)
	if err != nil {
		return false, err
	}
	defer rc.Close()
	r := bufio.NewReaderSize(rc, 64<<10)
	buf := make([]byte, 0, 64<<10+overlap)
	carry := make([]byte, 0, overlap)
	for {
		chunk, err := r.Peek(64 << 10)
		if len(chunk) == 0 {
			if err == io.EOF {
				return false, nil
			}
			return false, err
		}
		buf = append(append(buf[:0], carry...), chunk...)
		if at := find(buf); at >= 0 {
			if found == nil {
				return true, nil
			}
			rest := buf[at:]
			if _, err := r.Discard(len(chunk)); err != nil {
				return true, err
			}
			return true, found(io.MultiReader(bytes.NewReader(rest), r))
		}
		carry = append(carry[:0], buf[max(0, len(buf)-overlap):]...)
		if _, err := r.Discard(len(chunk)); err != nil {
			return false, err
		}
	}
}

// mergeCellsTag finds the start tag of key ("<mergeCells" or
// "<x:mergeCells", then a space, ">" or "/") in buf and returns the
// offset of its "<", or -1. The bytes alone matched before office/26: a
// cell's inline string or formula text holding "mergeCells" (as POI's
// SXSSF and XlsxWriter's constant_memory write strings inline) made the
// decoder start mid-row and fail, and the sheet's merges were lost. A
// match at buf's end is left to the next chunk (sheetMerges carries the
// last bytes over).
func mergeCellsTag(buf, key []byte) int {
	for from := 0; ; {
		k := bytes.Index(buf[from:], key)
		if k < 0 {
			return -1
		}
		k += from
		from = k + 1
		end := k + len(key)
		if end >= len(buf) || !strings.ContainsRune(" \t\r\n>/", rune(buf[end])) {
			continue
		}
		lt := bytes.LastIndexByte(buf[:k], '<')
		if lt < 0 || k-lt > 32 {
			continue
		}
		if prefix := buf[lt+1 : k]; len(prefix) > 0 && (prefix[len(prefix)-1] != ':' || bytes.ContainsAny(prefix, " \t\r\n\"'<>/=")) {
			continue
		}
		return lt
	}
}

// mergeRefs decodes <mergeCell ref="A1:B2"/> elements up to the end of
// their <mergeCells>, at most maxMerges of them.
func mergeRefs(r io.Reader) ([]string, error) {
	d := newDecoder(r)
	var refs []string
	for {
		tok, err := d.Token()
		if err != nil {
			if err == io.EOF {
				return refs, nil
			}
			return refs, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if t.Name.Local == "mergeCell" {
				if len(refs) == maxMerges {
					return refs, fmt.Errorf("more than %d merged cells: the rest were not recorded", maxMerges)
				}
				refs = append(refs, attrVal(t, "ref"))
			}
		case xml.EndElement:
			if t.Name.Local == "mergeCells" {
				return refs, nil
			}
		}
	}
}

// xlsxSheetParts maps sheet names to their parts (xl/workbook.xml and its
// relationships), for the charts their drawings show, and to their state
// ("hidden", "veryHidden"; none when visible). Nothing is returned when
// the package cannot be read that way (excelize already read it).
func xlsxSheetParts(p string) (map[string]string, map[string]string, *zipIndex, func()) {
	zr, err := zip.OpenReader(p)
	if err != nil {
		return nil, nil, nil, func() {}
	}
	ix := newZipIndex(&zr.Reader)
	out, states := map[string]string{}, map[string]string{}
	wb := "xl/workbook.xml"
	for _, r := range readRels(ix, "_rels/.rels", "") {
		if strings.HasSuffix(r.Type, "/officeDocument") && !r.External {
			wb = r.Target
		}
	}
	data, err := ix.readAll(wb)
	if err != nil {
		return out, states, ix, func() { zr.Close() }
	}
	var doc struct {
		Sheets []struct {
			Name  string `xml:"name,attr"`
			State string `xml:"state,attr"`
			RID   string `xml:"http://schemas.openxmlformats.org/officeDocument/2006/relationships id,attr"`
		} `xml:"sheets>sheet"`
	}
	if newDecoder(bytes.NewReader(data)).Decode(&doc) == nil {
		rels := readRels(ix, relsPathFor(wb), path.Dir(wb))
		for _, s := range doc.Sheets {
			if r, ok := rels[s.RID]; ok && !r.External {
				out[s.Name] = r.Target
			}
			if s.State == "hidden" || s.State == "veryHidden" {
				states[s.Name] = s.State
			}
		}
	}
	return out, states, ix, func() { zr.Close() }
}

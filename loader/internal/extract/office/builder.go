// Package office extracts the office and packaged-text formats docket lands
// natively: DOCX, PPTX, XLSX, ODT, EPUB and CSV/TSV. Each extractor takes a
// file path and document.Options and returns a *document.Result in the shared
// element model (typed elements with code point offsets into the page text,
// tables as rows, metadata). Bad files come back as *document.Error with a
// Kind a person understands (corrupt, encrypted, empty…). Nothing here
// prints.
package office

import (
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/version"
)

// ExtractorVersion is stamped on every Result of this package.
const ExtractorVersion = version.Office

// pageSep joins element texts into a page's Text.
const pageSep = "\n\n"

// builder accumulates elements page by page and keeps the page text and the
// code point offsets in step. Every extractor in this package goes through it,
// so the offset contract (page text = element texts joined by "\n\n") holds by
// construction.
type builder struct {
	res       *document.Result
	page      int // current page number, 1-based
	text      strings.Builder
	runes     int
	n         int // elements on the current page
	section   string
	flushed   bool
	pageBreak bool // a break is pending: the next element opens a new page if this one has content
	// docxHidden counts a DOCX's hidden text across its parts (nil for
	// the other formats)
	docxHidden *docxHidden
	// charts (emitCharts): the chart parts landed, the cells their data
	// took of maxChartCells, the rows a chart's table holds (0: the
	// default loader.max_sheet_rows)
	chartSeen  map[string]bool
	chartCells int
	chartRows  int
	// maxChars is loader.max_doc_chars (0: none) and docChars the
	// characters added so far on every page: past maxChars nothing more is
	// added (overDoc), so a small file whose cells repeat one long string
	// builds no more text than can land (review45: one 32,000-character
	// shared string named by 20,000 cells built 640M characters, 5.1 GB,
	// before extract.LimitText cut it to max_doc_chars).
	maxChars, docChars int
	overDoc            bool
}

func newBuilder(typ, mime string) *builder {
	return &builder{
		res:  &document.Result{Type: typ, MIME: mime, ExtractorVersion: ExtractorVersion},
		page: 1,
	}
}

// newBuilderFor is newBuilder bounded by opts.MaxDocChars.
func newBuilderFor(typ, mime string, opts document.Options) *builder {
	b := newBuilder(typ, mime)
	b.maxChars = opts.MaxDocChars
	return b
}

// full says whether the document's text has reached loader.max_doc_chars
// (stop flags it the first time).
func (b *builder) full() bool {
	if b.maxChars <= 0 || b.docChars < b.maxChars {
		return false
	}
	b.stop()
	return true
}

// room is how many more characters the document's text can take.
func (b *builder) room() int {
	if b.maxChars <= 0 {
		return int(^uint(0) >> 1)
	}
	return b.maxChars - b.docChars
}

// stop flags the document truncated at loader.max_doc_chars, once, as
// extract.LimitText flags a document it cuts.
func (b *builder) stop() {
	if !b.overDoc {
		b.overDoc = true
		b.res.Flag(0, document.ReviewTruncated, "the document's text is over %d characters (loader.max_doc_chars): it was cut there, on page %d, and the rest was not read", b.maxChars, b.page)
	}
}

// add appends one element to the current page. Empty texts are skipped.
// It returns the element's index in res.Elements, or -1 when skipped.
//
// The text lands in NFC, as HTML's (html/22) and the text formats' (text/5):
// a document written decomposed ("a" + U+0308 for "ä") landed its text as
// written, which a typed word did not match. Every element of this
// package's formats goes through here (EPUB's through the HTML walker, a
// mark in an element of its own included: it is one block's text by now).
func (b *builder) add(cat document.Category, text string, level int) int {
	return b.addTable(cat, text, level, -1)
}

func (b *builder) addTable(cat document.Category, text string, level, tableSeq int) int {
	text = document.Composed(text)
	if cat == document.TableCat {
		// keep leading/trailing tabs: they place cells in columns
		text = strings.ToValidUTF8(strings.ReplaceAll(text, "\x00", ""), "\uFFFD")
		if strings.TrimSpace(text) == "" {
			return -1
		}
	} else if text = cleanText(text); text == "" {
		return -1
	}
	if b.full() {
		return -1
	}
	if b.pageBreak {
		b.pageBreak = false
		if b.n > 0 {
			b.newPage()
		}
	}
	switch cat {
	case document.NarrativeText:
		if bulletRe.MatchString(text) {
			cat, level = document.ListItem, 1
		}
	case document.Header, document.Footer:
		if pageNumRe.MatchString(text) {
			cat = document.PageNumber
		}
	case document.Title:
		b.section = text
	}
	if b.n > 0 {
		b.text.WriteString(pageSep)
		b.runes += 2
	}
	start := b.runes
	b.text.WriteString(text)
	b.runes += utf8.RuneCountInString(text)
	b.docChars += b.runes - start + 2
	b.n++
	b.res.Elements = append(b.res.Elements, document.Element{
		Page:      b.page,
		Seq:       len(b.res.Elements),
		Category:  cat,
		Text:      text,
		CharStart: start,
		CharEnd:   b.runes,
		Level:     level,
		Section:   b.section,
		TableSeq:  tableSeq,
	})
	return len(b.res.Elements) - 1
}

// addTableRows stores a table (header = first row) and adds its Table
// element (cells tab-joined, one line per row) on the current page. It
// returns the element's index in res.Elements, or -1 when there is none
// (no row left, or no text).
func (b *builder) addTableRows(rows [][]string) int {
	return b.addTableSpans(rows, nil)
}

// addTableSpans is addTableRows for a table with merged cells: spans
// index rows as given (header first) and land re-indexed to the rows
// trimTable keeps, as the PDF tables record theirs: the text at (Row,
// Col), the positions covered empty.
func (b *builder) addTableSpans(rows [][]string, spans []document.CellSpan) int {
	rows, kept := trimTableKept(rows)
	if len(rows) == 0 || b.full() {
		return -1
	}
	cut := false
	if room := b.room(); b.maxChars > 0 { // the rows the document's text can still take, and the one crossing its end
		for i, r := range rows {
			for _, c := range r {
				room -= utf8.RuneCountInString(c) + 1 // characters, as docChars counts them
			}
			if room < 0 {
				rows, kept, cut = rows[:i+1], kept[:i+1], i+1 < len(rows)
				break
			}
		}
	}
	spans = blankCovered(rows, keptSpans(spans, kept, len(rows[0])))
	var lines []string
	for _, r := range rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = flatCell(c)
		}
		lines = append(lines, strings.Join(cells, "\t"))
	}
	text := strings.Join(lines, "\n")
	seq := len(b.res.Tables)
	// add first so that a pending page break moves the table too
	idx := b.addTable(document.TableCat, text, 0, seq)
	if idx < 0 {
		return -1
	}
	if cut {
		b.stop()
	}
	b.res.Tables = append(b.res.Tables, document.Table{
		Page:   b.page,
		Seq:    seq,
		Header: rows[0],
		Rows:   rows[1:],
		Spans:  spans,
	})
	return idx
}

// breakPage asks for a new page before the next element (consecutive breaks
// collapse, a break on an empty page does nothing).
func (b *builder) breakPage() { b.pageBreak = true }

// newPage closes the current page unconditionally (empty pages are kept:
// used for slides and sheets, where a page is a unit of the source).
func (b *builder) newPage() {
	b.flushPage()
	b.page++
	b.flushed = false
	b.pageBreak = false
	b.text.Reset()
	b.runes = 0
	b.n = 0
}

// newUnit closes the current page and opens the next one as a new unit
// (slide, sheet, chapter): the section starts afresh.
func (b *builder) newUnit() {
	b.newPage()
	b.section = ""
}

func (b *builder) flushPage() {
	if b.flushed {
		return
	}
	b.res.Pages = append(b.res.Pages, document.Page{
		Number:    b.page,
		Text:      b.text.String(),
		Method:    document.MethodNative,
		CharCount: document.RealChars(b.text.String()),
	})
	b.flushed = true
}

// finish closes the last page and returns the result, its metadata in NFC
// as the text is (addTable).
func (b *builder) finish() *document.Result {
	if b.maxChars > 0 && b.docChars > b.maxChars {
		b.stop()
	}
	b.flushPage()
	b.res.Metadata.Compose()
	b.res.Metadata.PageCount = len(b.res.Pages)
	return b.res
}

func (b *builder) warn(format string, args ...any) {
	b.res.Warnings = append(b.res.Warnings, sprintf(format, args...))
}

// cleanText normalises an element text: trims, drops NULs and turns "\r\n"
// and lone "\r" into "\n", and squeezes runs of blank lines so that an
// element never contains the page separator.
func cleanText(s string) string {
	if strings.ContainsAny(s, "\r\x00") {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		s = strings.ReplaceAll(s, "\r", "\n")
		s = strings.ReplaceAll(s, "\x00", "")
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	lines := strings.Split(s, "\n")
	out := lines[:0]
	for _, l := range lines {
		l = strings.TrimRight(l, " \t\u00a0")
		if strings.TrimSpace(l) == "" {
			continue
		}
		out = append(out, l)
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}

// flatCell makes a cell text fit on one tab-separated line.
func flatCell(s string) string {
	s = strings.Map(func(r rune) rune {
		switch r {
		case '\n', '\r', '\t':
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// trimTable drops empty rows and trailing empty columns, puts the cells in
// NFC (addTable) and pads rows to the same width.
func trimTable(rows [][]string) [][]string {
	out, _ := trimTableKept(rows)
	return out
}

// trimTableKept is trimTable that also returns, for each row kept, its
// index in rows.
func trimTableKept(rows [][]string) ([][]string, []int) {
	var out [][]string
	var kept []int
	width := 0
	for k, r := range rows {
		last := -1
		for i, c := range r {
			if strings.TrimSpace(c) != "" {
				last = i
			}
		}
		if last < 0 {
			continue
		}
		r = r[:last+1]
		for i := range r {
			r[i] = document.Composed(strings.TrimSpace(r[i]))
		}
		if len(r) > width {
			width = len(r)
		}
		out = append(out, r)
		kept = append(kept, k)
	}
	for i, r := range out {
		for len(r) < width {
			r = append(r, "")
		}
		out[i] = r
	}
	return out, kept
}

// blankCovered empties the positions the spans cover, as in the PDF
// tables (text a file keeps under a merge its program does not show),
// and returns the spans. A span overlapping one before it (no program
// writes them; a hand-made file may) is dropped, and the spans' positions
// are visited up to four times the table's size in all.
func blankCovered(rows [][]string, spans []document.CellSpan) []document.CellSpan {
	if len(spans) == 0 {
		return nil
	}
	width := len(rows[0])
	taken := make([]bool, len(rows)*width)
	budget := 4 * len(taken) // positions visited, overlaps' undoing included
	out := spans[:0]
next:
	for _, sp := range spans {
		if budget -= 2 * sp.Rows * sp.Cols; budget < 0 {
			break // hand-made overlaps past any table's size: the rest are dropped
		}
		for r := sp.Row; r < sp.Row+sp.Rows; r++ {
			for c := sp.Col; c < sp.Col+sp.Cols; c++ {
				if taken[r*width+c] {
					// undo this span's marks: it overlaps an earlier one
					for r2 := sp.Row; r2 <= r; r2++ {
						for c2 := sp.Col; c2 < sp.Col+sp.Cols && (r2 < r || c2 < c); c2++ {
							taken[r2*width+c2] = false
						}
					}
					continue next
				}
				taken[r*width+c] = true
			}
		}
		for r := sp.Row; r < sp.Row+sp.Rows; r++ {
			for c := sp.Col; c < sp.Col+sp.Cols; c++ {
				if r != sp.Row || c != sp.Col {
					rows[r][c] = ""
				}
			}
		}
		out = append(out, sp)
	}
	return out
}

// keptSpans re-indexes spans (rows as the format gave them) to the rows
// trimTableKept kept (kept: ascending), a span's height counting its kept
// rows only and its width cut at the table's; a span left covering one
// position, or whose first row or column is gone, is dropped. A span's
// declared size is never walked (a PPTX rowSpan of 2e9; review42).
func keptSpans(spans []document.CellSpan, kept []int, width int) []document.CellSpan {
	if len(spans) == 0 || len(kept) == 0 {
		return nil
	}
	var out []document.CellSpan
	for _, s := range spans {
		row := sort.SearchInts(kept, s.Row)
		if row == len(kept) || kept[row] != s.Row || s.Col < 0 || s.Col >= width || s.Rows < 1 || s.Cols < 1 {
			continue
		}
		end := kept[len(kept)-1] + 1
		if s.Rows < end-s.Row {
			end = s.Row + s.Rows
		}
		n := sort.SearchInts(kept, end) - row
		cols := min(s.Cols, width-s.Col)
		if n*cols > 1 {
			out = append(out, document.CellSpan{Row: row, Col: s.Col, Rows: n, Cols: cols})
		}
	}
	return out
}

// bulletRe matches a paragraph typed with a bullet character instead of a
// list style; pageNumRe a header/footer that is only a page number.
var (
	bulletRe  = regexp.MustCompile(`^[•◦▪▫●○■□‣⁃∙·\-\*–]\s+\S`)
	pageNumRe = regexp.MustCompile(`(?i)^(page\s*)?\d{1,5}(\s*(of|/)\s*\d{1,5})?$`)
)

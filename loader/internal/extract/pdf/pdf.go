// Package pdf extracts the text layer of PDFs (and other formats MuPDF
// opens) with MuPDF's structured-text API. It takes a file path and
// document.Options and produces a document.Result: one Page per PDF page
// with its text in reading order (columns left to right), typed Elements
// (Title, NarrativeText, ListItem, Header, Footer, PageNumber, Caption,
// Image, Table when a TableDetector is plugged in) with boxes and code
// point offsets into the page text, and metadata. Pages whose text layer
// is missing or mostly unmapped glyphs come back with NeedsOCR set and no
// text, for the OCR stage to fill.
//
// Lower level, Open/Doc.Page return each page's blocks and lines, and at
// Detail Words or Chars its words or characters, with boxes, fonts and
// sizes (Layout), for table detection and OCR routing; Doc.PageWith also
// returns the page's straight vector
// paths (rules, boxes) and the boxes of curved ones (charts). Table
// detection itself is the plug-in package pdf/table.
//
// MuPDF comes from github.com/gen2brain/go-fitz's static libraries; the C
// walk (walk.c) does one call per page and returns flat arrays.
package pdf

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/version"
)

// ExtractorVersion goes into staging.pages.extractor_version (with
// version.OCR added when pages were OCR'd); bump version.PDF when the
// output for the same file changes.
const ExtractorVersion = version.PDF + "+" + version.MuPDF

// DefaultMinCharsPerPage is used when Options.MinCharsPerPage is 0.
const DefaultMinCharsPerPage = 16

// MaxBadCharRatio: a page whose U+FFFD share is above this ("mostly
// unmapped glyphs") needs OCR. At 0.30 two corpus pages of Chinese text
// that MuPDF maps at 70 % were OCR'd with the configured (English) model,
// which read nothing useful; their text layer is the better text.
const MaxBadCharRatio = 0.50

// TableDetector finds tables on a page. Extract hands it the page layout
// (with characters) and the boxes of the paragraphs it found; each table
// returned (BBox, Header, Rows filled; Page and Seq are set by Extract)
// replaces the paragraphs whose centre lies inside its box with one Table
// element.
type TableDetector interface {
	DetectTables(lay *Layout) []document.Table
}

// Extractor holds optional plug-ins; the zero value is ready to use.
type Extractor struct {
	Tables TableDetector
}

// Extract reads path with the zero Extractor.
func Extract(ctx context.Context, path string, opts document.Options) (*document.Result, error) {
	return Extractor{}.Extract(ctx, path, opts)
}

// Extract reads the PDF at path. Failures a person should see are
// *document.Error (encrypted, corrupt, empty, too_many_pages); a cancelled
// ctx returns ctx's error wrapped.
func (e Extractor) Extract(ctx context.Context, path string, opts document.Options) (*document.Result, error) {
	doc, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer doc.Close()
	return e.extract(ctx, doc, path, opts)
}

// ExtractBytes is Extract for a document held in memory.
func (e Extractor) ExtractBytes(ctx context.Context, data []byte, name string, opts document.Options) (*document.Result, error) {
	if name == "" {
		name = "application/pdf"
	}
	doc, err := OpenBytes(data, name)
	if err != nil {
		return nil, err
	}
	defer doc.Close()
	return e.extract(ctx, doc, name, opts)
}

func (e Extractor) extract(ctx context.Context, doc *Doc, path string, opts document.Options) (*document.Result, error) {
	doc.MaxTokens = opts.MaxPageTokens
	n := doc.NumPages()
	if opts.MaxPages > 0 && n > opts.MaxPages {
		return nil, document.Errorf(document.KindTooManyPage, "the PDF has %d pages, more than the limit of %d (loader.max_pages)", n, opts.MaxPages)
	}
	minChars := opts.MinCharsPerPage
	if minChars <= 0 {
		minChars = DefaultMinCharsPerPage
	}
	res := &document.Result{
		Type:             "pdf",
		MIME:             "application/pdf",
		Metadata:         doc.Metadata(),
		ExtractorVersion: ExtractorVersion,
	}
	res.Metadata.Compose() // a title macOS wrote decomposed, as the text (assemble)
	if doc.rebuilt > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("MuPDF found no page (the file's list of pages is lost): docket listed the %d page objects found in the file", doc.rebuilt))
	}
	opening := doc.Warnings() // MuPDF's messages while opening the file
	res.Warnings = append(res.Warnings, opening...)
	var emptyPages []int         // with no error of their own (see pageTreeTrouble below)
	damage := map[int]pageHarm{} // pages MuPDF read past damage in (see pageDamage)
	pages := make([]*pageData, 0, n)
	// Each page's Layout is done with (paragraphs and tables made, its
	// words dropped from them) before the next page is read.
	doc.reusePages()
	detail := Lines
	if e.Tables != nil {
		detail = Words
	}
	for i := 1; i <= n; i++ {
		if err := checkCtx(ctx); err != nil {
			return nil, err
		}
		lay, err := doc.page(i, detail, e.Tables != nil, decodeImages)
		ws := doc.Warnings()
		if err == nil && lay.LazyImages > 0 && imagesDecide(lay, minChars) {
			// The page's JPEG 2000 images were not decoded (images.c)
			// and they decide what the page becomes: read it again with
			// them decoded, so one that cannot be decoded counts as it
			// always did (no block, MuPDF's message). The first reading's
			// messages stay (a font is loaded once a document), the
			// second's new ones are added.
			lay, err = doc.PageDecoded(i, detail, e.Tables != nil)
			ws = appendNew(ws, doc.Warnings())
		}
		pg := &pageData{num: i}
		if lay != nil {
			pg.width, pg.height = lay.Width, lay.Height
		}
		res.Warnings = append(res.Warnings, ws...)
		if err != nil {
			// MuPDF cannot interpret the page; rendering it for OCR
			// would fail the same way.
			res.Warnings = append(res.Warnings, err.Error())
			pg.unreadable = err.Error()
			pages = append(pages, pg)
			continue
		}
		if h := pageDamage(ws); h != (pageHarm{}) {
			damage[i] = h
		}
		if len(lay.Blocks) == 0 {
			// An empty page whose loading raised errors is a page MuPDF
			// lost (an object missing from a damaged file), not a blank one.
			pg.unreadable = firstError(ws)
			if pg.unreadable == "" {
				emptyPages = append(emptyPages, i)
			}
		}
		pg.real, pg.bad, pg.clipHidden = lay.RealChars, lay.BadChars, lay.ClipHidden
		pg.needsOCR = NeedsOCR(lay.RealChars, lay.BadChars, minChars, lay.ImageCover())
		if pg.needsOCR {
			pg.scanDPI = lay.ScanDPI()
		}
		if !pg.needsOCR {
			pg.paras = pageParas(lay)
			if e.Tables != nil {
				pg.tables = e.Tables.DetectTables(lay)
				// The page's words were for the detector; the paragraphs
				// are kept for the whole document and need only the lines.
				for _, p := range pg.paras {
					for i := range p.lines {
						p.lines[i].Words, p.lines[i].Chars = nil, nil
					}
				}
			}
		}
		pages = append(pages, pg)
	}
	if len(res.Warnings) == 0 {
		res.Warnings = nil
	}
	assemble(pages, res)
	linkContinued(res)
	for _, pg := range pages {
		if pg.unreadable != "" {
			res.Flag(pg.num, document.ReviewPageUnreadable, "page %d could not be read and is landed empty (MuPDF: %s)", pg.num, pg.unreadable)
		}
	}
	// An empty page MuPDF loaded without a word, from a page tree it could
	// not load as written (a damaged page object becomes an empty page of
	// MuPDF's own): it may be a lost page. Not after a mere xref repair: a
	// blank page of such a file is as blank as any.
	if why := pageTreeTrouble(res.Warnings); why != "" {
		for _, num := range emptyPages {
			res.Flag(num, document.ReviewPageUnreadable, "page %d is empty in a damaged file whose page tree MuPDF could not load as written (MuPDF: %s): its content may be lost", num, why)
		}
	}
	rep := docRepairs(res.Warnings)
	rep.rebuilt, rep.loose = doc.rebuilt, doc.rebuiltLoose
	rep.opening = openingDamage(opening)
	declared, treeCount := 0, 0
	if troubled(res.Warnings) || rep.any() {
		declared, treeCount, rep.unread = checkDeclared(doc, res)
	}
	if rep.rebuilt > 0 && treeCount == 0 {
		declared = -1 // the count was in the lost tree
	}
	flagRepairs(res, rep, damage, declared)
	return res, nil
}

// checkDeclared compares MuPDF's page count with the count the damaged
// file declares (see declaredPages) and flags the document when pages
// are missing; Metadata.PageCount becomes the declared count. It returns
// the declared count and the page tree's /Count (0 when they cannot be
// read). unread says why a file opened by path could not be read again
// for the check ("" when it was read).
func checkDeclared(doc *Doc, res *document.Result) (declared, count int, unread string) {
	var objects int
	if raw := doc.raw(); raw != nil {
		count, objects = declaredPages(raw)
	} else if doc.declared != nil {
		count, objects = doc.declared[0], doc.declared[1]
	} else if doc.path != "" {
		var err error
		if count, objects, err = declaredPagesFile(doc.path, scanChunk); err != nil {
			return 0, 0, err.Error()
		}
	}
	declared = max(count, objects)
	if declared <= len(res.Pages) {
		return declared, count, ""
	}
	res.Metadata.PageCount = declared
	res.Flag(0, document.ReviewPagesMissing, "the file is damaged (MuPDF had to repair it or could not load its page tree as written): it declares %d pages (page tree count %d, %d page objects) but only %d could be read; the missing pages are not in the warehouse",
		declared, count, objects, len(res.Pages))
	return declared, count, ""
}

// firstError is the first of MuPDF's messages that reports an error.
func firstError(ws []string) string {
	for _, w := range ws {
		if strings.HasPrefix(w, "error: ") {
			return strings.TrimPrefix(w, "error: ")
		}
	}
	for _, w := range ws {
		if strings.HasPrefix(w, "cannot ") {
			return w
		}
	}
	return ""
}

// decodeImages makes every page walk decode its JPEG 2000 images, as
// MuPDF loads them (tests compare both ways).
var decodeImages = false

// imagesDecide: whether a page read with undecoded images could become
// something else had they been decoded, when one that cannot be decoded
// loses its block: when it goes to OCR (fewer image blocks give less
// cover, never more, so a page kept off OCR stays off; an OCR'd page's
// largest image sets the render's resolution, ScanDPI) or when it has
// nothing but images (without them it would be an empty page).
func imagesDecide(lay *Layout, minChars int) bool {
	if NeedsOCR(lay.RealChars, lay.BadChars, minChars, lay.ImageCover()) {
		return true
	}
	for _, b := range lay.Blocks {
		if !b.Image {
			return false
		}
	}
	return true
}

// appendNew appends to ws the messages of more it does not hold.
func appendNew(ws, more []string) []string {
	for _, w := range more {
		if !slices.Contains(ws, w) {
			ws = append(ws, w)
		}
	}
	return ws
}

// NeedsOCR is the routing rule. A page needs OCR when most of its glyphs
// have no Unicode mapping, or when it has too few real characters and its
// content is pictures: images over most of the page, or no text at all
// beside an image. A born-digital page with little text and no big picture
// (a blank page, a chapter number) keeps its text layer: OCR would find
// nothing more.
func NeedsOCR(real, bad, minChars int, imageCover float64) bool {
	if bad > 0 && float64(bad) > MaxBadCharRatio*float64(real+bad) {
		return true
	}
	if real >= minChars {
		return false
	}
	return imageCover >= 0.8 || (real == 0 && imageCover >= 0.05)
}

// assemble classifies paragraphs, orders them and builds pages and
// elements with offsets.
func assemble(pages []*pageData, res *document.Result) {
	markFurniture(pages)
	st := computeStats(pages)
	for _, pg := range pages {
		applyTables(pg, res)
		for _, p := range pg.paras {
			classify(p, pg, &st)
		}
		listLevels(pg)
	}
	titleLevels(pages)
	// One element per paragraph: the document's elements are allocated
	// once (grown by append they were copied ~log2(n) times, ~7 % of a
	// PDF worker's allocated bytes).
	nparas := 0
	for _, pg := range pages {
		if !pg.needsOCR {
			nparas += len(pg.paras)
		}
	}
	res.Elements = slices.Grow(res.Elements, nparas)
	res.Pages = slices.Grow(res.Pages, len(pages))
	section := ""
	seq := 0
	for _, pg := range pages {
		page := document.Page{Number: pg.num, Width: pg.width, Height: pg.height, CharCount: pg.real, UnmappedChars: pg.bad, ClippedChars: pg.clipHidden}
		if pg.needsOCR {
			page.NeedsOCR, page.ScanDPI = true, pg.scanDPI
			page.Method = document.MethodNone
			res.Pages = append(res.Pages, page)
			continue
		}
		page.Method = document.MethodTextLayer
		var top, body, bot []*para
		for _, p := range pg.paras {
			switch {
			case p.furnTop:
				top = append(top, p)
			case p.furnBot:
				bot = append(bot, p)
			default:
				body = append(body, p)
			}
		}
		byPos := func(ps []*para) []*para {
			if len(ps) < 2 {
				return ps
			}
			return cut(ps, false)
		}
		ordered := append(append(byPos(top), readingOrder(body)...), byPos(bot)...)
		var sb strings.Builder
		off := 0
		for _, p := range ordered {
			// The text lands in NFC, as the other formats' (office/9,
			// html/22, text/5): a producer that draws "a" and a combining
			// U+0308 (a decomposed string set in a Unicode font) landed
			// them as two characters, which a typed "ä" did not match.
			// The page's real characters lose the marks composed away.
			text := document.Composed(p.text)
			if text != p.text {
				page.CharCount -= document.RealChars(p.text) - document.RealChars(text)
			}
			el := document.Element{
				Page: pg.num, Seq: seq, Category: p.cat, Text: text, BBox: p.bbox,
				Level: p.level, TableSeq: p.tableSeq,
			}
			if p.cat == document.Title {
				section = text
			}
			el.Section = section
			if text != "" {
				if sb.Len() > 0 {
					sb.WriteString("\n\n")
					off += 2
				}
				el.CharStart = off
				sb.WriteString(text)
				off += utf8.RuneCountInString(text)
			} else {
				el.CharStart = off
			}
			el.CharEnd = off
			seq++
			res.Elements = append(res.Elements, el)
		}
		page.Text = sb.String()
		res.Pages = append(res.Pages, page)
	}
}

// applyTables replaces the paragraphs inside each detected table by one
// Table paragraph.
func applyTables(pg *pageData, res *document.Result) {
	for _, t := range pg.tables {
		t.Page = pg.num
		t.Seq = len(res.Tables)
		res.Tables = append(res.Tables, t)
		tp := &para{bbox: t.BBox, cat: document.TableCat, tableSeq: t.Seq, seq: -1}
		in := func(b document.BBox) bool {
			cx, cy := (b.X0+b.X1)/2, (b.Y0+b.Y1)/2
			return cx >= t.BBox.X0 && cx <= t.BBox.X1 && cy >= t.BBox.Y0 && cy <= t.BBox.Y1
		}
		// the words of the page furniture inside the table's box
		var furn map[string]bool
		for _, p := range pg.paras {
			if (p.furnTop || p.furnBot) && in(p.bbox) {
				if furn == nil {
					furn = map[string]bool{}
				}
				for _, w := range strings.Fields(p.text) {
					furn[w] = true
				}
			}
		}
		kept := pg.paras[:0]
		for _, p := range pg.paras {
			// page furniture stays, unless a row of the table holds its
			// text beside words that are no furniture: a long table's
			// first and last rows, in the margins, repeat their dates and
			// counts at the same place on every page (a Header
			// "09/18/2015 07/21/2015", a PageNumber "56" beside a
			// company's name), and its column heads too. A row all of
			// furniture (a page's footer a table took in) and a page
			// number that says so ("PAGE 1") stay furniture.
			furniture := (p.furnTop || p.furnBot) && !(furn != nil && in(p.bbox) && !pageWord(p) && rowHolds(t, p.text, furn))
			if furniture || p.cat == document.TableCat {
				kept = append(kept, p)
				continue
			}
			if in(p.bbox) {
				if tp.seq < 0 || p.seq < tp.seq {
					tp.seq = p.seq
				}
				continue
			}
			// A paragraph straddling the box (a caption MuPDF grouped
			// with the first header cell) keeps only its lines outside.
			if !p.image && len(p.lines) > 1 {
				var out []Line
				for _, l := range p.lines {
					if !in(l.BBox) {
						out = append(out, l)
					}
				}
				if len(out) == 0 {
					continue
				}
				if len(out) < len(p.lines) {
					p = newPara(out, p.seq)
				}
			}
			kept = append(kept, p)
		}
		if tp.seq < 0 {
			tp.seq = len(pg.paras)
		}
		tp.text = tableText(t) // composed by assemble, its cells here
		composeCells(res.Tables[t.Seq])
		pg.paras = append(kept, tp)
	}
}

// composeCells puts a table's cells in NFC (see assemble).
func composeCells(t document.Table) {
	for i, c := range t.Header {
		t.Header[i] = document.Composed(c)
	}
	for _, r := range t.Rows {
		for i, c := range r {
			r[i] = document.Composed(c)
		}
	}
}

// rowHolds: one row of t (its header too) has every word of text among
// its cells' words, and a word that is no page furniture (furn).
func rowHolds(t document.Table, text string, furn map[string]bool) bool {
	words := strings.Fields(text)
	if len(words) == 0 {
		return false
	}
	holds := func(row []string) bool {
		var in []string
		for _, c := range row {
			in = append(in, strings.Fields(c)...)
		}
		for _, w := range words {
			if !slices.Contains(in, w) {
				return false
			}
		}
		return slices.ContainsFunc(in, func(w string) bool { return !furn[w] })
	}
	return holds(t.Header) || slices.ContainsFunc(t.Rows, holds)
}

// pageWord: p is a page number with a word ("Page 3", "PAGE 1 of 9"),
// not a bare number.
func pageWord(p *para) bool {
	return p.cat == document.PageNumber && strings.IndexFunc(p.text, unicode.IsLetter) >= 0
}

// tableText is a table as text: one line per row, cells separated by " | ".
func tableText(t document.Table) string {
	var rows []string
	if len(t.Header) > 0 {
		rows = append(rows, strings.Join(t.Header, " | "))
	}
	for _, r := range t.Rows {
		rows = append(rows, strings.Join(r, " | "))
	}
	return strings.Join(rows, "\n")
}

// String for debugging.
func (l *Line) String() string { return fmt.Sprintf("%q@%v", l.Text, l.BBox) }

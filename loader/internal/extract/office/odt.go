package office

import (
	"context"
	"encoding/xml"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
)

// ODT (and, on the way, the text of ODS and ODP) is read from content.xml
// with a streaming encoding/xml walk; no served Go library reads ODF.

// maxRepeat caps table:number-columns/rows-repeated (spreadsheet-style
// tables repeat empty cells thousands of times).
const maxRepeat = 64

var odfHeadingRe = regexp.MustCompile(`^heading[ _]*(?:20[ _]*)?([1-9])$`)

type odfStyles struct {
	parent map[string]string // style name → parent style name
	breaks map[string]string // style name → fo:break-before/after "page": "before", "after" or "both"
	// display: a style's text:display, 1 "none" (hidden), -1 shown;
	// pageHidden: an ODP drawing-page style hiding its slides (odfHide)
	display    map[string]int8
	pageHidden map[string]bool
}

// pageBreaks says whether a paragraph of the style (or of a style it
// inherits from) starts and ends a page: a manual page break is a style
// with fo:break-before="page" (LibreOffice's Insert > Page Break, odfpy's
// examples). Before office/14 only soft page breaks made pages: such a
// document's pages after the break were numbered as the page before.
func (s odfStyles) pageBreaks(name string) (before, after bool) {
	for i := 0; i < 10 && name != ""; i++ {
		if b, ok := s.breaks[name]; ok {
			return b != "after", b != "before"
		}
		name = s.parent[name]
	}
	return false, false
}

// classify resolves a paragraph style chain to Title levels.
func (s odfStyles) classify(name string) (document.Category, int, bool) {
	for i := 0; i < 10 && name != ""; i++ {
		n := strings.ToLower(strings.ReplaceAll(name, "_20_", " "))
		switch {
		case n == "title":
			return document.Title, 1, true
		case n == "subtitle":
			return document.Title, 2, true
		case odfHeadingRe.MatchString(n):
			k, _ := strconv.Atoi(odfHeadingRe.FindStringSubmatch(n)[1])
			return document.Title, k, true
		case n == "caption" || n == "illustration" || n == "figure" || n == "drawing":
			return document.Caption, 0, true
		}
		name = s.parent[name]
	}
	return "", 0, false
}

type odfPara struct {
	text        strings.Builder
	cat         document.Category
	level       int
	breakBefore bool
	breakAfter  bool
	notes       bool // in an ODP slide's speaker notes (presentation:notes)
}

type odfWalker struct {
	styles       odfStyles
	onPara       func(p *odfPara)
	onTable      func(rows [][]string)
	onPage       func()                                 // draw:page (ODP slide) starts
	onRegion     func(region string)                    // a style:header/footer… of styles.xml ends
	onNote       func(section string, items []noteItem) // a text:note or office:annotation (skipped when nil)
	onSheet      func(name string)                      // an ODS sheet (a table:table of office:spreadsheet) starts
	onObject     func(href string)                      // a draw:object (an embedded chart, formula...) is shown
	inlineObject func(href string) (string, bool)       // a draw:object's text to write where it stands (a formula's); false: onObject's
	onHidden     func(rows, cols []span)                // an outermost table's hidden rows and columns with text, before onTable (odfTables.HidRows)
	rowCap       int                                    // a spreadsheet's bound on a table's rows with text (odfTables.rowCap)
	shape        odfShape                               // the draw:page's shape the walk is in (an ODG's reading order)
	dropped      int                                    // copies of repeated rows and cells with text the repeat cap left out (odfTables.Dropped)
	// masters (non-nil for an ODG's styles.xml): the master pages whose
	// own text (shapes drawn on the master, shown on the pages using it)
	// is a region, as a header is: those a draw:page names ("*": every
	// one); another master's, and a placeholder's prompt text ("Click to
	// edit the title text format"), are not read (odgMasters)
	masters map[string]bool
	// hide (nil: not followed) follows the body's hidden text; hiddenPages
	// are the draw:pages (1-based) a drawing-page style hides (an ODP's
	// hidden slides)
	hide        *odfHide
	hiddenPages []int
}

// inlineObjectText is inlineObject's answer (false without one).
func (w *odfWalker) inlineObjectText(href string) (string, bool) {
	if w.inlineObject == nil {
		return "", false
	}
	return w.inlineObject(href)
}

func (w *odfWalker) walk(ctx context.Context, r io.Reader, part string, inBody bool) error {
	d := newDecoder(r)
	var (
		paras     []*odfPara
		tables    odfTables
		listDepth int
		styleName string
		pages     int
		notes     int  // open presentation:notes
		sheets    bool // in office:spreadsheet
		// fields: the open text:hidden-text fields' string-value and
		// where their paragraph's text stood at their start (odfHide)
		fields []odfField
	)
	tables.rowCap = w.rowCap
	cur := func() *odfPara {
		if len(paras) == 0 {
			return nil
		}
		return paras[len(paras)-1]
	}
	write := func(s string) {
		if p := cur(); p != nil {
			p.text.WriteString(s)
			w.hide.write(s)
		}
	}
	paraText := func() string {
		if p := cur(); p != nil {
			return p.text.String()
		}
		return ""
	}
	toks := partTokens{ctx: ctx, d: d, part: part}
	defer func() { w.dropped += tables.Dropped }()
	for {
		tok, err := toks.next()
		if tok == nil {
			return err // nil at the end of the part
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if inBody && pages > 0 {
				w.shape.track(t.Name, &t)
			}
			if v, _ := attr(t, "placeholder"); w.masters != nil && inBody && v == "true" {
				if err := d.Skip(); err != nil {
					return xmlErr(part, err)
				}
				continue
			}
			if inBody {
				w.hide.start(t, w.styles, paraText)
			}
			switch t.Name.Local {
			case "style":
				styleName, _ = attr(t, "name")
				if p, ok := attr(t, "parent-style-name"); ok && styleName != "" {
					w.styles.parent[styleName] = p
				}
			case "body":
				inBody = true
			case "text-properties", "drawing-page-properties":
				w.styles.style(styleName, t)
			case "paragraph-properties":
				if styleName != "" && w.styles.breaks != nil {
					bb, _ := attr(t, "break-before")
					ba, _ := attr(t, "break-after")
					switch {
					case bb == "page" && ba == "page":
						w.styles.breaks[styleName] = "both"
					case bb == "page":
						w.styles.breaks[styleName] = "before"
					case ba == "page":
						w.styles.breaks[styleName] = "after"
					}
				}
			case "spreadsheet":
				sheets = inBody && strings.Contains(t.Name.Space, "office")
			case "notes":
				if strings.Contains(t.Name.Space, "presentation") {
					notes++
				}
			case "header", "header-left", "header-first", "footer", "footer-left", "footer-first":
				if strings.Contains(t.Name.Space, ":style:") {
					inBody = true
				}
			case "master-page":
				if w.masters != nil && strings.Contains(t.Name.Space, ":style:") {
					if name, _ := attr(t, "name"); !w.masters["*"] && !w.masters[name] {
						if err := d.Skip(); err != nil {
							return xmlErr(part, err)
						}
						break
					}
					inBody = true
				}
			case "note", "annotation":
				if w.onNote == nil {
					if err := d.Skip(); err != nil {
						return xmlErr(part, err)
					}
					break
				}
				section := "comments"
				if t.Name.Local == "note" {
					section = "footnotes"
					if c, _ := attr(t, "note-class"); c == "endnote" {
						section = "endnotes"
					}
				}
				items, err := odfNoteText(&toks, &w.dropped)
				if err != nil {
					return err
				}
				w.onNote(section, items)
			case "tracked-changes", "sequence-decls", "forms", "desc", "title":
				skip := true
				if t.Name.Local == "desc" || t.Name.Local == "title" {
					skip = strings.Contains(t.Name.Space, "svg")
				}
				if skip {
					if err := d.Skip(); err != nil {
						return xmlErr(part, err)
					}
				}
			case "object":
				if inBody && w.onObject != nil && strings.Contains(t.Name.Space, "drawing") {
					if href, ok := attr(t, "href"); ok {
						if text, ok := w.inlineObjectText(href); ok {
							if p := cur(); p != nil && text != "" {
								if t := p.text.String(); t != "" && !strings.HasSuffix(t, " ") {
									text = " " + text
								}
								write(text)
							}
						} else {
							w.onObject(href)
						}
					}
				}
			case "page":
				if inBody && strings.Contains(t.Name.Space, "drawing") {
					if pages > 0 && w.onPage != nil {
						w.onPage()
					}
					pages++
					if attrVal(t, "visibility") == "hidden" || w.styles.pageHidden[attrVal(t, "style-name")] {
						w.hiddenPages = append(w.hiddenPages, pages)
					}
				}
			case "h":
				if inBody {
					p := &odfPara{cat: document.Title, level: 1, notes: notes > 0}
					if v, ok := attr(t, "outline-level"); ok {
						if k, err := strconv.Atoi(v); err == nil && k > 0 {
							p.level = k
						}
					}
					sn, _ := attr(t, "style-name")
					p.breakBefore, p.breakAfter = w.styles.pageBreaks(sn)
					paras = append(paras, p)
				}
			case "p":
				if inBody {
					p := &odfPara{cat: document.NarrativeText, notes: notes > 0}
					sn, _ := attr(t, "style-name")
					p.breakBefore, p.breakAfter = w.styles.pageBreaks(sn)
					if c, l, ok := w.styles.classify(sn); ok {
						p.cat, p.level = c, l
					} else if listDepth > 0 {
						p.cat, p.level = document.ListItem, listDepth
					}
					paras = append(paras, p)
				}
			case "list":
				listDepth++
			case "s", "tab", "line-break":
				write(odfWhitespace(t))
			case "hidden-text":
				if inBody && textNS(t.Name) {
					fields = append(fields, odfField{attrVal(t, "string-value"), len(paraText())})
				}
			case "soft-page-break":
				if p := cur(); p != nil {
					if strings.TrimSpace(p.text.String()) == "" {
						p.breakBefore = true
					} else {
						p.breakAfter = true
					}
				} else if tables.top() == nil && w.onPara != nil {
					w.onPara(&odfPara{breakAfter: true})
				}
			case "table", "table-row", "table-cell", "covered-table-cell", "table-column":
				if t.Name.Local == "table" && sheets && tables.top() == nil && w.onSheet != nil && strings.Contains(t.Name.Space, "table") {
					name, _ := attr(t, "name")
					w.onSheet(name)
				}
				tables.startTag(t, inBody)
			}
		case xml.CharData:
			write(string(t))
		case xml.EndElement:
			if inBody && pages > 0 {
				w.shape.track(t.Name, nil)
			}
			if inBody && t.Name.Local == "hidden-text" && textNS(t.Name) && len(fields) > 0 {
				// LibreOffice writes the field's text as its
				// string-value only, the element empty, when it hides
				// it: that text lands as a hidden section's does (it
				// was lost, hidden or shown)
				f := fields[len(fields)-1]
				fields = fields[:len(fields)-1]
				if len(paraText()) == f.at {
					write(f.value)
				}
			}
			if inBody {
				w.hide.end(t)
			}
			switch t.Name.Local {
			case "style":
				styleName = ""
			case "header", "header-left", "header-first", "footer", "footer-left", "footer-first":
				if strings.Contains(t.Name.Space, ":style:") {
					inBody = false
					if w.onRegion != nil {
						w.onRegion(t.Name.Local)
					}
				}
			case "master-page":
				if w.masters != nil && strings.Contains(t.Name.Space, ":style:") {
					inBody = false
					if w.onRegion != nil {
						w.onRegion("header")
					}
				}
			case "list":
				if listDepth > 0 {
					listDepth--
				}
			case "notes":
				if notes > 0 && strings.Contains(t.Name.Space, "presentation") {
					notes--
				}
			case "h", "p":
				if len(paras) == 0 {
					continue
				}
				if p, body, _ := endPara(&paras, func(p *odfPara) *strings.Builder { return &p.text }, &tables.tableNest); body {
					w.onPara(p)
				}
			case "table", "table-row", "table-cell", "covered-table-cell":
				if rows, ok := tables.endTag(t); ok && w.onTable != nil {
					if w.onHidden != nil && len(tables.HidRows)+len(tables.HidCols) > 0 {
						w.onHidden(tables.HidRows, tables.HidCols)
					}
					w.onTable(rows)
				}
			}
		}
	}
}

// ExtractODT reads an OpenDocument text (content.xml): text:h as Title
// with its outline level, paragraphs styled Title/Subtitle/Heading as
// Title, list items as ListItem (Level = list depth), other paragraphs as
// NarrativeText, table:table as tables; page headers and footers from the
// master pages of styles.xml as Header (start) and Footer (end); pages
// follow LibreOffice's soft page breaks; meta.xml gives the metadata.
// An ODP's slides are pages (draw:page), their speaker notes Section
// "notes"; ExtractODS reads a spreadsheet.
func ExtractODT(ctx context.Context, p string, opts document.Options) (*document.Result, error) {
	return extractODF(ctx, p, odfText, opts)
}

// odfKind is what an OpenDocument package holds: the reader differs for a
// spreadsheet (a page per sheet, see ExtractODS), a drawing (its shapes in
// reading order, ExtractODG) and a standalone chart (ExtractODC).
type odfKind struct {
	typ, name, mime string
	sheets          bool
	drawing         bool
	chart           bool
}

var odfText = odfKind{typ: "odt", name: "ODT", mime: "application/vnd.oasis.opendocument.text"}

func extractODF(ctx context.Context, p string, kind odfKind, opts document.Options) (*document.Result, error) {
	zr, err := openPackage(p, kind.name)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	ix := newZipIndex(&zr.Reader)
	if ix.get("content.xml") == nil {
		if ix.get("EncryptedPackage") != nil || manifestEncrypted(ix) {
			return nil, document.Errorf(document.KindEncrypted, "the document is password-protected")
		}
		return nil, document.Errorf(document.KindCorrupt, "OpenDocument package has no content.xml")
	}
	if manifestEncrypted(ix) {
		return nil, document.Errorf(document.KindEncrypted, "the document is password-protected")
	}
	mt, _ := ix.readAll("mimetype")
	b := newBuilderFor(kind.typ, strings.TrimSpace(string(mt)), opts)
	if b.res.MIME == "" {
		b.res.MIME = kind.mime
	}
	odfMeta(ix, &b.res.Metadata)
	if kind.chart {
		if err := readODC(ctx, ix, b); err != nil {
			return nil, err
		}
		return b.finish(), nil
	}
	styles := odfStyles{parent: map[string]string{}, breaks: map[string]string{}, display: map[string]int8{}, pageHidden: map[string]bool{}}
	var masters map[string]bool
	if kind.drawing {
		masters = odgMasters(ctx, ix)
	}
	hdrs, ftrs := odfRegions(ctx, ix, styles, b, masters)
	if kind.sheets {
		// A spreadsheet's print header and footer hold fields the
		// application fills when it prints ("???" for the sheet's
		// name, "Page 1"), no text of the workbook's (the XLSX reader
		// reads none either).
		hdrs, ftrs = nil, nil
	}
	for _, h := range dedupe(hdrs) {
		b.add(document.Header, h, 0)
	}
	var notes []odfNote // after the body (see docxNoteParts)
	objs := &odfObjects{ctx: ctx, b: b, ix: ix}
	var tablesHidden odtTablesHidden
	w := &odfWalker{
		styles: styles,
		hide:   &odfHide{},
		onPara: func(pp *odfPara) {
			if pp.breakBefore {
				b.breakPage()
			}
			if k := b.add(pp.cat, pp.text.String(), pp.level); k >= 0 && pp.notes {
				// as a PPTX's (before office/11 they were the slide's
				// paragraphs, not told apart)
				b.res.Elements[k].Section = "notes"
			}
			objs.flush()
			if pp.breakAfter {
				b.breakPage()
			}
		},
		onTable: func(rows [][]string) {
			b.addTableRows(rows)
			tablesHidden.n++
			objs.flush()
		},
		onHidden: func(rows, cols []span) { tablesHidden.table(b, rows, cols) },
		onPage: func() {
			objs.flush()
			b.newUnit()
		},
		onObject: objs.add,
		// a formula's text stands in its sentence (office/30)
		inlineObject: func(href string) (string, bool) {
			part := odfObjectPart(href)
			if part == "" {
				return "", false
			}
			return odfFormula(ctx, ix, part)
		},
		onNote: func(section string, items []noteItem) {
			for _, it := range items {
				notes = append(notes, odfNote{section, it})
			}
		},
	}
	var sh *odsSheets
	if kind.sheets {
		sh = newODSSheets(b, w, &notes, objs, maxRows(opts))
	}
	var dr *odgPage
	if kind.drawing {
		dr = newODGPage(w, objs)
	}
	rc, err := ix.open("content.xml")
	if err != nil {
		return nil, document.Errorf(document.KindCorrupt, "cannot read content.xml: %v", err)
	}
	err = w.walk(ctx, rc, "content.xml", false)
	rc.Close()
	if err != nil {
		if ce := ctxErr(ctx); ce != nil {
			return nil, ce
		}
		if dr != nil {
			// the drawing's page read before the damage (its items
			// wait for the page's end: the file was quarantined)
			dr.flush()
		}
		if len(b.res.Elements) == 0 {
			return nil, err
		}
		b.warn("content cut short: %v", err)
		b.res.Flag(0, document.ReviewTruncated, "the document's content is damaged (%v): only the text before the damage is in the warehouse, the rest of the document is missing", err)
	}
	if dr != nil {
		dr.flush()
	}
	objs.flush()
	repeatCut(b, "content.xml", w.dropped)
	b.pageBreak = false
	addODFNotes(b, notes)
	for _, f := range dedupe(ftrs) {
		b.add(document.Footer, f, 0)
	}
	if sh != nil {
		sh.finish()
	} else {
		tablesHidden.finish(b)
	}
	w.hide.say(b)
	var hidden []string
	for _, n := range w.hiddenPages {
		hidden = append(hidden, strconv.Itoa(n))
	}
	sayHiddenSlides(b, hidden)
	return b.finish(), nil
}

type odfNote struct {
	section string
	noteItem
}

// addODFNotes adds notes (footnotes, endnotes, comments) in their order,
// each element's Section its kind.
func addODFNotes(b *builder, notes []odfNote) {
	for _, n := range notes {
		var k int
		if n.rows != nil {
			k = b.addTableRows(n.rows)
		} else {
			k = b.add(document.NarrativeText, n.text, 0)
		}
		if k >= 0 {
			b.res.Elements[k].Section = n.section
		}
	}
}

// odfRegions reads the page headers and footers of styles.xml's master
// pages (the walk also records the common styles' parents); with masters
// (an ODG's), the text of a used master page's own shapes is a header:
// Draw shows it on every page using the master (a letterhead, a logo's
// words); it lands once, at the document's start, as an ODT's page
// header does. Before office/17 it was not read.
func odfRegions(ctx context.Context, ix *zipIndex, styles odfStyles, b *builder, masters map[string]bool) (hdrs, ftrs []string) {
	rc, err := ix.open("styles.xml")
	if err != nil {
		return nil, nil
	}
	defer rc.Close()
	var buf []string
	sw := &odfWalker{
		styles:  styles,
		masters: masters,
		onPara:  func(pp *odfPara) { buf = append(buf, pp.text.String()) },
		onTable: func(rows [][]string) {
			for _, r := range rows {
				buf = append(buf, strings.Join(r, "\t"))
			}
		},
		onRegion: func(region string) {
			if s := cleanText(strings.Join(buf, "\n")); s != "" {
				if strings.HasPrefix(region, "header") {
					hdrs = append(hdrs, s)
				} else {
					ftrs = append(ftrs, s)
				}
			}
			buf = nil
		},
	}
	if err := sw.walk(ctx, rc, "styles.xml", false); err != nil {
		b.warn("styles.xml: %v", err)
	}
	return hdrs, ftrs
}

// manifestEncrypted says whether META-INF/manifest.xml declares encrypted
// entries (a password-protected ODF file).
func manifestEncrypted(ix *zipIndex) bool {
	data, err := ix.readAll("META-INF/manifest.xml")
	if err != nil {
		return false
	}
	return strings.Contains(string(data), "encryption-data")
}

// odfMeta reads meta.xml.
func odfMeta(ix *zipIndex, md *document.Metadata) {
	data, err := ix.readAll("meta.xml")
	if err != nil {
		return
	}
	var m struct {
		Meta struct {
			Title    string `xml:"title"`
			Initial  string `xml:"initial-creator"`
			Creator  string `xml:"creator"`
			Created  string `xml:"creation-date"`
			Date     string `xml:"date"`
			Language string `xml:"language"`
			Subject  string `xml:"subject"`
			Keyword  string `xml:"keyword"`
		} `xml:"meta"`
	}
	if err := newDecoder(strings.NewReader(string(data))).Decode(&m); err != nil {
		return
	}
	md.Title = strings.TrimSpace(m.Meta.Title)
	md.Author = strings.TrimSpace(m.Meta.Initial)
	if md.Author == "" {
		md.Author = strings.TrimSpace(m.Meta.Creator)
	}
	md.Created = normDate(m.Meta.Created)
	md.Modified = normDate(m.Meta.Date)
	md.Language = strings.TrimSpace(m.Meta.Language)
	setExtra(md, "subject", m.Meta.Subject)
	setExtra(md, "keywords", m.Meta.Keyword)
}

// odfWhitespace is the text an ODF whitespace element stands for: a
// text:s is a run of spaces (text:c of them, 1 by default, under 1000), a
// text:tab a tab, a text:line-break a newline. Every ODF text walker
// (body, notes, charts) writes these through it.
func odfWhitespace(t xml.StartElement) string {
	switch t.Name.Local {
	case "tab":
		return "\t"
	case "line-break":
		return "\n"
	}
	k := 1
	if v, ok := attr(t, "c"); ok {
		if c, err := strconv.Atoi(v); err == nil && c > 0 && c < 1000 {
			k = c
		}
	}
	return strings.Repeat(" ", k)
}

package office

import (
	"context"
	"encoding/xml"
	"errors"
	"io"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
)

// DOCX is read with archive/zip and a streaming encoding/xml token loop: no
// served Go library for WordprocessingML is both maintained and free
// (unioffice is paid), and a token loop keeps memory flat on an 872-page
// handbook while giving us styles, numbering, breaks and tables directly.

const nsW = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"

// docxStyle is what a paragraph style tells about the paragraph's type.
type docxStyle struct {
	name     string
	basedOn  string
	outline  int // -1 when none
	numbered bool
	vanish   int8 // its run properties' w:vanish: 1 hidden, -1 shown, 0 unsaid
}

type docxStyles map[string]docxStyle

var headingRe = regexp.MustCompile(`^heading\s*([1-9])$`)

// classify resolves a style chain into a category and a level.
func (ss docxStyles) classify(id string) (cat document.Category, level int, ok bool) {
	outline := -1
	numbered := false
	for i := 0; i < 10 && id != ""; i++ {
		st, found := ss[id]
		if !found {
			break
		}
		name := strings.ToLower(strings.TrimSpace(st.name))
		switch {
		case name == "title":
			return document.Title, 1, true
		case name == "subtitle":
			return document.Title, 2, true
		case headingRe.MatchString(name):
			n, _ := strconv.Atoi(headingRe.FindStringSubmatch(name)[1])
			return document.Title, n, true
		case name == "caption":
			return document.Caption, 0, true
		case strings.HasPrefix(name, "list") && name != "list table" && !strings.HasPrefix(name, "list table"):
			return document.ListItem, 1, true
		}
		if outline < 0 && st.outline >= 0 {
			outline = st.outline
		}
		numbered = numbered || st.numbered
		id = st.basedOn
	}
	if outline >= 0 && outline < 9 {
		return document.Title, outline + 1, true
	}
	if numbered {
		return document.ListItem, 1, true
	}
	return "", 0, false
}

func readDocxStyles(ix *zipIndex) (docxStyles, string) {
	ss := docxStyles{}
	lang := ""
	rc, err := ix.open("word/styles.xml")
	if err != nil {
		return ss, ""
	}
	defer rc.Close()
	d := newDecoder(rc)
	var cur string
	var inDefaults bool
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "docDefaults":
				inDefaults = true
			case "lang":
				if inDefaults && lang == "" {
					lang, _ = attr(t, "val")
				}
			case "style":
				cur, _ = attr(t, "styleId")
				ss[cur] = docxStyle{outline: -1}
			case "vanish":
				if cur != "" {
					st := ss[cur]
					st.vanish = vanishVal(t)
					ss[cur] = st
				}
			case "name", "basedOn", "outlineLvl", "numId":
				if cur == "" {
					continue
				}
				st := ss[cur]
				v, _ := attr(t, "val")
				switch t.Name.Local {
				case "name":
					st.name = v
				case "basedOn":
					st.basedOn = v
				case "outlineLvl":
					if n, err := strconv.Atoi(v); err == nil {
						st.outline = n
					}
				case "numId":
					st.numbered = v != "" && v != "0"
				}
				ss[cur] = st
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "docDefaults":
				inDefaults = false
			case "style":
				cur = ""
			}
		}
	}
	return ss, lang
}

// docxPara is one paragraph being read.
type docxPara struct {
	text        strings.Builder
	style       string
	numbered    bool // numPr with a non-zero numId
	numOff      bool // numPr with numId 0: numbering explicitly removed
	ilvl        int
	outline     int
	breakBefore bool
	breakAfter  bool
	chars       int // characters of text in runs
	boldChars   int // … of which in bold runs
	maxSz       int // largest run font size, half-points
}

// looksLikeHeading is the fallback for documents styled by direct
// formatting only: a short paragraph, all bold or in a large font, not
// ending like a sentence. It returns the heading level (0 = not a heading).
func (p *docxPara) looksLikeHeading(text string) int {
	text = strings.TrimSpace(text)
	if p.chars == 0 || text == "" || strings.ContainsAny(text[len(text)-1:], ".;,!?") {
		return 0
	}
	if words := len(strings.Fields(text)); words > 12 || strings.Contains(text, "\n") {
		return 0
	}
	switch {
	case p.maxSz >= 32:
		return 1
	case p.maxSz >= 28:
		return 2
	case p.boldChars == p.chars && p.chars >= 3:
		return 3
	}
	return 0
}

// docxWalker streams one WordprocessingML part (body, header, footer) and
// calls back per paragraph and per top-level table.
type docxWalker struct {
	onPara  func(p *docxPara)
	onTable func(rows [][]string, spans []document.CellSpan, breakAfter bool)
	// glossary gives the text of the document's building blocks by
	// name (glossaryPrompts); nil: Word's own prompts only
	glossary func() map[string]string
	// hidden counts the hidden text written (nil: not counted)
	hidden *docxHidden
}

func (w *docxWalker) walk(ctx context.Context, r io.Reader, part string) error {
	d := newDecoder(r)
	var (
		paras  []*docxPara
		tables tableNest
		stack  []string // local names of open elements
		inT    bool
		bold   bool // current run is bold (direct formatting)
		sz     int  // current run size in half-points (0 = unknown)
		fields fieldStack
		sdts   []sdtState // content controls open
		muted  int        // … of which showing their prompt: no text
		vanish int8       // current run's own w:vanish (1, -1; 0 unsaid)
		rStyle string     // … and its character style
		hidden bool       // … so it is hidden text
	)
	inCode := func() bool { return fields.inCode() || muted > 0 }
	parent := func(k int) string {
		if len(stack) > k {
			return stack[len(stack)-1-k]
		}
		return ""
	}
	cur := func() *docxPara {
		if len(paras) == 0 {
			return nil
		}
		return paras[len(paras)-1]
	}
	write := func(s string) {
		if p := cur(); p != nil {
			p.text.WriteString(s)
			if hidden {
				w.hidden.text(s)
			}
		}
	}
	pageBreak := func() {
		p := cur()
		if p == nil {
			return
		}
		if strings.TrimSpace(p.text.String()) == "" {
			p.breakBefore = true
		} else {
			p.breakAfter = true
		}
	}
	toks := partTokens{ctx: ctx, d: d, part: part}
	for {
		tok, err := toks.next()
		if tok == nil {
			return err // nil at the end of the part
		}
		switch t := tok.(type) {
		case xml.StartElement:
			local := t.Name.Local
			switch local {
			case "Fallback", "moveFrom", "delText", "instrText", "del":
				// duplicate (mc:Fallback, moveFrom), deleted or field-code content
				if err := toks.skip(); err != nil {
					return err
				}
				continue
			case "sdt":
				sdts = append(sdts, sdtState{})
			case "showingPlcHdr":
				if parent(0) == "sdtPr" && len(sdts) > 0 {
					sdts[len(sdts)-1].showing = onOff(t)
				}
			case "docPart":
				if parent(0) == "placeholder" && parent(1) == "sdtPr" && len(sdts) > 0 {
					sdts[len(sdts)-1].docPart, _ = attr(t, "val")
				}
			case "sdtContent":
				// a control showing its placeholder whose content is the
				// prompt ("Click or tap here to enter text.") lands no text
				if s := len(sdts) - 1; s >= 0 && sdts[s].showing && !sdts[s].muted && muted == 0 {
					prompt, err := isPrompt(&toks, &sdts[s], w.glossary)
					if err != nil {
						return err
					}
					if prompt {
						sdts[s].muted = true
						muted++
					}
				}
			case "fldChar":
				switch typ, _ := attr(t, "fldCharType"); typ {
				case "begin":
					fields.begin()
				case "separate":
					fields.separate()
				case "end":
					fields.end()
				}
			case "p":
				if t.Name.Space == nsW || t.Name.Space == "" {
					paras = append(paras, &docxPara{outline: -1})
				}
			case "pStyle":
				if p := cur(); p != nil && parent(0) == "pPr" {
					p.style, _ = attr(t, "val")
				}
			case "numId":
				if p := cur(); p != nil && parent(0) == "numPr" {
					v, _ := attr(t, "val")
					if v == "0" {
						p.numOff = true
					} else {
						p.numbered = true
					}
				}
			case "ilvl":
				if p := cur(); p != nil && parent(0) == "numPr" {
					v, _ := attr(t, "val")
					p.ilvl, _ = strconv.Atoi(v)
				}
			case "outlineLvl":
				if p := cur(); p != nil && parent(0) == "pPr" {
					v, _ := attr(t, "val")
					if k, err := strconv.Atoi(v); err == nil {
						p.outline = k
					}
				}
			case "r":
				bold, sz = false, 0
				vanish, rStyle, hidden = 0, "", false
			case "vanish":
				if parent(0) == "rPr" && parent(1) == "r" {
					vanish = vanishVal(t)
				}
			case "rStyle":
				if parent(0) == "rPr" && parent(1) == "r" {
					rStyle, _ = attr(t, "val")
				}
			case "b":
				if parent(0) == "rPr" && parent(1) == "r" {
					v, _ := attr(t, "val")
					bold = v == "" || v == "1" || v == "true" || v == "on"
				}
			case "sz":
				if parent(0) == "rPr" && parent(1) == "r" {
					v, _ := attr(t, "val")
					sz, _ = strconv.Atoi(v)
				}
			case "t":
				inT = t.Name.Space == nsW || t.Name.Space == "" || strings.HasSuffix(t.Name.Space, "/math")
				if p := cur(); p != nil && parent(0) == "r" {
					hidden = w.hidden.runHidden(vanish, rStyle, p.style)
				}
			case "tab":
				if parent(0) == "r" && !inCode() {
					write("\t")
				}
			case "br":
				if parent(0) == "r" {
					typ, _ := attr(t, "type")
					switch typ {
					case "page":
						pageBreak()
					case "column":
						write("\n")
					default:
						write("\n")
					}
				}
			case "cr":
				write("\n")
			case "noBreakHyphen":
				write("-")
			case "lastRenderedPageBreak":
				pageBreak()
			case "tbl":
				tables.start()
			case "tr":
				tables.startRow()
			case "tc":
				tables.startCell()
			case "gridSpan":
				if tb := tables.top(); tb != nil && parent(0) == "tcPr" {
					v, _ := attr(t, "val")
					if k, err := strconv.Atoi(v); err == nil && k > 1 && k < 1000 {
						tb.span = k
					}
				}
			case "vMerge":
				if tb := tables.top(); tb != nil && parent(0) == "tcPr" {
					if v, _ := attr(t, "val"); v == "restart" {
						tb.vmerge = vmRestart
					} else {
						tb.vmerge = vmContinue // no val, or "continue"
					}
				}
			case "gridBefore":
				// grid columns a row leaves empty before its first cell
				if tb := tables.top(); tb != nil && parent(0) == "trPr" && tb.cell == nil {
					v, _ := attr(t, "val")
					if k, err := strconv.Atoi(v); err == nil && k > 0 && k < 1000 {
						for range k {
							tb.row = append(tb.row, "")
						}
					}
				}
			}
			stack = append(stack, local)
		case xml.CharData:
			if inT && !inCode() {
				write(string(t))
				if p := cur(); p != nil {
					k := len(strings.TrimSpace(string(t)))
					p.chars += k
					if bold {
						p.boldChars += k
					}
					if k > 0 && sz > p.maxSz {
						p.maxSz = sz
					}
				}
			}
		case xml.EndElement:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			switch t.Name.Local {
			case "t":
				inT = false
			case "r":
				if hidden {
					w.hidden.endRun()
				}
				hidden = false
			case "sdt":
				if n := len(sdts); n > 0 {
					if sdts[n-1].muted {
						muted--
					}
					sdts = sdts[:n-1]
				}
			case "p":
				if len(paras) == 0 || (t.Name.Space != nsW && t.Name.Space != "") {
					continue
				}
				if len(paras) == 1 {
					// a field whose code runs past its paragraph has no
					// separate: its code ends here (a damaged field must
					// not hide the rest of the document)
					fields.endCodes()
				}
				p, body, inCell := endPara(&paras, func(p *docxPara) *strings.Builder { return &p.text }, &tables)
				if inCell && (p.breakBefore || p.breakAfter) {
					tables.open[0].breakAfter = true
				}
				if body {
					w.onPara(p)
				}
			case "tc":
				if tb := tables.top(); tb != nil && tb.cell != nil {
					tb.mergeCell()
					tables.endCell(1, tb.span-1)
				}
			case "tr":
				tables.endRow(1)
			case "tbl":
				if tb, ok := tables.end(); ok {
					w.onTable(tb.rows, tb.spans, tb.breakAfter)
				}
			}
		}
	}
}

// ExtractDOCX reads a Word document: paragraphs typed by style (Title with
// heading level, ListItem, NarrativeText, Caption), tables as tables,
// headers (start of page 1) and footers (end of the last page), core
// properties as metadata. Pages follow explicit and last-rendered page
// breaks when the file has them, else the document is one page.
func ExtractDOCX(ctx context.Context, p string, opts document.Options) (*document.Result, error) {
	zr, err := openPackage(p, "DOCX")
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	ix := newZipIndex(&zr.Reader)

	main := "word/document.xml"
	if t := officeDocumentPart(ix); t != "" {
		main = t
	}
	if ix.get(main) == nil {
		return nil, document.Errorf(document.KindCorrupt, "DOCX package has no main document part (%s)", main)
	}
	b := newBuilderFor("docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", opts)
	b.chartRows = maxRows(opts)
	coreProps(ix, b.res)
	styles, lang := readDocxStyles(ix)
	b.docxHidden = &docxHidden{styles: styles}
	if b.res.Metadata.Language == "" {
		b.res.Metadata.Language = lang
	}
	rels := readRels(ix, relsPathFor(main), path.Dir(main))

	// headers and footers: each part once, in part-name order
	var hdrs, ftrs []string
	for _, r := range rels {
		switch {
		case strings.HasSuffix(r.Type, "/header"):
			hdrs = append(hdrs, r.Target)
		case strings.HasSuffix(r.Type, "/footer"):
			ftrs = append(ftrs, r.Target)
		}
	}
	sort.Strings(hdrs)
	sort.Strings(ftrs)
	glossary := glossaryPrompts(ix, rels)
	for _, t := range dedupe(partTexts(ctx, ix, hdrs, b, glossary)) {
		b.add(document.Header, t, 0)
	}

	body := &docxWalker{
		glossary: glossary,
		hidden:   b.docxHidden,
		onPara: func(dp *docxPara) {
			if dp.breakBefore {
				b.breakPage()
			}
			cat, level := document.NarrativeText, 0
			if c, l, ok := styles.classify(dp.style); ok {
				cat, level = c, l
			}
			if cat != document.Title {
				switch {
				case dp.outline >= 0 && dp.outline < 9:
					cat, level = document.Title, dp.outline+1
				case dp.numbered:
					cat, level = document.ListItem, dp.ilvl+1
				case dp.numOff && cat == document.ListItem:
					cat, level = document.NarrativeText, 0
				case cat == document.ListItem && dp.ilvl > 0:
					level = dp.ilvl + 1
				case cat == document.NarrativeText && dp.style == "" || cat == document.NarrativeText && strings.EqualFold(styles[dp.style].name, "normal"):
					if l := dp.looksLikeHeading(dp.text.String()); l > 0 {
						cat, level = document.Title, l
					}
				}
			}
			b.add(cat, dp.text.String(), level)
			if dp.breakAfter {
				b.breakPage()
			}
		},
		onTable: func(rows [][]string, spans []document.CellSpan, breakAfter bool) {
			b.addTableSpans(rows, spans)
			if breakAfter {
				b.breakPage()
			}
		},
	}
	rc, err := ix.open(main)
	if err != nil {
		return nil, document.Errorf(document.KindCorrupt, "cannot read %s: %v", main, err)
	}
	err = body.walk(ctx, rc, main)
	rc.Close()
	if err != nil {
		var de *document.Error
		if !errors.As(err, &de) || de.Kind != document.KindCorrupt || len(b.res.Elements) == 0 {
			return nil, err
		}
		b.warn("document body cut short: %v", err)
		b.res.Flag(0, document.ReviewTruncated, "the document's body is damaged (%v): only the text before the damage is in the warehouse, the rest of the document is missing", err)
	}
	b.pageBreak = false
	// Charts go after the body, on its last page (their anchor in the
	// text flow is not tracked).
	if err := emitCharts(ctx, b, ix, main, nil); err != nil {
		return nil, err
	}
	emitDocxNotes(ctx, b, ix, rels)
	for _, t := range dedupe(partTexts(ctx, ix, ftrs, b, glossary)) {
		b.add(document.Footer, t, 0)
	}
	b.docxHidden.say(b)
	return b.finish(), nil
}

// officeDocumentPart finds the main part through _rels/.rels.
func officeDocumentPart(ix *zipIndex) string {
	for _, r := range readRels(ix, "_rels/.rels", "") {
		if strings.HasSuffix(r.Type, "/officeDocument") && !r.External {
			return r.Target
		}
	}
	return ""
}

// partTexts reads header/footer parts, one text per part.
func partTexts(ctx context.Context, ix *zipIndex, parts []string, b *builder, glossary func() map[string]string) []string {
	var out []string
	for _, part := range parts {
		var lines []string
		w := &docxWalker{
			glossary: glossary,
			hidden:   b.docxHidden,
			onPara:   func(p *docxPara) { lines = append(lines, p.text.String()) },
			onTable: func(rows [][]string, _ []document.CellSpan, _ bool) {
				for _, r := range rows {
					lines = append(lines, strings.Join(r, "\t"))
				}
			},
		}
		rc, err := ix.open(part)
		if err != nil {
			continue
		}
		if err := w.walk(ctx, rc, part); err != nil {
			b.warn("%s: %v", part, err)
		}
		rc.Close()
		if t := cleanText(strings.Join(lines, "\n")); t != "" {
			out = append(out, t)
		}
	}
	return out
}

func dedupe(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

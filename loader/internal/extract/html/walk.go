package html

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/document"
	"golang.org/x/net/html"
)

// block is one typed piece of the page in reading order.
type block struct {
	cat   document.Category
	text  string
	level int
	table *document.Table
	// caption: a figcaption, or text inside an element whose class or id
	// names a caption (readability keeps the page's classes); a table's
	// <caption> is its title, never marked (html/29)
	caption bool
}

// skipTags never carry readable content.
var skipTags = map[string]bool{
	"script": true, "style": true, "noscript": true, "template": true, "svg": true, "math": true,
	"iframe": true, "object": true, "embed": true, "canvas": true, "button": true, "select": true,
	"input": true, "textarea": true, "option": true, "head": true, "map": true, "audio": true,
	"video": true, "dialog": true, "img": true, "picture": true, "source": true, "link": true, "meta": true,
	// a frameset page's <noframes> is parsed as HTML in its place
	// (framesetText); elsewhere browsers hide it and the parser leaves its
	// markup as text
	"noframes": true,
}

// chromeRoles are ARIA landmarks of page chrome. role="menu"/"menubar" are
// widgets, not landmarks: pages use them for content lists too (a page whose
// content was one role="menu" list kept 4 of its 26 words when they counted).
var chromeRoles = map[string]bool{
	"navigation": true, "banner": true, "contentinfo": true, "complementary": true, "search": true,
}

// blockTags end the current paragraph.
var blockTags = map[string]bool{
	"p": true, "div": true, "section": true, "article": true, "main": true, "header": true, "footer": true,
	"blockquote": true, "address": true, "dl": true, "dt": true, "dd": true, "figure": true, "form": true,
	"fieldset": true, "details": true, "summary": true, "center": true, "body": true, "html": true,
	"tr": true, "td": true, "th": true, "tbody": true, "thead": true, "tfoot": true, "nav": true, "aside": true,
	"legend": true, "hgroup": true, "frameset": true, "frame": true, "noframes": true,
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hidden(n *html.Node) bool {
	if _, ok := attrOK(n, "hidden"); ok {
		return true
	}
	if strings.EqualFold(attr(n, "aria-hidden"), "true") {
		return true
	}
	st := strings.ToLower(strings.ReplaceAll(attr(n, "style"), " ", ""))
	return strings.Contains(st, "display:none") || strings.Contains(st, "visibility:hidden")
}

// captionNamed: n's class or id names a caption ("wp-caption",
// "media-caption", "inline-video-caption"...), as trafilatura's rules
// read them. The walker marks the text of such a block element (not an
// inline one, and not inside a list item, where it would split a
// paragraph) as a caption's (block.caption).
// A name that says there is no caption ("no_caption", "without-caption":
// buzzfeed's list items without one, whose headings html/30 dropped as
// captions) names none.
func captionNamed(n *html.Node) bool {
	for _, name := range append(strings.Fields(strings.ToLower(attr(n, "class"))), strings.ToLower(attr(n, "id"))) {
		at := strings.Index(name, "caption")
		if at < 0 {
			continue
		}
		before := strings.TrimRight(name[:at], "-_")
		if word := before[strings.LastIndexAny(before, "-_")+1:]; word != "no" && word != "without" {
			return true
		}
	}
	return false
}

func attrOK(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// collapse folds all white space (including newlines) to single spaces,
// as strings.Join(strings.Fields(s), " ") does.
func collapse(s string) string { return squeeze(s, false) }

// cleanLines collapses white space within lines and drops empty lines:
// each "\n"-separated line folded as collapse folds, the non-empty ones
// joined by "\n".
func cleanLines(s string) string { return squeeze(s, true) }

// squeeze is collapse (lines false) or cleanLines (lines true) in one pass
// and one allocation of at most len(s) bytes. (strings.Fields and Join per
// line were 230 MB of 866 MB allocated on a 31.5 MB page, issue 15.)
// White space is unicode.IsSpace's, as strings.Fields has it; bytes that
// are not valid UTF-8 are kept as they are.
func squeeze[T string | []byte](s T, lines bool) string {
	start := 0 // skip leading white space without allocating
	for start < len(s) {
		r, n := decodeRune(s[start:])
		if !unicode.IsSpace(r) {
			break
		}
		start += n
	}
	if start == len(s) {
		return ""
	}
	var b strings.Builder
	b.Grow(len(s) - start)
	inLine := false  // the current line has written text
	space := false   // white space seen after the line's last text
	newline := false // a "\n" seen since the last text (lines only)
	for i := start; i < len(s); {
		r, n := decodeRune(s[i:])
		switch {
		case r == '\n' && lines:
			newline, space, inLine = true, false, false
		case unicode.IsSpace(r):
			if inLine {
				space = true
			}
		default:
			switch {
			case newline && b.Len() > 0:
				b.WriteByte('\n')
			case space:
				b.WriteByte(' ')
			}
			newline, space, inLine = false, false, true
			for _, c := range []byte(s[i : i+n]) {
				b.WriteByte(c)
			}
		}
		i += n
	}
	return b.String()
}

// decodeRune is utf8.DecodeRune of a string or a byte slice (squeeze
// reads the walker's reused paragraph buffer without copying it).
func decodeRune[T string | []byte](s T) (rune, int) {
	if c := s[0]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	var b [utf8.UTFMax]byte
	return utf8.DecodeRune(b[:copy(b[:], s)])
}

// textOf is the raw text content of a subtree (skipping unreadable tags).
func textOf(n *html.Node) string {
	var sb strings.Builder
	var visit func(*html.Node)
	visit = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			sb.WriteString(n.Data)
			return
		case html.ElementNode:
			if n.Data != "title" && (skipTags[n.Data] || hidden(n)) {
				return
			}
			if n.Data == "br" || blockTags[n.Data] || n.Data == "li" || n.Data == "table" {
				sb.WriteString("\n")
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			visit(c)
		}
		if n.Type == html.ElementNode && (blockTags[n.Data] || n.Data == "li") {
			sb.WriteString("\n")
		}
	}
	visit(n)
	return sb.String()
}

// walker turns the DOM into blocks.
type walker struct {
	blocks     []block
	buf        []byte // the paragraph being read, reused from one to the next
	listDepth  int
	inLI       int // >0 inside an li at the current list depth
	inMain     int // inside article/main: their header/footer are content
	inCaption  int // inside an element whose class or id names a caption
	dropChrome bool
	message    bool // an e-mail's body (walkMessage)
}

// walkDocument walks the body (or the whole document when there is none).
// dropChrome removes nav, aside and page-level header/footer.
func walkDocument(doc *html.Node, dropChrome bool) []block {
	w := &walker{dropChrome: dropChrome}
	w.walk(doc)
	w.flush()
	return w.blocks
}

// walkMessage walks an e-mail's HTML body: nothing is page chrome (its
// <footer> is the signature or the legal text, its <header> the
// letterhead), and a table without a header row (a receipt's "Order
// number: | ORD-12345", a signature beside a logo) is text, one line a
// row: Table elements stay out of the chunks docket search reads, and
// such a mail's tracking number and signer were not found (review42 on
// email/8, which also dropped the <footer> and <header>).
func walkMessage(doc *html.Node) []block {
	w := &walker{message: true}
	w.walk(doc)
	w.flush()
	return w.blocks
}

func (w *walker) add(cat document.Category, text string, level int) {
	if text == "" {
		return
	}
	w.blocks = append(w.blocks, block{cat: cat, text: text, level: level, caption: w.inCaption > 0})
}

// flush ends the current paragraph: a ListItem inside li, else
// NarrativeText.
func (w *walker) flush() {
	t := squeeze(w.buf, true)
	w.buf = w.buf[:0]
	if t == "" {
		return
	}
	if w.inLI > 0 {
		w.add(document.ListItem, t, w.listDepth)
		return
	}
	w.add(document.NarrativeText, t, 0)
}

func (w *walker) children(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.walk(c)
	}
}

func (w *walker) walk(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		// Source line breaks are just white space; only <br> and block
		// boundaries inside list items break lines.
		w.buf = append(w.buf, strings.Map(func(r rune) rune {
			if r == '\n' || r == '\r' {
				return ' '
			}
			return r
		}, n.Data)...)
		return
	case html.DocumentNode:
		w.children(n)
		return
	case html.ElementNode:
	default:
		return
	}
	tag := n.Data
	if skipTags[tag] || hidden(n) {
		return
	}
	if w.dropChrome {
		if tag == "nav" || tag == "aside" || chromeRoles[strings.ToLower(attr(n, "role"))] {
			return
		}
		if (tag == "header" || tag == "footer") && w.inMain == 0 {
			return
		}
	}
	if blockTags[tag] && w.inLI == 0 && captionNamed(n) {
		// a block of its own already: its text is marked, nothing split
		w.flush()
		w.inCaption++
		defer func() {
			w.flush()
			w.inCaption--
		}()
	}
	switch tag {
	case "h1", "h2", "h3", "h4", "h5", "h6":
		w.flush()
		w.add(document.Title, collapse(textOf(n)), int(tag[1]-'0'))
	case "ul", "ol", "menu", "dir":
		w.flush()
		saved := w.inLI
		w.inLI = 0
		w.listDepth++
		w.children(n)
		w.flush()
		w.listDepth--
		w.inLI = saved
	case "li":
		w.flush()
		if w.listDepth == 0 { // stray li
			w.listDepth = 1
			defer func() { w.listDepth = 0 }()
		}
		w.inLI++
		w.children(n)
		w.flush()
		w.inLI--
	case "table":
		w.flush()
		w.table(n)
	case "pre":
		w.flush()
		w.add(document.NarrativeText, trimPre(textOf(n)), 0)
	case "br":
		w.buf = append(w.buf, '\n')
	case "hr":
		w.flush()
	case "figcaption":
		// a photo's caption, judged as one inside the article
		// (agree.go bodyCaptions)
		w.flush()
		w.inCaption++
		w.add(document.Caption, collapse(textOf(n)), 0)
		w.inCaption--
	case "caption":
		// a table's title: a Caption block never judged as a photo's
		// (html-main's wikipedia-2 lost its table's title to html/28)
		w.flush()
		w.add(document.Caption, collapse(textOf(n)), 0)
	case "article", "main":
		w.flush()
		w.inMain++
		w.children(n)
		w.flush()
		w.inMain--
	default:
		if blockTags[tag] {
			if w.inLI > 0 {
				// Paragraphs inside a list item stay in the item.
				w.buf = append(w.buf, '\n')
				w.children(n)
				w.buf = append(w.buf, '\n')
				return
			}
			w.flush()
			w.children(n)
			w.flush()
			return
		}
		w.children(n)
	}
}

// trimPre keeps a pre block's lines, trimming trailing space and blank
// lines around it.
func trimPre(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\t", "    "), "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " \u00a0")
	}
	return strings.Trim(strings.Join(lines, "\n"), "\n")
}

// rowsOf returns a table's own rows (not those of nested tables) and
// whether each is in thead.
func rowsOf(t *html.Node) (rows []*html.Node, inHead []bool) {
	var visit func(n *html.Node, head bool)
	visit = func(n *html.Node, head bool) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch c.Data {
			case "tr":
				rows = append(rows, c)
				inHead = append(inHead, head)
			case "thead":
				visit(c, true)
			case "tbody", "tfoot":
				visit(c, false)
			}
		}
	}
	visit(t, false)
	return rows, inHead
}

func cellsOf(tr *html.Node) []*html.Node {
	var out []*html.Node
	for c := tr.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && (c.Data == "td" || c.Data == "th") && !hidden(c) {
			out = append(out, c)
		}
	}
	return out
}

func hasDescendant(n *html.Node, tags ...string) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			for _, t := range tags {
				if c.Data == t {
					return true
				}
			}
			if hasDescendant(c, tags...) {
				return true
			}
		}
	}
	return false
}

// table emits a data table as a Table block, or walks a layout table (one
// column, nested tables, headings or lists in cells, role=presentation) as
// ordinary flow.
func (w *walker) table(t *html.Node) {
	rows, inHead := rowsOf(t)
	maxCols := 0
	for _, r := range rows {
		maxCols = max(maxCols, len(cellsOf(r)))
	}
	layout := maxCols < 2 || len(rows) == 0 || strings.EqualFold(attr(t, "role"), "presentation") ||
		hasDescendant(t, "table", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol")
	if layout {
		w.children(t)
		w.flush()
		return
	}
	for c := t.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.Data == "caption" {
			w.add(document.Caption, collapse(textOf(c)), 0) // the table's title, unmarked
		}
	}
	tb := &document.Table{Page: 1}
	proseHead := false // a header cell holds paragraphs or long text
	for i, r := range rows {
		var cells []string
		allTH := true
		for _, c := range cellsOf(r) {
			cells = append(cells, collapse(textOf(c)))
			if c.Data != "th" {
				allTH = false
			}
		}
		empty := true
		for _, c := range cells {
			if c != "" {
				empty = false
				break
			}
		}
		if empty {
			continue
		}
		if (inHead[i] || (allTH && len(tb.Rows) == 0)) && tb.Header == nil {
			tb.Header = cells
			for _, c := range cellsOf(r) {
				if hasDescendant(c, "p", "div", "br") || utf8.RuneCountInString(collapse(textOf(c))) > 100 {
					proseHead = true
				}
			}
			continue
		}
		tb.Rows = append(tb.Rows, cells)
	}
	if tb.Header == nil && len(tb.Rows) == 0 {
		return
	}
	if w.message && (tb.Header == nil || len(tb.Rows) == 0 || proseHead) {
		// an e-mail's table without a header row is text (walkMessage),
		// and so is one whose "header" has no rows under it or holds
		// paragraphs: Foundation for Emails (Inky) writes every row of a
		// mail as <th> cells (<th><p>...</p></th><th class="expander">),
		// whose paragraphs landed as a Table's header, out of the chunks
		var lines []string
		rows := tb.Rows
		if tb.Header != nil {
			rows = append([][]string{tb.Header}, rows...)
		}
		for _, r := range rows {
			var cells []string
			for _, c := range r {
				if c != "" {
					cells = append(cells, c)
				}
			}
			lines = append(lines, strings.Join(cells, " | "))
		}
		w.add(document.NarrativeText, strings.Join(lines, "\n"), 0)
		return
	}
	var lines []string
	if tb.Header != nil {
		lines = append(lines, strings.Join(tb.Header, " | "))
	}
	for _, r := range tb.Rows {
		lines = append(lines, strings.Join(r, " | "))
	}
	w.blocks = append(w.blocks, block{cat: document.TableCat, text: strings.Join(lines, "\n"), table: tb})
}

// assemble joins blocks into the page text ("\n\n" between blocks) and sets
// code point offsets, sequence numbers, sections and table links.
func assemble(blocks []block) ([]document.Page, []document.Element, []document.Table) {
	var sb strings.Builder
	size, n := 0, 0
	for _, b := range blocks {
		if b.text != "" {
			size += len(b.text) + 2
			n++
		}
	}
	sb.Grow(size) // the page text is built once, not regrown (issue 15: a 31.5 MB page)
	els := make([]document.Element, 0, n)
	var tables []document.Table
	section := ""
	pos := 0
	for _, b := range blocks {
		if b.text == "" {
			continue
		}
		if sb.Len() > 0 {
			sb.WriteString("\n\n")
			pos += 2
		}
		n := utf8.RuneCountInString(b.text)
		if b.cat == document.Title {
			section = b.text
		}
		e := document.Element{
			Page: 1, Seq: len(els), Category: b.cat, Text: b.text,
			CharStart: pos, CharEnd: pos + n, Level: b.level, Section: section, TableSeq: -1,
		}
		if b.table != nil {
			t := *b.table
			t.Seq = len(tables)
			e.TableSeq = t.Seq
			tables = append(tables, t)
		}
		els = append(els, e)
		sb.WriteString(b.text)
		pos += n
	}
	s := sb.String()
	page := document.Page{Number: 1, Text: s, Method: document.MethodNative, CharCount: document.RealChars(s)}
	return []document.Page{page}, els, tables
}

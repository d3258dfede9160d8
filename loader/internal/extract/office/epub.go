package office

import (
	"context"
	"io"
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/document"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// EPUB is read from its XHTML spine rather than through MuPDF: MuPDF lays
// the book out into pages of its own making and returns positioned lines,
// losing headings, lists and tables; the spine keeps them, costs no layout,
// and gives one page per spine document (a chapter or a chunk of one).

// ExtractEPUB reads an EPUB: container.xml → OPF → spine documents in
// reading order, one page per non-empty spine document; h1–h6 as Title,
// li as ListItem, tables as tables, figcaption as Caption, other blocks as
// NarrativeText. Metadata from the OPF (dc:title, dc:creator, dc:language,
// dc:date, dcterms:modified).
func ExtractEPUB(ctx context.Context, p string, opts document.Options) (*document.Result, error) {
	zr, err := openPackage(p, "EPUB")
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	ix := newZipIndex(&zr.Reader)
	if ix.get("META-INF/encryption.xml") != nil {
		if data, _ := ix.readAll("META-INF/encryption.xml"); strings.Contains(string(data), "EncryptedData") && !strings.Contains(string(data), "obfuscation") {
			return nil, document.Errorf(document.KindEncrypted, "the EPUB is DRM-encrypted")
		}
	}
	opfPath := ""
	if data, err := ix.readAll("META-INF/container.xml"); err == nil {
		var c struct {
			Rootfiles []struct {
				FullPath  string `xml:"full-path,attr"`
				MediaType string `xml:"media-type,attr"`
			} `xml:"rootfiles>rootfile"`
		}
		if err := newDecoder(strings.NewReader(string(data))).Decode(&c); err == nil {
			for _, r := range c.Rootfiles {
				if opfPath == "" || r.MediaType == "application/oebps-package+xml" {
					opfPath = r.FullPath
				}
			}
		}
	}
	if opfPath == "" {
		for name := range ix.files {
			if strings.HasSuffix(strings.ToLower(name), ".opf") {
				opfPath = name
				break
			}
		}
	}
	data, err := ix.readAll(opfPath)
	if opfPath == "" || err != nil {
		return nil, document.Errorf(document.KindCorrupt, "EPUB has no package document (OPF)")
	}
	var opf struct {
		Meta struct {
			Title    []string `xml:"title"`
			Creator  []string `xml:"creator"`
			Language []string `xml:"language"`
			Date     []struct {
				Event string `xml:"event,attr"`
				Value string `xml:",chardata"`
			} `xml:"date"`
			Meta []struct {
				Property string `xml:"property,attr"`
				Value    string `xml:",chardata"`
			} `xml:"meta"`
		} `xml:"metadata"`
		Items []struct {
			ID         string `xml:"id,attr"`
			Href       string `xml:"href,attr"`
			MediaType  string `xml:"media-type,attr"`
			Properties string `xml:"properties,attr"`
		} `xml:"manifest>item"`
		Spine []struct {
			IDRef string `xml:"idref,attr"`
		} `xml:"spine>itemref"`
	}
	if err := newDecoder(strings.NewReader(string(data))).Decode(&opf); err != nil {
		return nil, xmlErr(opfPath, err)
	}
	b := newBuilderFor("epub", "application/epub+zip", opts)
	md := &b.res.Metadata
	if len(opf.Meta.Title) > 0 {
		md.Title = strings.TrimSpace(opf.Meta.Title[0])
	}
	if len(opf.Meta.Creator) > 0 {
		md.Author = strings.TrimSpace(strings.Join(opf.Meta.Creator, "; "))
	}
	if len(opf.Meta.Language) > 0 {
		md.Language = strings.TrimSpace(opf.Meta.Language[0])
	}
	for _, d := range opf.Meta.Date {
		if md.Created == "" || d.Event == "publication" {
			md.Created = normDate(d.Value)
		}
	}
	for _, m := range opf.Meta.Meta {
		if m.Property == "dcterms:modified" {
			md.Modified = normDate(m.Value)
		}
	}
	base := path.Dir(opfPath)
	hrefs := map[string]string{}
	for _, it := range opf.Items {
		if strings.Contains(it.Properties, "nav") {
			continue // the table of contents repeats the headings
		}
		if strings.Contains(it.MediaType, "html") || strings.HasSuffix(strings.ToLower(it.Href), "htm") || strings.HasSuffix(strings.ToLower(it.Href), "html") {
			hrefs[it.ID] = path.Join(base, it.Href)
		}
	}
	first := true
	read := map[string]bool{}
	for _, s := range opf.Spine {
		if err := ctxErr(ctx); err != nil {
			return nil, err
		}
		h, ok := hrefs[s.IDRef]
		if !ok {
			continue
		}
		// An href's fragment names a place in the file, not a file: some
		// generators (sisu: Debian's live-manual) list each section of a
		// chapter as an item "chapter.xhtml#o8" in the spine. The file is
		// read once, at its first item (each item was a "file does not
		// exist" warning, 143 on live-manual.en.epub, its text landing
		// from the fragment-free item only).
		if i := strings.IndexByte(h, '#'); i >= 0 {
			h = h[:i]
		}
		h = unescapeHref(h)
		if read[h] {
			continue
		}
		read[h] = true
		rc, err := ix.open(h)
		if err != nil {
			b.warn("spine item %s: %v", h, err)
			continue
		}
		if !first {
			b.breakPage()
		}
		first = false
		if err := htmlBlocks(rc, b); err != nil {
			b.warn("spine item %s: %v", h, err)
		}
		rc.Close()
	}
	b.pageBreak = false
	return b.finish(), nil
}

func unescapeHref(h string) string {
	if !strings.Contains(h, "%") {
		return h
	}
	var sb strings.Builder
	for i := 0; i < len(h); i++ {
		if h[i] == '%' && i+2 < len(h) {
			if v, err := strconv.ParseUint(h[i+1:i+3], 16, 8); err == nil {
				sb.WriteByte(byte(v))
				i += 2
				continue
			}
		}
		sb.WriteByte(h[i])
	}
	return sb.String()
}

// htmlBlocks walks an (X)HTML document into typed elements on b.
func htmlBlocks(r io.Reader, b *builder) error {
	doc, err := html.Parse(r)
	if err != nil {
		return err
	}
	w := &htmlWalker{b: b}
	w.notes, w.refIDs = noteRefs(doc)
	w.walk(doc)
	w.flush()
	return nil
}

type htmlWalker struct {
	b     *builder
	buf   strings.Builder
	cats  []document.Category // innermost typed block last
	lvls  []int
	depth int // list depth
	pre   int
	note  string // a note's "[N] ", written before its first words (epubnotes.go)
	// the document's note references (epubnotes.go): a note's id -> its
	// label, and the references' own ids (a note's link back)
	notes     map[string]string
	refIDs    map[string]bool
	noteLabel string // the label of the note being walked
}

func (w *htmlWalker) flush() {
	cat, lvl := document.NarrativeText, 0
	if n := len(w.cats); n > 0 {
		cat, lvl = w.cats[n-1], w.lvls[n-1]
	}
	w.b.add(cat, w.buf.String(), lvl)
	w.buf.Reset()
}

func (w *htmlWalker) push(c document.Category, l int) {
	w.flush()
	w.cats = append(w.cats, c)
	w.lvls = append(w.lvls, l)
}

func (w *htmlWalker) pop() {
	w.flush()
	w.cats = w.cats[:len(w.cats)-1]
	w.lvls = w.lvls[:len(w.lvls)-1]
}

func (w *htmlWalker) text(s string) {
	if w.pre > 0 {
		w.buf.WriteString(s)
		return
	}
	f := strings.Fields(s)
	if len(f) == 0 {
		if s != "" && w.buf.Len() > 0 {
			w.buf.WriteByte(' ')
		}
		return
	}
	// A space at either edge parts the words from the nodes around, a
	// no-break or other Unicode space as an ASCII one (strings.Fields
	// splits on them all): a drop cap's "<span>I</span>&#160;found"
	// landed "Ifound" before office/12.
	if r, _ := utf8.DecodeRuneInString(s); unicode.IsSpace(r) && w.buf.Len() > 0 && !w.lineStart() && !(w.noteLabel != "" && strings.HasSuffix(w.buf.String(), "] ")) {
		w.buf.WriteByte(' ')
	}
	if w.note != "" {
		w.buf.WriteString(w.note)
		w.note = ""
		if w.noteLabel != "" && noteNumbered(f[0], w.noteLabel) {
			// the note writes its number itself ("2. With a pilot")
			s = strings.TrimLeftFunc(s, unicode.IsSpace)[len(f[0]):]
			if f = strings.Fields(s); len(f) == 0 {
				return
			}
		}
	}
	w.buf.WriteString(strings.Join(f, " "))
	if r, _ := utf8.DecodeLastRuneInString(s); unicode.IsSpace(r) {
		w.buf.WriteByte(' ')
	}
}

// lineStart says whether the text so far ends a line (a <br/>): the
// source's line break or indent after a <br/> is no space to keep
// ("Line one<br />\nline two" landed "line two" after a space before
// office/30).
func (w *htmlWalker) lineStart() bool {
	t := w.buf.String()
	return t[len(t)-1] == '\n'
}

// semantics walks a MathML <semantics>: its first child, the formula as
// shown, and its annotations (TeX, StarMath, content MathML) only when
// that child has no text. Both landed before office/30: pandoc's
// f=12.5×L as "f=12.5×Lf = 12.5 \times L".
func (w *htmlWalker) semantics(n *html.Node) {
	if c := mathShownNode(n); c != nil {
		w.walk(c)
		return
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if isAnnotation(c) && strings.TrimSpace(nodeText(c)) != "" {
			w.walk(c)
			return
		}
	}
}

// mathShownNode is a <semantics>' first child that is no annotation,
// when it holds text.
func mathShownNode(n *html.Node) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || isAnnotation(c) {
			continue
		}
		if strings.TrimSpace(nodeText(c)) != "" {
			return c
		}
		return nil
	}
	return nil
}

func mathShown(n *html.Node) bool { return mathShownNode(n) != nil }

func isAnnotation(n *html.Node) bool {
	return n.Type == html.ElementNode && n.Namespace == "math" && (n.Data == "annotation" || n.Data == "annotation-xml")
}

func (w *htmlWalker) children(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.walk(c)
	}
}

func (w *htmlWalker) walk(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		w.text(n.Data)
		return
	case html.DocumentNode:
		w.children(n)
		return
	case html.ElementNode:
	default:
		return
	}
	if n.Namespace == "math" && n.Data == "semantics" {
		w.semantics(n)
		return
	}
	if label, ok := w.asideNote(n); ok {
		w.note, w.noteLabel = "["+label+"] ", label
		defer func() { w.note, w.noteLabel = "", "" }()
	}
	switch n.DataAtom {
	case atom.Script, atom.Style, atom.Head, atom.Noscript, atom.Template, atom.Iframe, atom.Object, atom.Nav:
		return
	case atom.Br:
		w.buf.WriteString("\n")
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		w.push(document.Title, int(n.Data[1]-'0'))
		w.children(n)
		w.pop()
	case atom.Li, atom.Dt:
		w.push(document.ListItem, max(w.depth, 1))
		if k, ok := noteNumber(n); ok {
			w.note = "[" + strconv.Itoa(k) + "] "
		}
		w.children(n)
		w.note = ""
		w.pop()
	case atom.A:
		if isBackLink(n) || w.noteLabel != "" && w.refIDs[hrefFragment(getAttr(n, "href"))] {
			return
		}
		if label, ok := isNoteRef(n); ok {
			w.text("[" + label + "]")
			return
		}
		w.children(n)
	case atom.Ul, atom.Ol, atom.Dl:
		w.flush()
		w.depth++
		w.children(n)
		w.depth--
		w.flush()
	case atom.Figcaption, atom.Caption:
		w.push(document.Caption, 0)
		w.children(n)
		w.pop()
	case atom.Table:
		w.flush()
		// the table's <caption> first (tableRows reads only its rows: a
		// caption was lost, office/10)
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.DataAtom == atom.Caption {
				w.walk(c)
			}
		}
		w.b.addTableRows(tableRows(n))
	case atom.Pre:
		w.push(document.NarrativeText, 0)
		w.pre++
		w.children(n)
		w.pre--
		w.pop()
	case atom.P, atom.Div, atom.Section, atom.Article, atom.Blockquote, atom.Header, atom.Footer,
		atom.Figure, atom.Dd, atom.Address, atom.Hr, atom.Main, atom.Aside, atom.Body, atom.Html, atom.Center:
		w.push(document.NarrativeText, 0)
		w.children(n)
		w.pop()
	default:
		w.children(n)
	}
}

// tableRows collects a table's rows (th/td text), nested tables flattened
// into their cell.
func tableRows(t *html.Node) [][]string {
	var rows [][]string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch c.DataAtom {
			case atom.Tr:
				var row []string
				for td := c.FirstChild; td != nil; td = td.NextSibling {
					if td.Type == html.ElementNode && (td.DataAtom == atom.Td || td.DataAtom == atom.Th) {
						row = append(row, strings.Join(strings.Fields(nodeText(td)), " "))
						if v := getAttr(td, "colspan"); v != "" {
							if k, err := strconv.Atoi(v); err == nil && k > 1 && k <= maxRepeat {
								for i := 1; i < k; i++ {
									row = append(row, "")
								}
							}
						}
					}
				}
				rows = append(rows, row)
			case atom.Table:
				// nested table outside a cell: rare, keep its rows
				rows = append(rows, tableRows(c)...)
			default:
				walk(c)
			}
		}
	}
	walk(t)
	return rows
}

func nodeText(n *html.Node) string {
	var sb strings.Builder
	var f func(*html.Node)
	f = func(n *html.Node) {
		if n.Type == html.TextNode {
			sb.WriteString(n.Data)
			return
		}
		if n.Type == html.ElementNode && (n.DataAtom == atom.Script || n.DataAtom == atom.Style) {
			return
		}
		if isAnnotation(n) && n.Parent != nil && n.Parent.Data == "semantics" && mathShown(n.Parent) {
			return // the formula as shown has the text (semantics)
		}
		if n.Type == html.ElementNode && n.DataAtom == atom.Br {
			sb.WriteString(" ")
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			f(c)
		}
		if n.Type == html.ElementNode && (n.DataAtom == atom.P || n.DataAtom == atom.Div) {
			sb.WriteString(" ")
		}
	}
	f(n)
	return sb.String()
}

func getAttr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// Package html extracts HTML documents. It takes the bytes of an HTML file
// (encoding from its BOM, UTF-16/32 pattern or <meta charset>, else UTF-8 or
// a guessed legacy charset) and produces one native page whose text is the
// main content's blocks joined by blank lines, with typed elements: Title
// for h1–h6 (Level = heading level), ListItem for li (Level = list depth),
// Table (plus a document.Table with header and rows), Caption, and
// NarrativeText for paragraphs. Navigation, asides, scripts, styles, forms
// and page-level header/footer are dropped (header/footer are kept when they
// are all there is). When readability finds a substantial main content in
// a page with much more text around it, only the blocks it kept stay, less
// those go-trafilatura's text does not support (agree.go: long blocks
// anywhere, short ones at the article's edges, long captions between its
// paragraphs; when trafilatura finds too
// little on its own, its fallback's text: readability's choice as
// trafilatura cleans it), or the page's blocks
// trafilatura holds when readability took only a part or another part, and
// with the standfirst above them put back when the page's meta description
// repeats it (standfirst.go); the structure always comes from our own walk of the DOM, because content
// extractors flatten headings, lists and tables of short documents. Metadata: title,
// author, language (html lang), description. XML files are handed to the
// text extractor.
package html

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"

	readability "codeberg.org/readeck/go-readability/v2"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/text"
	"github.com/docket-dev/docket/loader/internal/extract/version"
	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/unicode/norm"
)

// Version is recorded as the pages' extractor_version.
const Version = version.HTML

// Extract reads the file at path and extracts it.
func Extract(ctx context.Context, path string, info detect.Info, opts document.Options) (*document.Result, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("html %s: %w", path, err)
	}
	return ExtractBytes(ctx, data, info, opts)
}

// ExtractBytes extracts in-memory HTML: on pages of minMainPage
// characters or more, their main content.
func ExtractBytes(ctx context.Context, data []byte, info detect.Info, opts document.Options) (*document.Result, error) {
	return extractBytes(ctx, data, info, opts, true)
}

// WholePage extracts in-memory HTML whole, picking no main content: an
// e-mail's HTML body is the message itself, not a web page around an
// article, and readability would leave out a newsletter's items or a
// receipt's lines (email/8). It is read as a message (walkMessage): its
// header, footer, nav and aside are text, and only a table with a header
// row is a table.
func WholePage(ctx context.Context, data []byte, info detect.Info) (*document.Result, error) {
	return extractBytes(ctx, data, info, document.Options{}, false)
}

func extractBytes(ctx context.Context, data []byte, info detect.Info, opts document.Options, pickMain bool) (*document.Result, error) {
	if info.Type == detect.XML {
		return text.ExtractBytes(ctx, data, info, opts)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s, enc, warnings, err := decode(data, info)
	if err != nil {
		return nil, err
	}
	doc, err := html.Parse(strings.NewReader(s))
	if err != nil {
		// x/net/html refuses elements nested deeper than 512 (issue 18: the
		// page lost all its text); the tags past a depth go, their text stays.
		doc, err = html.Parse(strings.NewReader(flattenDeep(s, 256)))
		if err != nil {
			return nil, document.Errorf(document.KindCorrupt, "cannot parse HTML: %v", err)
		}
		warnings = append(warnings, "elements nested deeper than 256 levels were flattened (their text is kept)")
	}
	frames, frameset, alternative, flattened := framesetText(doc)
	if flattened {
		warnings = append(warnings, "elements nested deeper than 256 levels in the frameset's <noframes> alternative were flattened (their text is kept)")
	}
	compose(doc)
	res := &document.Result{
		Type: info.Type, MIME: info.MIME, Warnings: warnings, ExtractorVersion: Version,
	}
	if res.Type == "" {
		res.Type = detect.HTML
	}
	res.Metadata = metadata(doc)
	if res.Metadata.Extra == nil {
		res.Metadata.Extra = map[string]string{}
	}
	if enc != detect.UTF8 {
		res.Metadata.Extra["encoding"] = enc
	}
	var blocks []block
	if pickMain {
		blocks = walkDocument(doc, true)
		if len(blocks) == 0 {
			// Nothing outside header/footer/nav: keep them rather than nothing.
			blocks = walkDocument(doc, false)
		}
	} else {
		blocks = walkMessage(doc)
	}
	scope, by := "whole_page", ""
	page := blocks
	if frameset {
		// its <noframes> alternative, whole (framesetText)
		scope = "noframes"
		res.Metadata.Extra["frames"] = framesNamed(frames, " ")
	} else if pickMain && ctx.Err() == nil {
		// Over agreeMaxBytes nothing reads doc after readability (no
		// trafilatura check), so readability may work on it rather than on
		// a copy: the copy was the largest single allocation of a big page.
		if kept, node, ok := mainContent(doc, blocks, len(s) > agreeMaxBytes); ok {
			blocks, scope, by = kept, "main_content", "readability"
			if len(s) > agreeMaxBytes {
				res.Metadata.Extra["content_check"] = fmt.Sprintf("trafilatura's check skipped: the page's HTML is %.1f MB, over %d MB (its copies of the page would cost tens of times that in memory)", float64(len(s))/(1<<20), agreeMaxBytes>>20)
			} else if ctx.Err() == nil {
				traf, own, ownTooShort, failed := judgeText(doc, node, blocks)
				if failed != "" {
					res.Metadata.Extra["content_check"] = "trafilatura's check failed (" + failed + "): readability's choice kept unchecked"
				}
				agreed, how := agree(blocks, page, traf)
				switch how {
				case "checked":
					blocks, by = agreed, "readability+trafilatura"
					if !ownTooShort {
						var n int
						if blocks, n = withOpening(blocks, kept, page, traf); n > 0 {
							res.Metadata.Extra["content_check"] = fmt.Sprintf("readability's choice lacked the article's opening that trafilatura's text starts with: %d block(s) of the page above it that trafilatura's text holds were put back", n)
						}
					}
					if ownTooShort {
						blocks = dropRepeatedRuns(blocks, own)
						res.Metadata.Extra["content_check"] = "trafilatura found too little on its own to judge by (its fallback's test: under half of readability's text, or no paragraphs); readability's choice was checked against its own text as trafilatura's fallback cleans it (dates, captions, buttons, forms out)"
					}
				case "widened":
					blocks, by = agreed, "trafilatura"
					res.Metadata.Extra["content_check"] = "readability's choice widened: its text is within trafilatura's, which kept twice as many words (or half as many again, opening with text readability left out); the page's blocks trafilatura's text holds are the main content"
				case "switched":
					blocks, by = agreed, "trafilatura"
					res.Metadata.Extra["content_check"] = "readability and trafilatura chose different parts of the page (under half of readability's words are in trafilatura's text); the page's blocks trafilatura's text holds are the main content"
				}
			}
		}
	}
	if scope == "main_content" {
		blocks = withStandfirst(blocks, page, res.Metadata.Extra["description"])
	}
	// content_scope (staging.extractions.metadata) says whether the page
	// text is the page's main content or the whole page, or, on a frameset
	// page, its <noframes> alternative (frames: its frames' sources, in
	// order; the page is flagged ReviewFrameset); content_by, for
	// main content, whether trafilatura's text checked readability's
	// blocks ("readability+trafilatura"), could not ("readability"), or
	// chose the page's blocks it holds instead ("trafilatura": readability
	// took a part of the article, or another part of the page).
	res.Metadata.Extra["content_scope"] = scope
	if by != "" {
		res.Metadata.Extra["content_by"] = by
	}
	res.Pages, res.Elements, res.Tables = assemble(blocks)
	if res.Metadata.Title == "" {
		for _, e := range res.Elements {
			if e.Category == document.Title {
				res.Metadata.Title = e.Text
				break
			}
		}
	}
	res.Metadata.PageCount = 1
	if frameset {
		res.Flag(0, document.ReviewFrameset, "%s", framesetReview(frames, alternative))
	}
	return res, nil
}

// softHyphen is &shy;.
const softHyphen = '\u00ad'

// compose puts the page's text and attribute values in NFC, as go-readability
// and go-trafilatura give theirs: a page written decomposed ("u" + U+0308 for
// "ü", as macOS file names and text pasted from them are) would land text
// that a typed "geprüft" does not match. It runs on the parsed nodes, not on
// the source: NFC of the source could join a combining mark to the ">" or
// "=" before it (">" + U+0338 is "≯"). Text already in NFC (nearly every
// page) is only scanned.
//
// Soft hyphens (&shy;, U+00AD) leave the text and the attribute values
// first, as readability and trafilatura drop them from text: a hint where a
// word may break at a line's end, which pages hyphenated for justified text
// put between most syllables ("schlen&shy;dern"), so that the landed word
// matched neither a typed word nor trafilatura's text. The attributes too:
// a meta description hyphenated like its page no longer matched the
// standfirst once the text had lost them (TestStandfirstSoftHyphens).
func compose(n *html.Node) {
	if n.Type == html.TextNode {
		n.Data = composed(n.Data)
	}
	for i, a := range n.Attr {
		n.Attr[i].Val = composed(a.Val)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		compose(c)
	}
}

// composed is s in NFC without soft hyphens (compose), s itself when it is
// so already.
func composed(s string) string {
	if strings.IndexRune(s, softHyphen) >= 0 {
		s = strings.ReplaceAll(s, string(softHyphen), "")
	}
	if !norm.NFC.IsNormalString(s) {
		s = norm.NFC.String(s)
	}
	return s
}

// decode picks the encoding: a BOM or UTF-16/32 pattern from detection
// first; then, for byte-oriented encodings, UTF-8 when the whole file is
// valid UTF-8 (a stale <meta charset> is the commoner mistake than UTF-8 by
// accident), else the <meta> declaration, else a guessed legacy charset.
func decode(data []byte, info detect.Info) (string, string, []string, error) {
	switch enc := info.Encoding; enc {
	case detect.UTF16LE, detect.UTF16BE, detect.UTF32LE, detect.UTF32BE:
		return text.Decode(data, enc)
	}
	body := bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF})
	if utf8.Valid(body) {
		return text.Decode(body, detect.UTF8)
	}
	// DetermineEncoding returns the <meta> charset, or windows-1252 when
	// nothing is declared (it cannot say which); undeclared bytes go to the
	// guesser a text file's bytes go to (chardet's guess checked against
	// Windows-1250 and ISO-8859-2 by their letters, text/17: a Polish page
	// saved without a charset landed as Windows-1252 mojibake).
	_, name, _ := charset.DetermineEncoding(data, "")
	if name == "" || name == "utf-8" || strings.HasPrefix(name, "utf-16") ||
		(name == "windows-1252" && !metaDeclares(data)) {
		name = detect.GuessTextCharset(data)
	}
	return text.Decode(data, name)
}

// metaDeclares says whether the first KB declares a charset.
func metaDeclares(data []byte) bool {
	head := bytes.ToLower(data[:min(len(data), 1024)])
	return bytes.Contains(head, []byte("charset"))
}

// metadata reads title, author, language and description from the head.
func metadata(doc *html.Node) document.Metadata {
	var md document.Metadata
	extra := map[string]string{}
	var visit func(n *html.Node)
	visit = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "html":
				if l := attr(n, "lang"); l != "" {
					md.Language = strings.TrimSpace(l)
				} else if l := attr(n, "xml:lang"); l != "" {
					md.Language = strings.TrimSpace(l)
				}
			case "title":
				if md.Title == "" {
					md.Title = collapse(textOf(n))
				}
			case "meta":
				name := strings.ToLower(attr(n, "name"))
				if name == "" {
					name = strings.ToLower(attr(n, "property"))
				}
				if name == "" {
					name = strings.ToLower(attr(n, "http-equiv"))
				}
				content := collapse(attr(n, "content"))
				if content == "" {
					break
				}
				switch name {
				case "author", "dc.creator", "article:author":
					if md.Author == "" {
						md.Author = content
					}
				case "content-language", "language", "dc.language":
					if md.Language == "" {
						md.Language = content
					}
				case "description", "og:description":
					if extra["description"] == "" {
						extra["description"] = content
					}
				case "keywords":
					extra["keywords"] = content
				case "og:title":
					extra["og_title"] = content
				case "date", "dc.date", "dcterms.created", "article:published_time":
					if md.Created == "" {
						md.Created = content
					}
				case "dcterms.modified", "article:modified_time", "last-modified":
					if md.Modified == "" {
						md.Modified = content
					}
				}
			case "body":
				return // metadata lives in the head
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			visit(c)
		}
	}
	visit(doc)
	if md.Title == "" {
		md.Title = extra["og_title"]
	}
	delete(extra, "og_title")
	if len(extra) > 0 {
		md.Extra = extra
	}
	return md
}

// mainContent asks readability (readeck's maintained fork of Mozilla's
// algorithm) for the page's main content and walks the article node it
// returns with our own walker, so the structure (headings, lists, tables)
// is ours and the choice of content is the library's. (Filtering our own
// blocks by the library's text kept navigation and boilerplate: word F1 0.90
// against 0.955 for the library alone on held-out news pages.)
// go-trafilatura then second-guesses its long blocks (agree).
// Short documents (under minMainPage characters, a Chinese character
// counted as the three of its English translation) are taken whole: there is
// no boilerplate to lose and readability flattens them.
//
// With mutate, readability works on doc itself (it rewrites the tree: doc
// must not be read afterwards) instead of a copy; the choice is the same.
func mainContent(doc *html.Node, blocks []block, mutate bool) ([]block, *html.Node, bool) {
	total := 0
	for _, b := range blocks {
		total += textWidth(b.text)
	}
	if total < minMainPage {
		return nil, nil, false
	}
	var node *html.Node
	func() {
		defer func() {
			if recover() != nil { // a library panic must not cost the document
				node = nil
			}
		}()
		parser := readability.NewParser()
		// Its node keeps the page's class attributes (the walker reads
		// none): when trafilatura's fallback takes the node, its class
		// rules prune the widgets in it (trafilaturaRun, PruneFallback).
		parser.KeepClasses = true
		parse := parser.ParseDocument // works on a copy of doc
		if mutate {
			parse = parser.ParseAndMutate
		}
		art, err := parse(doc, nil)
		if err == nil {
			node = art.Node
		}
	}()
	if node == nil {
		return nil, nil, false
	}
	w := &walker{inMain: 1}
	w.walk(node)
	w.flush()
	mainLen := 0
	for _, b := range w.blocks {
		mainLen += textWidth(b.text)
	}
	if mainLen < minMainText {
		return nil, nil, false // readability found next to nothing: keep the page
	}
	return w.blocks, node, true
}

const (
	minMainPage = 500 // characters of a page below which it is taken whole (textWidth: a Han character counts three, a kana or Hangul one two)
	minMainText = 140 // characters readability must keep to be believed (textWidth)
)

// flattenDeep drops the tags nested deeper than max (their text and the
// shallower markup stay), for pages the parser refuses.
func flattenDeep(s string, max int) string {
	z := html.NewTokenizer(strings.NewReader(s))
	var b strings.Builder
	depth := 0
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return b.String()
		case html.StartTagToken:
			if name, _ := z.TagName(); voidElements[string(name)] {
				break
			}
			depth++
			if depth > max {
				continue
			}
		case html.EndTagToken:
			depth--
			if depth >= max {
				continue
			}
		}
		b.Write(z.Raw())
	}
}

var voidElements = map[string]bool{"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true,
	"input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true}

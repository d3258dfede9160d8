package html

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"golang.org/x/text/unicode/norm"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/extracttest"
)

type el struct {
	cat   document.Category
	text  string
	level int
}

func extractFile(t *testing.T, p string) *document.Result {
	t.Helper()
	info, err := detect.Detect(p)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Extract(context.Background(), p, info, document.Options{})
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	checkResult(t, p, res)
	return res
}

func extractData(t *testing.T, name string, data []byte) *document.Result {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return extractFile(t, p)
}

func elements(res *document.Result) []el {
	var out []el
	for _, e := range res.Elements {
		out = append(out, el{e.Category, e.Text, e.Level})
	}
	return out
}

func sameEls(t *testing.T, got, want []el) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d elements\n%v\nwant %d\n%v", len(got), got, len(want), want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("element %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestStructure(t *testing.T) {
	res := extractFile(t, filepath.Join("testdata", "structure.html"))
	sameEls(t, elements(res), []el{
		{document.Title, "Sales report", 1},
		{document.NarrativeText, "Sales grew in every region.\nSecond line.", 0},
		{document.Title, "Highlights", 2},
		{document.ListItem, "North up", 1},
		{document.ListItem, "South flat", 1},
		{document.ListItem, "Retail", 2},
		{document.ListItem, "Online", 2},
		{document.Caption, "Regional totals", 0},
		{document.TableCat, "Region | Total\nNorth | 1 200\nSouth | 900", 0},
		{document.NarrativeText, "A layout cell", 0},
		{document.NarrativeText, "line one\n    indented", 0},
	})
	if len(res.Tables) != 1 {
		t.Fatalf("tables: %+v", res.Tables)
	}
	tb := res.Tables[0]
	if strings.Join(tb.Header, ",") != "Region,Total" || len(tb.Rows) != 2 || strings.Join(tb.Rows[0], ",") != "North,1 200" {
		t.Errorf("table %+v", tb)
	}
	if res.Elements[8].TableSeq != 0 || res.Elements[8].Section != "Highlights" {
		t.Errorf("table element %+v", res.Elements[8])
	}
	md := res.Metadata
	if md.Title != "Quarterly Report" || md.Language != "en-GB" || md.Author != "Ann Example" || md.Extra["description"] != "Sales by region" {
		t.Errorf("metadata %+v", md)
	}
	for _, bad := range []string{"Home", "banner", "Related", "Copyright", "hidden", "invisible", "not text", "color"} {
		if strings.Contains(res.Pages[0].Text, bad) {
			t.Errorf("page text keeps %q", bad)
		}
	}
	if res.Pages[0].Method != document.MethodNative || res.Type != detect.HTML {
		t.Errorf("page %+v", res.Pages[0])
	}
}

func TestChromeOnly(t *testing.T) {
	res := extractData(t, "chrome.html", []byte("<html><header><p>Header</p></header><body></body><footer><p>Footer</p></footer></html>"))
	if got := res.Pages[0].Text; got != "Header\n\nFooter" {
		t.Errorf("page text %q, want header and footer kept when they are all there is", got)
	}
}

func TestArticleHeaderKept(t *testing.T) {
	res := extractData(t, "a.html", []byte("<body><header>Site</header><article><header><h1>Post title</h1></header><p>Body.</p></article></body>"))
	sameEls(t, elements(res), []el{{document.Title, "Post title", 1}, {document.NarrativeText, "Body.", 0}})
}

func u16(s string, be, bom bool) []byte {
	u := utf16.Encode([]rune(s))
	if bom {
		u = append([]uint16{0xFEFF}, u...)
	}
	var out []byte
	for _, c := range u {
		if be {
			out = binary.BigEndian.AppendUint16(out, c)
		} else {
			out = binary.LittleEndian.AppendUint16(out, c)
		}
	}
	return out
}

func TestEncodings(t *testing.T) {
	page := `<html><head><meta charset="utf-16"><title>Stahl</title></head><body><h1>Größe</h1><p>Zugfestigkeit ≥ 800 N/mm²</p></body></html>`
	want := []el{{document.Title, "Größe", 1}, {document.NarrativeText, "Zugfestigkeit ≥ 800 N/mm²", 0}}
	for name, data := range map[string][]byte{
		"utf8.html":        []byte(page),
		"utf16le-bom.html": u16(page, false, true),
		"utf16be-bom.html": u16(page, true, true),
		"utf16le.html":     u16(page, false, false),
	} {
		t.Run(name, func(t *testing.T) {
			res := extractData(t, name, data)
			sameEls(t, elements(res), want)
			if res.Metadata.Title != "Stahl" {
				t.Errorf("title %q", res.Metadata.Title)
			}
		})
	}
	t.Run("cp1252-declared", func(t *testing.T) {
		res := extractFile(t, filepath.Join("testdata", "cp1252.html"))
		sameEls(t, elements(res), []el{{document.Title, "Grüße", 1}, {document.NarrativeText, "Der Preis betrug 15,50 € “gut”.", 0}})
		if res.Metadata.Title != "Café" || res.Metadata.Extra["encoding"] != "windows-1252" {
			t.Errorf("metadata %+v", res.Metadata)
		}
	})
	t.Run("cp1252-undeclared", func(t *testing.T) {
		res := extractData(t, "x.html", []byte("<p>Sch\xf6ne Gr\xfc\xdfe aus K\xf6ln und M\xfcnchen, \x93sagte\x94 sie.</p>"))
		sameEls(t, elements(res), []el{{document.NarrativeText, "Schöne Grüße aus Köln und München, “sagte” sie.", 0}})
	})
}

// TestMainContent: a page whose article sits among a lot of link
// boilerplate outside any nav element keeps the article.
func TestMainContent(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("<html><body><div class=menu>")
	for i := 0; i < 60; i++ {
		sb.WriteString(`<div class="link"><a href="/x">Related link number ` + strings.Repeat("x", i%5+1) + `</a></div>`)
	}
	sb.WriteString("</div><div class=content><h2>The article</h2>")
	for i := 0; i < 4; i++ {
		sb.WriteString("<p>This paragraph of the article explains at some length how the quarterly figures were gathered, checked and reported to the board, sentence after sentence, so that it is clearly the main content.</p>")
	}
	sb.WriteString("</div></body></html>")
	res := extractData(t, "page.html", []byte(sb.String()))
	text := res.Pages[0].Text
	if !strings.Contains(text, "The article") || strings.Count(text, "quarterly figures") != 4 {
		t.Errorf("article lost: %q", text)
	}
	if strings.Contains(text, "Related link") {
		t.Errorf("link boilerplate kept: %q", text[:200])
	}
	if got := res.Metadata.Extra["content_scope"]; got != "main_content" {
		t.Errorf("content_scope %q, want main_content", got)
	}
	if got := elements(res)[0]; got != (el{document.Title, "The article", 2}) {
		t.Errorf("first element %+v, want the article's heading", got)
	}
	extracttest.Golden(t, "main-content", res, nil)
}

// TestMenuRoleKept: role="menu" is a widget, not page chrome; a page whose
// content is such a list keeps it, and a short page is marked whole_page.
func TestMenuRoleKept(t *testing.T) {
	res := extractData(t, "menu.html", []byte(`<html><body><nav><a href="/">Home</a></nav><h1>Opening hours</h1>
<ul role="menu"><li role="menuitem">Monday to Friday nine to five</li><li role="menuitem">Saturday ten to two</li><li role="menuitem">Closed on Sundays and public holidays</li></ul></body></html>`))
	text := res.Pages[0].Text
	for _, w := range []string{"Monday to Friday nine to five", "Saturday ten to two", "Closed on Sundays"} {
		if !strings.Contains(text, w) {
			t.Errorf("menu item %q lost: %q", w, text)
		}
	}
	if strings.Contains(text, "Home") {
		t.Errorf("nav kept: %q", text)
	}
	if got := res.Metadata.Extra["content_scope"]; got != "whole_page" {
		t.Errorf("content_scope %q, want whole_page", got)
	}
	extracttest.Golden(t, "menu-role", res, nil)
}

func TestXMLGoesToText(t *testing.T) {
	res := extractData(t, "d.xml", []byte(`<?xml version="1.0"?><r><a>One</a><b>Two</b></r>`))
	if res.Pages[0].Text != "One\nTwo" {
		t.Errorf("xml text %q", res.Pages[0].Text)
	}
}

func TestEmpty(t *testing.T) {
	res, err := ExtractBytes(context.Background(), []byte("<html><body>  </body></html>"), detect.Info{Type: detect.HTML, Encoding: detect.UTF8}, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pages) != 1 || res.Pages[0].Text != "" || len(res.Elements) != 0 {
		t.Errorf("%+v", res)
	}
}

// TestDeepNestingKeepsText (issue 18): a page nested deeper than the
// parser's 512 levels keeps its text.
func TestDeepNestingKeepsText(t *testing.T) {
	page := "<html><body><p>Opening words.</p>" + strings.Repeat("<div>", 2000) + "<p>The deep paragraph.</p>" +
		strings.Repeat("</div>", 2000) + "<p>Closing words.</p></body></html>"
	res, err := ExtractBytes(context.Background(), []byte(page), detect.Info{Type: detect.HTML, Encoding: detect.UTF8}, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Opening words.", "The deep paragraph.", "Closing words."} {
		if !strings.Contains(res.Pages[0].Text, want) {
			t.Errorf("text lost %q: %.200q", want, res.Pages[0].Text)
		}
	}
}

// TestDecomposedTextComposed: a page written in decomposed form (macOS file
// names and text pasted from them: "u" + U+0308 for "ü") lands composed
// (NFC), as go-readability and go-trafilatura give it, so that the text
// matches what a person types ("geprüft") in SQL and the checks against
// trafilatura compare like with like (go-trafilatura's comparison page
// adac.de.kindersitze lost a snippet this way).
func TestDecomposedTextComposed(t *testing.T) {
	nfd := func(s string) string { return norm.NFD.String(s) }
	page := `<html><head><title>` + nfd("Größe prüfen") + `</title><meta name="description" content="` +
		nfd("Gurtlänge prüfen") + `"></head><body><h1>` + nfd("Größe prüfen") + `</h1><p>` +
		nfd("Besonders bei Babyschalen sollte geprüft werden, ob die Gurtlänge ausreicht.") + `</p></body></html>`
	res := extractData(t, "nfd.html", []byte(page))
	want := []el{{document.Title, "Größe prüfen", 1}, {document.NarrativeText, "Besonders bei Babyschalen sollte geprüft werden, ob die Gurtlänge ausreicht.", 0}}
	sameEls(t, elements(res), want)
	if got := res.Pages[0].Text; !norm.NFC.IsNormalString(got) || !strings.Contains(got, "geprüft") {
		t.Errorf("page text %q is not composed", got)
	}
	if res.Metadata.Title != "Größe prüfen" || res.Metadata.Extra["description"] != "Gurtlänge prüfen" {
		t.Errorf("metadata title %q, description %q: want them composed", res.Metadata.Title, res.Metadata.Extra["description"])
	}
}

// TestSoftHyphensDropped: a soft hyphen (&shy;, U+00AD) is a hyphenation
// hint no reader sees unless the word breaks at a line's end; pages
// hyphenated for justified text put one between most syllables, and the
// landed words ("schlen\u00addern") matched neither a typed word nor
// trafilatura's text (go-trafilatura's comparison page wehranlage-horka.de
// lost its last paragraph this way). They go, as readability and
// trafilatura drop them.
func TestSoftHyphensDropped(t *testing.T) {
	page := `<html><body><h1>Historischer Markt</h1><p>W&auml;hrend Sie &uuml;ber den Markt schlen&shy;dern, stau&shy;nen und allerlei feine K&ouml;st&shy;lich&shy;kei&shy;ten probieren, sind Ihre Kinder begeistert.</p></body></html>`
	res := extractData(t, "shy.html", []byte(page))
	want := []el{{document.Title, "Historischer Markt", 1}, {document.NarrativeText, "Während Sie über den Markt schlendern, staunen und allerlei feine Köstlichkeiten probieren, sind Ihre Kinder begeistert.", 0}}
	sameEls(t, elements(res), want)
}

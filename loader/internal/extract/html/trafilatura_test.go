package html

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	trafilatura "github.com/markusmobius/go-trafilatura"
	_ "github.com/markusmobius/go-trafilatura/withmetadata" // TestTrafilaturaContentOnly reads metadata
	"golang.org/x/net/html"
)

// TestTrafilaturaLinearInParagraphs: go-trafilatura's text of a page of
// many paragraphs allocates in proportion to the page, not to its square
// (the fork's extractContent joined every <p>'s text with +=: a page of
// 2 MB of paragraphs took 16 s, one of 20 MB over loader.timeout, where
// readability alone had landed it). Measured in bytes allocated, not time.
func TestTrafilaturaLinearInParagraphs(t *testing.T) {
	var b strings.Builder
	b.WriteString("<html><head><title>Report</title></head><body><nav>menu</nav><article>")
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "<p>Paragraph %d of the long report talks about the committee and its members, who met on many days to decide things.</p>\n", i)
	}
	b.WriteString("</article></body></html>")
	doc, err := html.Parse(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	text, _, failed := trafilaturaText(doc, nil)
	if failed != "" {
		t.Fatalf("trafilatura failed: %s", failed)
	}
	runtime.ReadMemStats(&after)
	if !strings.Contains(text, "Paragraph 4000 of the long report") {
		t.Fatalf("trafilatura's text lacks the paragraphs (%d bytes)", len(text))
	}
	// linear: ~90 MiB here; += over ~8,000 paragraphs: ~4 GiB
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<30 {
		t.Errorf("trafilatura allocated %d MiB for a 1 MiB page: quadratic in its paragraphs", alloc>>20)
	}
}

// TestTrafilaturaContentOnly: the fork's ContentOnly (docket reads none of
// trafilatura's metadata) skips the page's metadata and the language
// classification, half the library's CPU on corpus/html-main, and the
// extracted text stays the same.
func TestTrafilaturaContentOnly(t *testing.T) {
	page := strings.Replace(twoBoxArticle(), "<head>", `<head><meta name="author" content="Jane Roe">`, 1)
	for _, fallback := range []bool{false, true} {
		var texts [2]string
		for i, only := range []bool{false, true} {
			doc, err := html.Parse(strings.NewReader(page))
			if err != nil {
				t.Fatal(err)
			}
			opts := trafilatura.Options{ExcludeComments: true, ContentOnly: only, EnableFallback: fallback}
			if fallback {
				cand := &html.Node{Type: html.ElementNode, Data: "div"}
				opts.FallbackCandidates = &trafilatura.FallbackCandidates{Readability: cand, Distiller: cand}
			}
			res, err := trafilatura.ExtractDocument(doc, opts)
			if err != nil {
				t.Fatal(err)
			}
			texts[i] = res.ContentText
			switch md := res.Metadata; {
			case only && (md.Title != "" || md.Author != "" || md.Language != ""):
				t.Errorf("ContentOnly: metadata read anyway: %+v", md)
			case !only && (md.Title != "Council approves budget" || md.Author != "Jane Roe" || md.Language != "en"):
				t.Errorf("metadata title %q author %q language %q", md.Title, md.Author, md.Language)
			}
		}
		if texts[0] == "" || texts[0] != texts[1] {
			t.Errorf("fallback %v: text with ContentOnly %q, without %q", fallback, texts[1], texts[0])
		}
	}
}

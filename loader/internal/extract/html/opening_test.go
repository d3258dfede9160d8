package html

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// openingPage is a news article whose first two paragraphs stand in a box
// of their own above the body (a class readability reads as unlikely
// content, so its choice is the body's box; trafilatura takes the whole
// <article>), a share widget between them.
func openingPage() []byte {
	var b strings.Builder
	b.WriteString(`<html><head><title>Flood in the old town</title></head><body><nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav>`)
	b.WriteString(`<article><div class="intro-header"><h1>Flood in the old town</h1>`)
	for _, p := range floodParagraphs[:2] {
		b.WriteString(`<p class="lead">` + p + "</p>\n")
	}
	b.WriteString(`</div><div class="share"><a href="/s1">Share</a> <a href="/s2">Tweet</a></div><div class="content"><div class="text">`)
	for _, p := range floodParagraphs[2:] {
		b.WriteString("<p>" + p + "</p>\n")
	}
	b.WriteString(`<p>Engineers will inspect the bridge piers on Thursday, and the council expects to open the bridge to buses again by the end of next week.</p>`)
	b.WriteString(`</div></div></article><footer><p>Copyright 2021 Town News. All rights reserved.</p></footer></body></html>`)
	return []byte(b.String())
}

// TestOpeningOutsideReadabilitysChoiceKept: readability's choice is the
// body's box, without the article's first two paragraphs; trafilatura's
// text opens with them but holds under 1.5 times readability's words, so
// agree did not widen and the opening was lost. It is put back above the
// body, in the page's order, the headline and the share widget left out,
// and content_check says so. Fails before html/36 (the two paragraphs
// were missing).
func TestOpeningOutsideReadabilitysChoiceKept(t *testing.T) {
	res := extractData(t, "opening.html", openingPage())
	text := res.Pages[0].Text
	at := -1
	for _, p := range floodParagraphs {
		i := strings.Index(text, p)
		if i < 0 {
			t.Fatalf("lost: %q\nin %q", p, text)
		}
		if i < at {
			t.Errorf("%q out of the page's order in %q", p, text)
		}
		at = i
	}
	for _, s := range []string{"Share", "Tweet", "Home"} {
		if strings.Contains(text, s) {
			t.Errorf("%q was landed: %q", s, text)
		}
	}
	if got := res.Metadata.Extra["content_by"]; got != "readability+trafilatura" {
		t.Errorf("content_by %q, want readability+trafilatura", got)
	}
	if got := res.Metadata.Extra["content_check"]; !strings.Contains(got, "opening") || !strings.Contains(got, "2 block(s)") {
		t.Errorf("content_check %q does not say two blocks of the opening were put back", got)
	}
}

// TestWithOpening: the rule on hand-made blocks. Only blocks from the
// first one inside trafilatura's opening down to readability's first go
// back (a menu above, a related list below never), the headline and a
// byline before the first paragraph and a photo credit between do not;
// nothing goes back when readability's text has trafilatura's opening, or
// when the opening is nowhere above readability's first block.
func TestWithOpening(t *testing.T) {
	p := floodParagraphs
	related := "Read more: the bridge that fell in the storm of 1998 and the families who rebuilt the lower town in the years that followed"
	page := []block{
		{cat: document.ListItem, text: "Home News Sport Weather Traffic Contact Subscribe Login Search Archive Jobs Events"},
		{cat: document.Title, text: "Flood in the old town"},
		{cat: document.NarrativeText, text: "By Jane Reporter"},
		{cat: document.NarrativeText, text: p[0]},
		{cat: document.NarrativeText, text: "Photo: City Hall Press"},
		{cat: document.NarrativeText, text: p[1]},
		{cat: document.NarrativeText, text: "Share Tweet"},
		{cat: document.NarrativeText, text: p[2]},
		{cat: document.NarrativeText, text: p[3]},
		{cat: document.NarrativeText, text: p[4]},
		{cat: document.NarrativeText, text: related},
	}
	read := page[7:10] // readability's choice: the body without its opening
	traf := strings.Join([]string{"Flood in the old town", "By Jane Reporter", p[0], "Photo: City Hall Press", p[1], p[2], p[3], p[4], related}, "\n")
	got, n := withOpening(read, read, page, traf)
	want := []string{p[0], p[1], p[2], p[3], p[4]}
	if strings.Join(blockTexts(got), "|") != strings.Join(want, "|") || n != 2 {
		t.Errorf("put back %d, kept %q\nwant 2, %q", n, blockTexts(got), want)
	}
	// agree dropped one of readability's blocks: that stays dropped.
	if got, _ := withOpening(read[:2], read, page, traf); strings.Join(blockTexts(got), "|") != strings.Join(want[:4], "|") {
		t.Errorf("kept %q, want %q", blockTexts(got), want[:4])
	}
	// readability has the opening: nothing to put back.
	withLead := page[3:10]
	if got, n := withOpening(withLead, withLead, page, traf); n != 0 || len(got) != len(withLead) {
		t.Errorf("readability had the opening, yet %d blocks were put back: %q", n, blockTexts(got))
	}
	// trafilatura's opening is not above readability's first block (it
	// opens with the related list): nothing goes back.
	odd := related + "\n" + p[2] + "\n" + p[3] + "\n" + p[4]
	if got, n := withOpening(read, read, page, odd); n != 0 || len(got) != len(read) {
		t.Errorf("an opening below readability's choice put %d blocks back: %q", n, blockTexts(got))
	}
	// no text of trafilatura's: nothing to judge by.
	if got, n := withOpening(read, read, page, ""); n != 0 || len(got) != len(read) {
		t.Errorf("an empty trafilatura text put %d blocks back", n)
	}
	// nothing kept, or readability's blocks not on the page: unchanged.
	if got, n := withOpening(nil, read, page, traf); n != 0 || got != nil {
		t.Errorf("nothing kept, got %q", blockTexts(got))
	}
	if got, n := withOpening(read, []block{{text: "not on the page at all, a block readability made of its own"}}, page, traf); n != 0 || len(got) != len(read) {
		t.Errorf("readability's blocks off the page, yet %d put back", n)
	}
}

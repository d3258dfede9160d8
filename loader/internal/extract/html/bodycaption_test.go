package html

import (
	"fmt"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"golang.org/x/net/html"
)

// floodParagraphs is a news article's body: each paragraph its own
// sentences about one flood.
var floodParagraphs = []string{
	"The river rose two metres overnight and flooded the lower streets of the old town, where shop owners carried their goods upstairs before dawn.",
	"Fire crews pumped water out of forty cellars on Monday morning, and the city closed the bridge to cars until engineers could inspect its piers.",
	"The mayor said the new flood wall on the east bank had held, and that the damage would have been far worse without the works finished last year.",
	"Residents of the river district were told to boil their drinking water until Wednesday, after the treatment plant story power for six hours.",
	"Schools in the lower town stay closed for the rest of the week, and the council opened the sports hall as a shelter for families who cannot go home.",
	"Insurers expect thousands of claims, and the regional government promised an emergency fund for shop owners whose stock was story in the water.",
}

// floodCaption is a video's caption between the paragraphs: the article's
// topic words (river, bridge, flood, mayor, city...), none of its sentences.
const floodCaption = "The mayor of the city watched the flood water rise over the river bridge and the old town streets on Monday, fire crews said. (Video: City News)"

// TestAgreeDropsCaptionsInsideTheBody: a long caption (a figcaption, or
// text in an element whose class names a caption) between the article's
// edges that trafilatura's text has by its words only goes, and so does
// the same caption above the article's first edge (html/31: it stayed,
// judged as a standfirst is); a paragraph that is no caption stays
// (trafilatura loses some of the article's paragraphs), and so do
// captions that are over a quarter of readability's words (a photo story
// told in its captions). Fails before html/28: the bag-of-words test
// alone kept the caption.
func TestAgreeDropsCaptionsInsideTheBody(t *testing.T) {
	p := floodParagraphs
	traf := strings.Join(p, "\n")
	ref := newTextRef(traf)
	if in, all := ref.bagShare(wordsOf(floodCaption)); float64(in) < agreeKeep*float64(all) || ref.seqShare(floodCaption) >= agreeBodySupport {
		t.Fatalf("fixture: the caption has %d of %d words in trafilatura's text, trigram share %.2f", in, all, ref.seqShare(floodCaption))
	}
	caption := block{cat: document.Caption, text: floodCaption, caption: true}
	blocks := []block{{text: p[0]}, {text: p[1]}, {text: p[2]}, caption, {text: p[3]}, {text: p[4]}, {text: p[5]}}
	got, how := agree(blocks, nil, traf)
	if want := strings.Join(p, "|"); how != "checked" || strings.Join(blockTexts(got), "|") != want {
		t.Errorf("agree said %q, kept %q\nwant checked, %q", how, blockTexts(got), p)
	}
	// before the first paragraph trafilatura has in order: a caption still
	lead := append([]block{caption}, blocks[:3]...)
	lead = append(lead, blocks[4:]...)
	if got, _ := agree(lead, nil, traf); strings.Join(blockTexts(got), "|") != strings.Join(p, "|") {
		t.Errorf("a long caption above the article was kept: %q", blockTexts(got))
	}
	// no caption: a paragraph trafilatura story stays
	para := append(append(blocks[:3:3], block{text: floodCaption}), blocks[4:]...)
	if got, _ := agree(para, nil, traf); len(got) != len(para) {
		t.Errorf("a paragraph that is no caption was dropped: %q", blockTexts(got))
	}
	// captions over a quarter of the words: a photo story, they stay
	story := []string{
		"Before dawn engineers and shop owners in the river district said water had flooded forty cellars, and the council closed schools in town for a week.",
		"Families who story their stock were promised the emergency fund by insurers, and the mayor said crews would pump water from the streets until Wednesday.",
	}
	many := []block{{text: p[0]}, {text: p[1]}, {text: story[0], caption: true}, caption, {text: story[1], caption: true}, {text: p[2]}}
	got, _ = agree(many, nil, p[0]+"\n"+p[1]+"\n"+p[2]+"\n"+p[3]+"\n"+p[4]+"\n"+p[5])
	for _, s := range append(story, floodCaption) {
		if in, all := ref.bagShare(wordsOf(s)); float64(in) < agreeKeep*float64(all) || ref.seqShare(s) >= agreeBodySupport {
			t.Fatalf("fixture %q: %d of %d words in trafilatura's text, trigram share %.2f", s, in, all, ref.seqShare(s))
		}
	}
	if len(got) != len(many) {
		t.Errorf("captions over a quarter of readability's words were dropped: kept %q", blockTexts(got))
	}
}

// TestAgreeDropsShortCaptions: a caption of under agreeMinWords words
// that trafilatura's text lacks in order goes wherever it stands (a
// photo's line and its credit between the paragraphs, one above the
// first), while a short block of the body that is no caption stays (a
// subheading trafilatura lost) and so does a short caption trafilatura
// has in order. Fails before html/31: short blocks between the article's
// edges all stayed, and a caption above it was judged as any edge block.
func TestAgreeDropsShortCaptions(t *testing.T) {
	p := floodParagraphs
	traf := strings.Join(p, "\n") + "\nThe new flood wall."
	blocks := []block{
		{text: "Sandbags on the bridge. (Photo: City News)", caption: true},
		{text: p[0]}, {text: p[1]},
		{text: "Rescue boats at dusk", caption: true, cat: document.Caption},
		{text: "© City News", caption: true},
		{text: "What the council said"},
		{text: p[2]},
		{text: "The new flood wall.", caption: true},
		{text: p[3]}, {text: p[4]}, {text: p[5]},
	}
	for _, b := range blocks {
		if agreeCount(wordsOf(b.text)) >= agreeMinWords {
			continue
		}
		if b.caption && b.text != "The new flood wall." && newTextRef(traf).seqShare(b.text) >= agreeBodySupport {
			t.Fatalf("fixture: trafilatura's text has %q in order", b.text)
		}
	}
	got, how := agree(blocks, nil, traf)
	want := []string{p[0], p[1], "What the council said", p[2], "The new flood wall.", p[3], p[4], p[5]}
	if how != "checked" || strings.Join(blockTexts(got), "|") != strings.Join(want, "|") {
		t.Errorf("agree said %q, kept %q\nwant checked, %q", how, blockTexts(got), want)
	}
}

// TestVideoCaptionInsideArticleDropped: the same on a page, through
// readability and trafilatura: a video's caption between the paragraphs
// (a span in a div, no figure) is not landed, every paragraph is. Fails
// before html/28.
func TestVideoCaptionInsideArticleDropped(t *testing.T) {
	var sb strings.Builder
	sb.WriteString(`<html><head><title>Flood in the old town</title></head><body><nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav><article><h1>Flood in the old town</h1>`)
	for i, p := range floodParagraphs {
		sb.WriteString("<p>" + p + "</p>")
		if i == 2 {
			sb.WriteString(`<div class="video"><div class="player"></div><div class="inline-video-caption"><span class="pb-caption">` + floodCaption + `</span></div></div>`)
		}
	}
	sb.WriteString(`</article><footer>Contact us</footer></body></html>`)
	res := extractData(t, "flood.html", []byte(sb.String()))
	text := res.Pages[0].Text
	for _, p := range floodParagraphs {
		if !strings.Contains(text, p) {
			t.Errorf("paragraph story: %q\nin %q", p, text)
		}
	}
	if strings.Contains(text, "Video: City News") {
		t.Errorf("the video's caption was landed: %q", text)
	}
	if got := res.Metadata.Extra["content_scope"] + " " + res.Metadata.Extra["content_by"]; got != "main_content readability+trafilatura" {
		t.Errorf("content_scope content_by = %q, want main_content readability+trafilatura", got)
	}
}

// TestWalkerMarksCaptions: the walker marks a figcaption's text and a
// block element's whose class or id names a caption, and nothing else; an
// inline element so named and one inside a list item split nothing; a
// table's <caption> is its title, never marked (html/28 marked it, and
// html-main's wikipedia-2 lost its table's title).
func TestWalkerMarksCaptions(t *testing.T) {
	doc, err := html.Parse(strings.NewReader(`<body>
<p>Before the photo.</p>
<div class="inline-video-caption"><span>The river at noon.</span></div>
<figure><img src="a.jpg"><figcaption>The bridge.</figcaption></figure>
<div id="photo-caption-2">Credit: City News</div>
<div class="list-item no_caption"><p>A list item without a caption.</p></div>
<div class="nocaption"><p>Another.</p></div>
<p>See <span class="caption-ref">figure 1</span> below.</p>
<ul><li>First item <div class="caption">with a note</div></li></ul>
<table><caption>Rainfall by town</caption><tr><th>Town</th><th>mm</th></tr><tr><td>Ayr</td><td>31</td></tr></table>
<table><caption>Layout</caption><tr><td>One cell</td></tr></table>
<p>After the photo.</p>
</body>`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range walkDocument(doc, true) {
		got = append(got, fmt.Sprintf("%v:%s", b.caption, b.text))
	}
	want := []string{"false:Before the photo.", "true:The river at noon.", "true:The bridge.", "true:Credit: City News",
		"false:A list item without a caption.", "false:Another.",
		"false:See figure 1 below.", "false:First item\nwith a note", "false:Rainfall by town", "false:Town | mm\nAyr | 31",
		"false:Layout", "false:One cell", "false:After the photo."}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("blocks %q\nwant %q", got, want)
	}
}

// TestAgreeDropsPhotoCredits: a block outside any figcaption or caption
// class that reads as a photo's credit (a "Photo:" label, a copyright
// sign, a picture agency) and that trafilatura's text lacks in order
// goes, as a marked caption does; a short block that is no credit stays
// (a subheading trafilatura lost), and so do a credit trafilatura has in
// order and a paragraph of creditLimit words or more that names an agency.
// Fails before html/32: unmarked credits stayed as the body's text.
func TestAgreeDropsPhotoCredits(t *testing.T) {
	p := floodParagraphs
	long := "The agency's photographers, whose pictures Getty Images sold to papers across the country, spent the night on the bridge with the fire crews, and their photographs of the flooded streets were on every front page the next morning, the mayor said."
	traf := strings.Join(p, "\n") + "\nPhoto: Ann Lee"
	blocks := []block{
		{text: p[0]},
		{text: "The bridge at dawn. Kena Smith/Getty Images"},
		{text: p[1]},
		{text: "© City News | Jan Brown"},
		{text: "Bild: Stadtarchiv"},
		{text: "What the council said"},
		{text: p[2]},
		{text: "Photo: Ann Lee"},
		{text: long},
		{text: p[3]}, {text: p[4]}, {text: p[5]},
	}
	if len(wordsOf(long)) < creditLimit {
		t.Fatalf("fixture: the paragraph has %d words", len(wordsOf(long)))
	}
	got, how := agree(blocks, nil, traf)
	want := []string{p[0], p[1], "What the council said", p[2], "Photo: Ann Lee", long, p[3], p[4], p[5]}
	if how != "checked" || strings.Join(blockTexts(got), "|") != strings.Join(want, "|") {
		t.Errorf("agree said %q, kept %q\nwant checked, %q", how, blockTexts(got), want)
	}
	for _, s := range []string{"Photographers: the city's two", "The photo shows the bridge", "Imagine the water at night"} {
		if creditLike(s) {
			t.Errorf("creditLike(%q) = true", s)
		}
	}
}

// TestAgreeDropsDateLines: a short line holding a date (a publication or
// update stamp) that trafilatura's text lacks in order goes wherever it
// stands, as a caption does; a short line of the body without a date
// stays, and so do a date line trafilatura has in order and a line of
// more than dateLineWords words with a date in it. Fails before html/33:
// between the article's edges such lines stayed as the body's.
func TestAgreeDropsDateLines(t *testing.T) {
	p := floodParagraphs
	sentence := "The last flood of this size, on 12 March 1998, closed the bridge for a month."
	traf := strings.Join(p, "\n") + "\nMonday, March 4, 2024\n" + sentence
	blocks := []block{
		{text: p[0]}, {text: p[1]},
		{text: "Aktualisiert: 11.04.2020, 10:27"},
		{text: "16 marca 2021"},
		{text: "Published 2022-05-03"},
		{text: "What the council said"},
		{text: p[2]},
		{text: "Monday, March 4, 2024"},
		{text: sentence},
		{text: "Schools closed until 3. Februar 2022 in the lower town, the council said."},
		{text: p[3]}, {text: p[4]}, {text: p[5]},
	}
	got, how := agree(blocks, nil, traf)
	want := []string{p[0], p[1], "What the council said", p[2], "Monday, March 4, 2024", sentence,
		"Schools closed until 3. Februar 2022 in the lower town, the council said.", p[3], p[4], p[5]}
	if how != "checked" || strings.Join(blockTexts(got), "|") != strings.Join(want, "|") {
		t.Errorf("agree said %q, kept %q\nwant checked, %q", how, blockTexts(got), want)
	}
	for s, want := range map[string]bool{"03/05/22 Sport": true, "Updated March 16, 2021": true, "Chapter 12 of 2021": false, "Mai 3, 2021": true, "Top 10 tips": false} {
		if got := dateLine(s); got != want {
			t.Errorf("dateLine(%q) = %v, want %v", s, got, want)
		}
	}
}

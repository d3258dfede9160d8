package html

import (
	"errors"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	trafilatura "github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"
)

// TestAgreeDropsLongBlocksTrafilaturaLeftOut: the rule on hand-made
// blocks: a long block mostly missing from trafilatura's text goes, short
// blocks at the article's edges go unless trafilatura has their words in
// order, short blocks inside the body stay, and a trafilatura text under
// half of readability's words judges nothing.
func TestAgreeDropsLongBlocksTrafilaturaLeftOut(t *testing.T) {
	article := "The council approved the new budget after a long debate about road repairs and school funding in the north district"
	second := "Road repairs start in March on the main street and the bridge, and the school works follow in the summer holidays"
	promo := "Sign up to our weekly newsletter and get the best stories of the week delivered to your inbox every Friday morning"
	blocks := []block{
		{cat: document.NarrativeText, text: "Photo: City Hall Press"}, // short, before the body, not in trafilatura's text
		{cat: document.Title, text: "Budget approved"},                // short, before the body, in trafilatura's text
		{cat: document.NarrativeText, text: article},
		{cat: document.ListItem, text: "School repairs"}, // short, inside the body: kept whatever trafilatura says
		{cat: document.NarrativeText, text: second},
		{cat: document.NarrativeText, text: "Share this story"}, // short, after the body, not in trafilatura's text
		{cat: document.NarrativeText, text: promo},              // 3 of 21 words (and, the, the) in trafilatura's text
	}
	traf := "Budget approved\n" + article + "\n" + second + "\n" + article + " The vote was close."
	got, how := agree(blocks, nil, traf)
	if how != "checked" {
		t.Fatalf("agree said %q, want checked", how)
	}
	want := []string{"Budget approved", article, "School repairs", second}
	if texts := blockTexts(got); strings.Join(texts, "|") != strings.Join(want, "|") {
		t.Errorf("kept %q\nwant %q", texts, want)
	}
	// A long block with half of its words in trafilatura's text stays; just
	// under half, it goes.
	mixed := "Council members said the vote today " + strings.Repeat("xyz ", 6)
	if got, _ := agree([]block{{text: article}, {text: mixed}}, nil, article+" Council members said the vote today"); len(got) != 2 {
		t.Errorf("a block with 6 of 12 words supported was dropped: %v", got)
	}
	if got, _ := agree([]block{{text: article}, {text: "Nobody knows " + mixed}}, nil, article+" Council members said the vote today"); len(got) != 1 {
		t.Errorf("a block with 6 of 14 words supported was kept: %v", got)
	}
	// trafilatura kept under half of readability's words (or nothing): it
	// failed on the page, and readability's blocks stay whole.
	for _, short := range []string{"", "Budget approved"} {
		if got, how := agree(blocks, nil, short); how != "" || len(got) != len(blocks) {
			t.Errorf("trafilatura text %q: kept %d of %d blocks, agree said %q; want all, not judged", short, len(got), len(blocks), how)
		}
	}
}

// TestAgreeWidensAPartialChoice: readability kept one paragraph of a
// three-paragraph article that trafilatura kept whole: the page's blocks
// trafilatura's text holds are taken instead (the menu stays out); with
// trafilatura's text under twice readability's, readability's choice stays.
// When the two chose different parts of the page, trafilatura's is taken.
func TestAgreeWidensAPartialChoice(t *testing.T) {
	p1 := "The council approved the new budget after a long debate about road repairs and school funding in the north district"
	p2 := "Road repairs start in March on the main street and the bridge, and the school works follow in the summer holidays"
	p3 := "The mayor thanked the residents who came to the meeting and promised a report on the works every three months"
	other := "Readers also liked these stories from our archive about cycling lanes, parking fees and a new swimming pool"
	page := []block{{text: "Home News Sport Weather"}, {text: p1}, {text: p2}, {text: p3}, {text: other}, {text: "Contact us"}}
	article := p1 + "\n" + p2 + "\n" + p3
	got, how := agree([]block{{text: p2}}, page, article)
	if how != "widened" || strings.Join(blockTexts(got), "|") != strings.Join([]string{p1, p2, p3}, "|") {
		t.Errorf("agree said %q, kept %q; want widened to the three paragraphs", how, blockTexts(got))
	}
	got, how = agree([]block{{text: p1}, {text: p2}}, page, article)
	if how != "checked" || len(got) != 2 {
		t.Errorf("agree said %q, kept %q; want readability's two paragraphs checked", how, blockTexts(got))
	}
	got, how = agree([]block{{text: other}, {text: "Contact us"}}, page, article)
	if how != "switched" || strings.Join(blockTexts(got), "|") != strings.Join([]string{p1, p2, p3}, "|") {
		t.Errorf("agree said %q, kept %q; want switched to trafilatura's three paragraphs", how, blockTexts(got))
	}
}

func blockTexts(bs []block) []string {
	var out []string
	for _, b := range bs {
		out = append(out, b.text)
	}
	return out
}

// TestNewsletterBoxInsideArticleDropped: a page whose article holds a
// newsletter promotion readability keeps; trafilatura leaves it out, so
// docket drops it and records who chose the main content.
func TestNewsletterBoxInsideArticleDropped(t *testing.T) {
	res := extractData(t, "news.html", newsletterPage())
	text := res.Pages[0].Text
	if strings.Count(text, "council approved the new budget") != 5 || !strings.Contains(text, "takes effect in January") {
		t.Errorf("article lost: %q", text)
	}
	if strings.Contains(text, "newsletter") {
		t.Errorf("newsletter promotion kept: %q", text)
	}
	if got := res.Metadata.Extra["content_scope"] + " " + res.Metadata.Extra["content_by"]; got != "main_content readability+trafilatura" {
		t.Errorf("content_scope content_by = %q, want main_content readability+trafilatura", got)
	}
	if c := res.Metadata.Extra["content_check"]; c != "" {
		t.Errorf("content_check = %q on a page under agreeMaxBytes", c)
	}
}

// TestLargePageSkipsTrafilatura: over agreeMaxBytes trafilatura's check
// (several copies of the page's tree) is skipped, readability's blocks
// stay whole and content_check says why.
func TestLargePageSkipsTrafilatura(t *testing.T) {
	page := newsletterPage()
	defer func(n int) { agreeMaxBytes = n }(agreeMaxBytes)
	agreeMaxBytes = len(page) - 1
	res := extractData(t, "news.html", page)
	text := res.Pages[0].Text
	if !strings.Contains(text, "newsletter") || strings.Count(text, "council approved the new budget") != 5 {
		t.Errorf("readability's blocks not kept whole: %q", text)
	}
	if got := res.Metadata.Extra["content_scope"] + " " + res.Metadata.Extra["content_by"]; got != "main_content readability" {
		t.Errorf("content_scope content_by = %q, want main_content readability", got)
	}
	if c := res.Metadata.Extra["content_check"]; !strings.Contains(c, "trafilatura's check skipped") {
		t.Errorf("content_check = %q, want the skip said", c)
	}
}

// TestTrafilaturaFailureSaid: when go-trafilatura errs or panics on a
// page, readability's blocks stay whole and content_check says the check
// failed and why: a library failure is not passed off as a page
// trafilatura found too little on (review29's finding on html/9).
func TestTrafilaturaFailureSaid(t *testing.T) {
	defer func(f func(_, _ *html.Node) (*trafilatura.ExtractResult, error)) { trafilaturaRun = f }(trafilaturaRun)
	for name, run := range map[string]func(_, _ *html.Node) (*trafilatura.ExtractResult, error){
		"panic": func(_, _ *html.Node) (*trafilatura.ExtractResult, error) {
			panic("index out of range [3] with length 3")
		},
		"error": func(_, _ *html.Node) (*trafilatura.ExtractResult, error) { return nil, errors.New("no body") },
	} {
		trafilaturaRun = run
		res := extractData(t, "news.html", newsletterPage())
		text := res.Pages[0].Text
		if !strings.Contains(text, "newsletter") || strings.Count(text, "council approved the new budget") != 5 {
			t.Errorf("%s: readability's blocks not kept whole: %q", name, text)
		}
		if got := res.Metadata.Extra["content_scope"] + " " + res.Metadata.Extra["content_by"]; got != "main_content readability" {
			t.Errorf("%s: content_scope content_by = %q, want main_content readability", name, got)
		}
		want := map[string]string{"panic": "panicked: index out of range", "error": "(no body)"}[name]
		if c := res.Metadata.Extra["content_check"]; !strings.Contains(c, "trafilatura's check failed") || !strings.Contains(c, want) {
			t.Errorf("%s: content_check = %q, want the failure and %q said", name, c, want)
		}
	}
}

func newsletterPage() []byte {
	var sb strings.Builder
	sb.WriteString(`<html><head><title>Budget approved</title></head><body><nav><a href="/">Home</a> <a href="/news">News</a></nav><article><h1>Budget approved</h1>`)
	for i := 0; i < 5; i++ {
		sb.WriteString("<p>The council approved the new budget after a long debate about road repairs, school funding and the bus lines of the north district, which residents had asked for since last spring.</p>")
	}
	sb.WriteString(`<div class="newsletter-signup"><p>Sign up to our weekly newsletter: our best local stories delivered to your inbox every Friday morning, free.</p></div>`)
	sb.WriteString("<p>The new budget takes effect in January, the mayor said after the vote.</p></article></body></html>")
	return []byte(sb.String())
}

// TestWidenedKeepsNoMenuWords: on a widened page, a menu's one-word items
// whose words the article happens to use, and a wordless separator, stay
// out (review29's probe); a one-word subheading between the article's
// paragraphs and the heading right before them stay; a block the page
// repeats is held once.
func TestWidenedKeepsNoMenuWords(t *testing.T) {
	p1 := "The council approved the new budget for home care, sport clubs and local news radio after a long debate in the north district"
	p2 := "Road repairs start in March on the main street and the bridge, and the school works follow in the summer holidays"
	p3 := "The mayor thanked the residents who came to the meeting and promised a report on the works every three months"
	appeal := "Support independent local journalism with a monthly gift"
	page := []block{{text: "Home"}, {text: "News"}, {text: "Sport"}, {text: "•"}, {cat: document.Title, text: "Budget approved"},
		{text: p1}, {cat: document.Title, text: "Works"}, {text: p2}, {text: p3}, {text: appeal}, {text: appeal}, {text: "Contact us"}, {text: "Weather"}}
	got, how := agree([]block{{text: p2}}, page, "Budget approved\n"+p1+"\nWorks\n"+p2+"\n"+p3+"\n"+appeal)
	want := []string{"Budget approved", p1, "Works", p2, p3, appeal}
	if how != "widened" || strings.Join(blockTexts(got), "|") != strings.Join(want, "|") {
		t.Errorf("agree said %q, kept %q\nwant widened to %q", how, blockTexts(got), want)
	}
}

// TestAgreeWidensWhenReadabilityLacksTheOpening: readability kept the last
// two of an article's three paragraphs (a letter's signatories, a table
// under the article): trafilatura's text is 1.5 times as long, under the
// twice that widens whatever the text, but it opens with a paragraph
// readability's text lacks, so the page's blocks trafilatura holds are
// taken. The same 1.5 times with an opening both have (trafilatura kept a
// comment thread readability rightly left out) is no such sign.
func TestAgreeWidensWhenReadabilityLacksTheOpening(t *testing.T) {
	p1 := "The council approved the new budget on Tuesday night after a long and heated debate about road repairs, school funding and the bus lines of the north district"
	p2 := "Road repairs start in March on the main street and the bridge, and the school works follow in the summer holidays"
	p3 := "The mayor thanked the residents who came to the meeting and promised a report on the works every three months"
	comment := "Great news at last, my street has waited for new asphalt since the winter floods broke it open two years ago"
	page := []block{{text: "Home News Sport Weather"}, {text: p1}, {text: p2}, {text: p3}, {text: comment}, {text: "Contact us"}}
	got, how := agree([]block{{text: p2}, {text: p3}}, page, p1+"\n"+p2+"\n"+p3)
	if how != "widened" || strings.Join(blockTexts(got), "|") != strings.Join([]string{p1, p2, p3}, "|") {
		t.Errorf("agree said %q, kept %q; want widened to the three paragraphs", how, blockTexts(got))
	}
	got, how = agree([]block{{text: p1}, {text: p2}}, page, p1+"\n"+p2+"\n"+comment)
	if how != "checked" || strings.Join(blockTexts(got), "|") != strings.Join([]string{p1, p2}, "|") {
		t.Errorf("agree said %q, kept %q; want readability's two paragraphs checked (no comment)", how, blockTexts(got))
	}
}

// TestAgreeEdgesAtBlocksTrafilaturaHasInOrder: a standfirst trafilatura
// leaves out whose words are all in its text (kept on its words, as long
// blocks are) does not mark the article's start: the byline and photo
// credit between it and the body are judged as edges and go; the
// standfirst stays.
func TestAgreeEdgesAtBlocksTrafilaturaHasInOrder(t *testing.T) {
	body := "The council approved the new budget after a long debate about road repairs and school funding in the north district"
	second := "Road repairs start in March on the main street and the bridge, and the school works follow in the summer holidays"
	standfirst := "School funding, road repairs: north district council approves budget in March after long street debate about the bridge"
	blocks := []block{
		{cat: document.NarrativeText, text: standfirst},
		{cat: document.NarrativeText, text: "By Jane Roe"},
		{cat: document.NarrativeText, text: "Photo: City Hall Press"},
		{cat: document.NarrativeText, text: body},
		{cat: document.NarrativeText, text: second},
	}
	got, how := agree(blocks, nil, body+"\n"+second)
	if how != "checked" {
		t.Fatalf("agree said %q, want checked", how)
	}
	want := []string{standfirst, body, second}
	if texts := blockTexts(got); strings.Join(texts, "|") != strings.Join(want, "|") {
		t.Errorf("kept %q\nwant %q", texts, want)
	}
}

// TestAgreeCountsChineseCharacters: Chinese and Japanese text has no spaces
// between words, so each Han, hiragana or katakana character counts as a
// word: a paragraph is a long block judged by its words, not a run of
// three clause-long "words" judged by their exact sequence. The third
// paragraph, which trafilatura's text has with one character less, stays;
// the promotion it lacks goes.
func TestAgreeCountsChineseCharacters(t *testing.T) {
	p1 := "国际空间站的宇航员每天要进行两个小时的锻炼，以保持肌肉和骨骼的力量。"
	p2 := "他们的食物大多是从地球上运来的，经过特别的包装，可以保存很长的时间。"
	p3 := "所以，当宇航员在地球轨道上时，将还不得不满足于通过欣赏外面的风景来度过时间。"
	promo := "欢迎关注我们的微信公众号，每天为您推送最新的科技新闻和精彩视频。"
	traf := p1 + "\n" + p2 + "\n" + strings.Replace(p3, "将", "", 1)
	got, how := agree([]block{{text: p1}, {text: p2}, {text: p3}, {text: promo}}, nil, traf)
	if want := []string{p1, p2, p3}; how != "checked" || strings.Join(blockTexts(got), "|") != strings.Join(want, "|") {
		t.Errorf("agree said %q, kept %q\nwant %q", how, blockTexts(got), want)
	}
	if got := wordsOf("肉をくわえたイヌ dog2"); strings.Join(got, " ") != "肉 を く わ え た イ ヌ dog2" {
		t.Errorf("wordsOf = %q", got)
	}
}

// TestAgreeDropsATailOfRelatedPosts: after the article's last block that
// trafilatura's text has in order, two long blocks it has by their words
// only (related posts sharing the article's topic words, none of its
// sentences) go; one such block alone (an author's bio) stays. Before
// html/26 both teasers landed as the article's end (wordpress's "Related"
// posts on html-main).
func TestAgreeDropsATailOfRelatedPosts(t *testing.T) {
	body := "The council approved the new budget after a long debate about road repairs and school funding in the north district"
	second := "Road repairs start in March on the main street and the bridge, and the school works follow in the summer holidays"
	teaser1 := "North district school funding debate: council members approve road repairs budget for the bridge after March vote"
	teaser2 := "Summer holidays bridge works: main street road repairs follow the council budget debate in north district schools"
	bio := "Jane Roe covers the north district council, school funding and road repairs for the paper after a long debate"
	traf := body + "\n" + second
	blocks := []block{
		{cat: document.NarrativeText, text: body},
		{cat: document.NarrativeText, text: second},
		{cat: document.NarrativeText, text: teaser1},
		{cat: document.NarrativeText, text: teaser2},
	}
	got, how := agree(blocks, nil, traf)
	if how != "checked" {
		t.Fatalf("agree said %q, want checked", how)
	}
	if texts, want := blockTexts(got), []string{body, second}; strings.Join(texts, "|") != strings.Join(want, "|") {
		t.Errorf("kept %q\nwant %q", texts, want)
	}
	// the teasers share the article's words, not its sentences
	ref := newTextRef(traf)
	for _, s := range []string{teaser1, teaser2, bio} {
		if in, all := ref.bagShare(wordsOf(s)); float64(in) < agreeKeep*float64(all) || ref.seqShare(s) >= agreeTailSupport {
			t.Fatalf("fixture %q: %d of %d words, trigram share %.2f", s, in, all, ref.seqShare(s))
		}
	}
	blocks = append(blocks[:2:2], block{cat: document.NarrativeText, text: bio})
	if got, _ := agree(blocks, nil, traf); len(got) != 3 {
		t.Errorf("a bio alone after the article was dropped: %q", blockTexts(got))
	}
}

package html

import (
	"strings"
	"testing"

	trafilatura "github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"
)

// TestJudgeCleansReadabilitysChoice: on a page where trafilatura's own
// text is too short to judge by (it took the article's first part: the
// rest sits in a box whose class it discards), its fallback takes
// readability's node cleaned of the tags it drops, and that judges
// readability's blocks: the date line (a <time>) at the article's edge
// goes, the article stays whole. Before, readability's blocks stayed
// whole, date and all ("trafilatura failed").
func TestJudgeCleansReadabilitysChoice(t *testing.T) {
	res := extractData(t, "budget.html", []byte(twoBoxArticle()))
	text := res.Pages[0].Text
	if strings.Contains(text, "Published") {
		t.Errorf("the date line at the article's edge was kept: %q", text)
	}
	for _, p := range twoBoxParagraphs {
		if !strings.Contains(text, p) {
			t.Errorf("paragraph lost: %q\nin %q", p, text)
		}
	}
	if got := res.Metadata.Extra["content_scope"] + " " + res.Metadata.Extra["content_by"]; got != "main_content readability+trafilatura" {
		t.Errorf("content_scope content_by = %q, want main_content readability+trafilatura", got)
	}
	if c := res.Metadata.Extra["content_check"]; !strings.Contains(c, "trafilatura found too little on its own") {
		t.Errorf("content_check = %q, want the judge said", c)
	}
}

var twoBoxParagraphs = []string{
	"The city council met on Tuesday evening to discuss the new budget for the coming year, which includes money for schools, roads and the library.",
	"Members argued for three hours about the cost of repairing the old bridge over the river, which engineers say needs work within two years.",
	"In the end the council approved the budget by seven votes to two, and the mayor said the vote showed that the town could agree on hard choices.",
	"The budget now goes to the county for review, and the first payments for the bridge repairs are expected to start in the spring of next year.",
	"Residents who spoke at the meeting welcomed the money for the library, which has had to cut its opening hours twice in the last five years.",
	"The council will meet again next month to discuss the plans for the new park on the east side of town, near the old railway station.",
}

// twoBoxArticle is a news page whose article is in two boxes, the second
// of a class go-trafilatura discards ("-bar"), under a date line.
func twoBoxArticle() string {
	var b strings.Builder
	b.WriteString(`<html><head><title>Council approves budget</title></head><body><nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav>`)
	b.WriteString(`<main><article><h1>Council approves budget</h1><div class="story"><p>Published <time datetime="2021-10-29">29 October 2021</time></p>`)
	for i, p := range twoBoxParagraphs {
		if i == 2 {
			b.WriteString(`</div><div class="story-bar">`)
		}
		b.WriteString("<p>" + p + "</p>\n")
	}
	b.WriteString(`</div></article></main><footer><p>Copyright 2021 Town News. All rights reserved. Contact us for more information about the paper.</p></footer></body></html>`)
	return b.String()
}

// TestJudgeFallbackIsNotReadabilitysOwnJudge: trafilatura's fallback took
// readability's node (the library made to do so here), but its text
// without the fallback holds another part of the page, with under half of
// readability's words: the two chose different parts, and that text
// judges (trafilatura's choice is taken), not readability's node, which
// would have passed readability's choice whatever it was.
func TestJudgeFallbackIsNotReadabilitysOwnJudge(t *testing.T) {
	defer func(f func(_, _ *html.Node) (*trafilatura.ExtractResult, error)) { trafilaturaRun = f }(trafilaturaRun)
	real := trafilaturaRun
	trafilaturaRun = func(doc, cand *html.Node) (*trafilatura.ExtractResult, error) {
		if cand != nil {
			res, err := real(doc, cand)
			if err == nil {
				res.ContentNode = cand
			}
			return res, err
		}
		return &trafilatura.ExtractResult{ContentText: strings.Join(twoBoxAbout, "\n")}, nil
	}
	page := strings.Replace(twoBoxArticle(), "</main>", "</main><section><p>"+strings.Join(twoBoxAbout, "</p><p>")+"</p></section>", 1)
	res := extractData(t, "budget.html", []byte(page))
	text := res.Pages[0].Text
	if strings.Contains(text, twoBoxParagraphs[0]) || !strings.Contains(text, twoBoxAbout[0]) {
		t.Errorf("readability's choice kept (judged by itself), want trafilatura's part of the page: %q", text)
	}
	if got := res.Metadata.Extra["content_by"]; got != "trafilatura" {
		t.Errorf("content_by = %q, want trafilatura", got)
	}
}

var twoBoxAbout = []string{
	"Town News is written by a small team of reporters who have covered the council, the schools and the local sports clubs for over thirty years now.",
	"We are funded by our readers and by the shops on the high street, and we publish every weekday morning, with a longer edition on Saturday.",
	"If you have a story for us, or want to write a letter to the editor about anything in the paper, send it to the office by Thursday noon.",
	"Our reporters also run a weekly podcast about the town's history, recorded in the back room of the library with guests from the old families.",
	"The paper won the regional prize for local reporting twice, for its series on the closing of the mill and on the flooding of the river valley.",
	"Subscriptions start at five pounds a month and include the weekend magazine, the podcast archive and the digital edition of every past issue.",
}

// TestJudgeDropsWidgetsTrafilaturaDiscards: where trafilatura's fallback
// takes readability's node (as in TestJudgeCleansReadabilitysChoice), a
// share toolbar with a social widget inside the article (a class
// trafilatura discards on the page, "-toolbar") is pruned from the node
// before it judges, so its lines at the article's edge go; the box holding
// most of the article, of a class trafilatura discards too ("-bar"), is
// no widget and stays, and so does the article. Before, the node judged as
// readability gave it, toolbar and all.
func TestJudgeDropsWidgetsTrafilaturaDiscards(t *testing.T) {
	toolbar := `<div class="entry-toolbar"><strong>Share this</strong> <a href="/c">View Comments</a>` +
		`<div class="facebook-broadcasting"><span>More Activity</span> <strong>Reader Activity</strong> <span>What's this?</span>` +
		`<div class="item">Click "Add to Timeline" to publish<br> what you read to your timeline</div>` +
		`<div class="item">See what your friends have read<br> on our sites</div>` +
		`<div class="item">Use "Remove" or "Turn off" to<br> disable at any time</div></div></div>`
	page := strings.Replace(twoBoxArticle(), `<div class="story">`, `<div class="story">`+toolbar, 1)
	res := extractData(t, "budget.html", []byte(page))
	text := res.Pages[0].Text
	var kept []string
	for _, junk := range []string{"Share this", "View Comments", "More Activity", "What's this?", "Add to Timeline", "disable at any time"} {
		if strings.Contains(text, junk) {
			kept = append(kept, junk)
		}
	}
	if len(kept) > 0 {
		t.Errorf("the toolbar's %q kept: %q", kept, text)
	}
	for _, p := range twoBoxParagraphs {
		if !strings.Contains(text, p) {
			t.Errorf("paragraph lost: %q\nin %q", p, text)
		}
	}
	if c := res.Metadata.Extra["content_check"]; !strings.Contains(c, "trafilatura found too little on its own") {
		t.Errorf("content_check = %q, want the judge said", c)
	}
}

// TestDropRepeatedRuns: where trafilatura's own text is too short to
// judge by, the fallback's cleaned copy of readability's node judges, and
// it holds a widget's labels that stand above and below a short article
// (goose's cbslocal: "Share this", "View Comments", "More Activity",
// "Facebook Activity"... twice; 52 junk words before the lede, 10 after).
// Such a run of three or more short blocks, twice in the same order, goes
// when trafilatura's own text lacks it; a run its own text holds (a
// chorus) stays, and so do a run of two, a long block repeated, and the
// article.
func TestDropRepeatedRuns(t *testing.T) {
	widget := []block{{text: "Share this"}, {text: "View Comments"}, {text: "More Activity"}, {text: "What's this?"}}
	article := []block{{text: storyParagraphs[0]}, {text: "Listen to the interview"}, {text: storyParagraphs[1]}}
	var blocks []block
	blocks = append(append(append(blocks, widget...), article...), widget...)
	own := storyParagraphs[0] + " Listen to the interview " + storyParagraphs[1]
	if got := dropRepeatedRuns(blocks, own); strings.Join(blockTexts(got), "|") != strings.Join(blockTexts(article), "|") {
		t.Errorf("kept %q, want the article alone", blockTexts(got))
	}
	chorus := []block{{text: "la la la"}, {text: "oh oh oh"}, {text: "yeah yeah"}}
	blocks = append(append(append([]block{}, chorus...), block{text: storyParagraphs[0]}), chorus...)
	if got := dropRepeatedRuns(blocks, "la la la oh oh oh yeah yeah "+storyParagraphs[0]+" la la la oh oh oh yeah yeah"); len(got) != len(blocks) {
		t.Errorf("a repeated run trafilatura's own text holds was dropped: %q", blockTexts(got))
	}
	two := []block{{text: "Share this"}, {text: "View Comments"}, {text: storyParagraphs[0]}, {text: "Share this"}, {text: "View Comments"}}
	if got := dropRepeatedRuns(two, storyParagraphs[0]); len(got) != len(two) {
		t.Errorf("a run of two was dropped: %q", blockTexts(got))
	}
	long := []block{{text: storyParagraphs[2]}, {text: storyParagraphs[3]}, {text: storyParagraphs[4]}}
	blocks = append(append([]block{}, long...), long...)
	if got := dropRepeatedRuns(blocks, ""); len(got) != len(blocks) {
		t.Errorf("long blocks repeated were dropped: %q", blockTexts(got))
	}
}

package html

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/docket-dev/docket/loader/internal/document"
	trafilatura "github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"
)

// Main content is readability's choice, second-guessed by trafilatura
// (trafilatura's text without its fallback):
//
//   - a block of readability's of agreeMinWords words or more is dropped
//     when under agreeKeep of its words are in trafilatura's text
//     (boilerplate readability kept: related-article teasers, comment
//     threads, long captions);
//   - a shorter block before readability's first long block that
//     trafilatura's text has in order (agreeEdgeSupport of its word
//     trigrams) or after its last (bylines, dates, photo credits, "Share
//     this", "Related stories" headings, "About the author": the edges of
//     the article) is dropped unless trafilatura's text has its words in
//     order (agreeShortSupport of its word trigrams, or its whole word
//     sequence when under three words); short blocks between those long
//     blocks (list items, subheadings, short paragraphs of the body) stay.
//     A long block kept on its words alone (a standfirst, a tag list, a
//     caption: trafilatura has its words, not in that order) is no edge:
//     a byline under a standfirst is still before the article;
//   - two or more long blocks after the article's last edge that
//     trafilatura's text has by their words only (under agreeTailSupport
//     of their word trigrams) go: a "related posts" list, whose teasers
//     share the article's topic words but none of its sentences. One
//     such block alone stays (an author's bio, a print edition's line:
//     the html-main set keeps those);
//   - a caption (a figcaption, or text in an element whose class or id
//     names a caption) that trafilatura's text lacks in order (under
//     agreeBodySupport of its word trigrams) goes, wherever it stands and
//     however short: a photo's or a video's caption and its credit, with
//     the article's topic words and none of its sentences
//     (lackedCaptions). When such captions are over agreeBodyShare of
//     readability's words (a photo story told in its captions) they all
//     stay;
//   - when readability's words are nearly all in trafilatura's text
//     (agreeWidenCover) and trafilatura kept agreeWidenRatio times as many,
//     or agreeLeadRatio times as many and an opening readability's text
//     lacks (under agreeLeadShare of the word trigrams of trafilatura's
//     first agreeLeadWords words: a letter's text before its list of
//     signatories, an article above a table), readability took a part of
//     the article: the page's own blocks that trafilatura's text holds
//     (agreeWidenSupport of their trigrams) are the main content instead
//     (content_by "trafilatura"). An opening both have and more text after
//     it is no such sign: trafilatura keeps comment threads and "related"
//     lists readability rightly leaves out;
//   - when under agreeSwitchCover of readability's words are in
//     trafilatura's text, the two chose different parts of the page:
//     trafilatura's choice is taken the same way (it is the better of the
//     two alone on news pages: F1 0.962 against 0.955 held out).
//
// trafilatura's text is its fallback's choice (judgeText): when its own
// text looks poor next to readability's (under half its length, or no
// paragraphs), readability's node as trafilatura cleans it (no time,
// figure, button, label, form...), so the edges' dates, captions and
// widget labels go where readability's blocks were kept whole before;
// unless trafilatura's own text chose another part of the page (then that
// judges, as before). When the judging text holds under half of
// readability's words, trafilatura failed on the page, and readability's
// blocks stay whole.
//
// Chosen on the tune halves of both eval-html sets together (each favours
// its own library: corpus/html-main is readability's test suite, the
// comparison set go-trafilatura's), word F1 / snippet F: readability's
// blocks with only the long-block check (session 6's rule) 0.987 / 0.887;
// the edge check alone 0.986 / 0.895; with widening 0.986 / 0.896; judging
// every short block (not only the edges) 0.981 / 0.904 but it dropped list
// items trafilatura loses (a how-to's tool list); widening at 1.5x 0.982 /
// 0.898 (it took a comment thread on one page); trafilatura with its
// fallback as the judge 0.985 / 0.900 for ~1.5x the time; the long-block
// thresholds (4-20 words, a fifth to a half) moved neither set by more
// than 0.008 alone; with the edge check and widening, taking
// trafilatura's choice when under half (a third) of readability's words are
// in its text 0.986 / 0.900 (0.899), and long blocks needing half their
// words (not a fifth) 0.986 / 0.898; both 0.986 / 0.902 (html/9). Session
// 27 (html/11), from 0.986 / 0.902: widening at 1.5x whatever the opening
// 0.982 / 0.905 (a comment thread again); at 1.5x when readability lacks
// trafilatura's opening (50 words, under half their trigrams: these
// settings) 0.986 / 0.905 (20 or 100 words, a third or a half, 1.2x-1.5x:
// 0.983-0.986 / 0.905); report halves unchanged (0.992 / 0.900). Not
// taken: trafilatura with its fallback as the judge, 0.985 / 0.908 with
// this rule (report 0.992 / 0.900, the same) for 1.45-1.55x docket's time;
// adding the page's long blocks right above readability's first that
// trafilatura holds (a standfirst outside readability's node), 0.986 /
// 0.906, but on html-main's report half six pages lost precision (0.991);
// judging short blocks inside the body too (credits, "Related" headings)
// 0.979-0.983 / 0.911-0.916: html-main's expected text keeps them, the
// comparison set's snippets do not. Session 28 (html/12), from 0.986 /
// 0.905 and the goose set's leading junk (words before the lede, tune)
// 17.7: the edges at long blocks trafilatura has in order, not only its
// words (agreeEdgeSupport) 0.986 / 0.907, junk 17.1; report halves
// 0.992 / 0.900 -> 0.992 / 0.901, junk 11.4 -> 11.0 (what goes: dates,
// photo credits, bylines, comment headers, author bios). Not taken:
// also dropping the long blocks outside those edges that trafilatura
// lacks in order, 0.985 / 0.904 (the first paragraph of a page goes with
// the tag lists); the same unless the block repeats the page's meta
// description (a standfirst) 0.985 / 0.908, but 8 "with" snippets lost
// against 11 "without" ones gone, and a goose lede lost; counting only
// readability's blocks of 3 (12) words or more when deciding that
// trafilatura failed (its menu items) 0.977 (0.971) / 0.905; a block of
// one or two words at an edge kept only when trafilatura's text opens
// (ends) with it, 0.986 / 0.907, no better. Session 29 (html/14), from
// 0.985 / 0.914 / junk 18.0: trafilatura's fallback as the judge with
// readability's node its candidate, 0.985 / 0.916 / 18.3 (report: 0.991 /
// 0.906, junk 11.0 -> 7.1, one comparison page lost all its snippets), and
// with trafilatura's own text judging where it chose another part (the
// fallback had taken readability's node over the right part: goose's
// get_canonical_url, junk 0 -> 8 words) 0.985 / 0.916 / 18.0; report
// 0.9912 / 0.9070 -> 0.9914 / 0.9071, junk 11.0 -> 7.1, goose whole
// bodies F1 0.943 -> 0.992. Session 33 (html/26), the tail run: tune
// 0.985 -> 0.986 / 0.917 (wordpress's related posts out; oe24's teasers
// out, iass-potsdam's listing page loses a "with" snippet its teasers held
// by chance) / goose the same; report 0.995 / 0.911 / 7.1 the same.
// Dropping every such tail block, one alone too: tune 0.986 / 0.918 but
// report html-main 0.995 -> 0.994 (nytimes-3's print-edition line, which
// html-main keeps, goes on tune); at agreeEdgeSupport (0.5) a caption
// trafilatura has nearly in order went too (autohaus, a "with" snippet).
// Session 36 (html/28), the body's captions, chosen on the tune halves of
// the four sets (the fourth, GoOse's news pages, new and tuned on by no
// earlier rule), word F1 / snippet F / goose junk / GoOse F1: 0.986 /
// 0.917 / 14.5 / 0.890 -> 0.986 / 0.918 / 14.5 / 0.894 (bbc-1's media
// captions out 0.97 -> 0.99, figure captions html-main keeps out of
// medium-1 and nytimes-3; 3 "without" snippets gone, none "with" lost;
// washingtonpost's video captions 0.93 -> 0.98); report, read once: 0.995
// -> 0.994 / 0.911 -> 0.913 / 7.1 / 0.912 -> 0.914. Not taken: every long
// block so placed, caption or not (tune 0.986 / 0.919 / 14.5 / 0.894, but
// report html-main 0.991 and GoOse 0.911: paragraphs trafilatura lost, on
// gmw and clean-links on tune, went with the captions); figcaptions
// spared (report 0.991 / 0.911 / 0.911); bound 0.5 (a "with" snippet
// lost), 0.1 (fewer captions out). The share guard kept one comparison
// page's listicle in the every-block form (843 of 2,312 words). Session
// 37 (html/31), every caption trafilatura lacks in order, short ones and
// ones outside the edges too (on the comparison set's tune half captions
// and photo credits were the commonest reason docket was under a library
// alone: 16 of 52 such pages): tune 0.986 / 0.918 / 14.5 / 0.894 ->
// 0.985 / 0.923 / 13.9 / 0.895 (16 comparison pages lose a "without"
// snippet, none a "with"; ehow-1, whose steps' photos are captioned, and
// nytimes-3 lose captions html-main keeps); report, read once: 0.994 ->
// 0.992 / 0.913 -> 0.913 (P 0.908 -> 0.910) / 7.1 -> 6.2 / 0.914 ->
// 0.916. Not taken: text inside <figure> marked as a caption too (a
// "with" snippet lost on tune, nothing gained). html/32, credit lines
// (creditLike) judged as captions, marked or not: tune 0.985 / 0.923 /
// 13.9 / 0.895 -> 0.985 / 0.924 / 13.9 / 0.896 (4 comparison pages lose
// a "without" snippet, none a "with"; businessinsider 0.97 -> 0.98; no
// html-main tune page moves); report, read once: 0.992 -> 0.991 / 0.913
// -> 0.914 (P 0.910 -> 0.912) / 6.2 / 0.916 the same. Not taken: a run
// of two or more blocks between the edges that trafilatura lacks, mostly
// link text (a "Related stories" box): tune comparison 0.923 -> 0.924
// (japantimes, spox) but html-main 0.985 -> 0.984 (base-url's link
// lines, wikipedia). html/33, date lines (dateLine) judged so too: tune
// comparison 0.924 -> 0.925 (Finowie, tagesanzeiger, finanztip lose a
// "without" snippet), nothing else moves; report, read once: every
// figure the same. Measured in loader/tools/eval-html (the figures in
// the commits that set them).
const (
	agreeMinWords     = 12
	agreeKeep         = 0.5
	agreeShortSupport = 0.5
	agreeWidenCover   = 0.95
	agreeWidenRatio   = 2.0
	agreeWidenSupport = 0.7
	agreeSwitchCover  = 0.5
	agreeLeadRatio    = 1.5
	agreeLeadWords    = 50
	agreeLeadShare    = 0.5
	agreeEdgeSupport  = 0.5
	agreeTailSupport  = 0.25
	agreeBodySupport  = 0.25
	agreeBodyShare    = 0.25
)

// agreeMaxBytes: pages whose decoded HTML is larger are not checked by
// trafilatura (content_by "readability", the skip said in content_check).
// Its extraction copies the whole tree several times: on a generated 30 MB
// article page it was 63 % of the extraction's allocations (dom.Clone alone
// 2.2 GB), and with it a worker (GOGC 400) peaked at 3.8 GB max RSS, 27 s,
// against 1.3 GB, 9 s without it (session 25, lead). corpus/html-main's
// largest page is far under the bound, so no scored page changes.
var agreeMaxBytes = 4 << 20

// trafilaturaRun is go-trafilatura's extraction as docket runs it (the
// fork under third_party, without its date parser). With cand (readability's
// article node) its fallback is on with cand as its only candidate: when its
// own text looks poor (under half of cand's characters, or no paragraphs)
// it takes cand, cleaned of the tags it drops (time, figure, button, label,
// footer, aside, nav, form...) and, with the fork's PruneFallback, of the
// small elements its class and id rules discard on a page (share toolbars,
// social widgets: each under 0.4 of cand's text, under half together), and
// returns cand itself as ContentNode. Session 30 (html/18), PruneFallback,
// tune: goose junk words before the lede 18.0 -> 16.7 (businessinsider1
// 47 -> 19), html-main and comparison unchanged; each element under 0.25:
// 17.5; no bound but the library's (a seventh of the text left): the same
// 16.7, but a box holding most of an article, of a discarded class, went
// from the judge (TestJudgeCleansReadabilitysChoice). Judging readability's
// blocks even when the pruned node holds under half of their words: with
// no bound cbslocal's Facebook widget goes (52 -> 10) but three comparison
// pages lose a "with" snippet; with the bounds cbslocal does not move and
// two lose one: not done (dropRepeatedRuns takes the widget, html/21). The
// fork's own fallback extractors (go-shiori's readability, DOM Distiller)
// are not run. cand nil: no fallback. A test swaps it to make the library
// fail.
var trafilaturaRun = func(doc, cand *html.Node) (*trafilatura.ExtractResult, error) {
	opts := trafilatura.Options{ExcludeComments: true, ContentOnly: true, PruneFallback: true}
	if cand != nil {
		opts.EnableFallback = true
		opts.FallbackCandidates = &trafilatura.FallbackCandidates{Readability: cand, Distiller: cand}
	}
	return trafilatura.ExtractDocument(doc, opts)
}

// trafilaturaText is the page's main content text by go-trafilatura (see
// trafilaturaRun), whether its fallback took cand, or "" and why when the
// library failed (an error or a panic: a library panic must not cost the
// document, and must not pass for a page it found too little on either).
func trafilaturaText(doc, cand *html.Node) (text string, tookCand bool, failed string) {
	defer func() {
		if r := recover(); r != nil {
			text, tookCand, failed = "", false, fmt.Sprintf("panicked: %v", r)
		}
	}()
	res, err := trafilaturaRun(doc, cand)
	switch {
	case err != nil:
		return "", false, err.Error()
	case res == nil:
		return "", false, "returned no result"
	}
	return res.ContentText, cand != nil && res.ContentNode == cand, ""
}

// judgeText is the text readability's blocks (taken from node) are checked
// against: trafilatura's, with its fallback judging between its own text
// and node (see trafilaturaRun), and, when the fallback took node,
// trafilatura's own text (own, for dropRepeatedRuns). ownTooShort says the fallback took node:
// trafilatura's own text was too short to judge by, so the blocks are
// checked against node's text as trafilatura cleans it (dates, captions,
// buttons out). When it takes node it cleans node in place: node is
// readability's copy of the page and its blocks are taken before this
// runs, so nothing reads it afterwards; a later reader of node would get
// the cleaned tree.
//
// The fallback compares lengths only. When it took node, trafilatura is
// run again without it, and when that text (its own, or its rescue from
// the whole page when its own was near empty) holds at least half of
// readability's words but under agreeSwitchCover of them are in it, the
// two chose different parts of the page: that text is the judge, as
// without the fallback (agree switches to it). Taking node there would
// make readability its own judge.
func judgeText(doc, node *html.Node, blocks []block) (text, own string, ownTooShort bool, failed string) {
	text, took, failed := trafilaturaText(doc, node)
	if failed != "" || !took {
		return text, "", false, failed
	}
	own, _, f := trafilaturaText(doc, nil)
	if f == "" {
		ref := newTextRef(own)
		joined, nr := joinBlocks(blocks)
		if in, all := ref.bagShare(wordsOf(joined)); ref.words*2 >= nr && float64(in) < agreeSwitchCover*float64(all) {
			return own, "", false, ""
		}
	}
	return text, own, true, ""
}

// dropRepeatedRuns drops the runs of three or more short blocks (under
// agreeMinWords) that readability's blocks hold twice, the same texts in
// the same order, when trafilatura's own text (own) lacks them in order: a
// widget's labels above and below a short article ("Share this", "View
// Comments", "Facebook Activity"...), which the fallback's cleaned node,
// the judge on such pages, still holds. A chorus repeated in a song's
// lyrics is in trafilatura's own text and stays. Session 31 (html/21),
// tune: goose's cbslocal 52 -> 10 junk words before the lede (mean 16.3 ->
// 14.5), no other page of any tune half moved; report halves unchanged.
func dropRepeatedRuns(blocks []block, own string) []block {
	short := make([]bool, len(blocks))
	for i, b := range blocks {
		short[i] = agreeCount(wordsOf(b.text)) < agreeMinWords
	}
	at := map[string][]int{} // where each short block's text stands
	for i, b := range blocks {
		if short[i] {
			at[b.text] = append(at[b.text], i)
		}
	}
	drop := make([]bool, len(blocks))
	for i, b := range blocks {
		for _, j := range at[b.text] {
			if j <= i {
				continue
			}
			k := 0
			for i+k < j && j+k < len(blocks) && short[i+k] && short[j+k] && blocks[i+k].text == blocks[j+k].text {
				k++
			}
			if k >= 3 {
				for m := 0; m < k; m++ {
					drop[i+m], drop[j+m] = true, true
				}
			}
		}
	}
	ref := newTextRef(own)
	kept := blocks[:0:0]
	for i, b := range blocks {
		if drop[i] && ref.seqShare(b.text) < agreeShortSupport {
			continue
		}
		kept = append(kept, b)
	}
	return kept
}

// joinBlocks is the blocks' text, one a line, and its number of words.
func joinBlocks(blocks []block) (string, int) {
	texts := make([]string, len(blocks))
	n := 0
	for i, b := range blocks {
		texts[i] = b.text
		n += len(wordsOf(b.text))
	}
	return strings.Join(texts, "\n"), n
}

// agree keeps the blocks of readability's (blocks) that trafilatura's
// text supports, or widens them to the page's own blocks (page) that it
// holds (see agreeMinWords). It reports how: "" when trafilatura's text is
// too short to judge by (blocks returned unchanged), "checked", "widened"
// or "switched".
func agree(blocks, page []block, traf string) ([]block, string) {
	ref := newTextRef(traf)
	joined, nr := joinBlocks(blocks)
	if ref.words == 0 || ref.words*2 < nr {
		return blocks, ""
	}
	in, all := ref.bagShare(wordsOf(joined))
	how := ""
	switch within, more := float64(in) >= agreeWidenCover*float64(all), float64(ref.words); {
	case float64(in) < agreeSwitchCover*float64(all):
		how = "switched"
	case within && more >= agreeWidenRatio*float64(nr):
		how = "widened"
	case within && more >= agreeLeadRatio*float64(nr) &&
		newTextRef(joined).seqShare(leadOf(traf, agreeLeadWords)) < agreeLeadShare:
		how = "widened"
	}
	if how != "" {
		if held := ref.held(page); len(held) > 0 {
			return held, how
		}
	}
	long := make([]bool, len(blocks)) // a long block trafilatura supports
	short := make([]bool, len(blocks))
	first, last := -1, -1 // the article's edges: long blocks trafilatura has in order
	for i, b := range blocks {
		ws := wordsOf(b.text)
		in, all := ref.bagShare(ws)
		switch {
		case agreeCount(ws) < agreeMinWords:
			short[i] = true
		case float64(in) >= agreeKeep*float64(all):
			long[i] = true
			if ref.seqShare(b.text) < agreeEdgeSupport {
				break
			}
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	tail := tailRun(blocks, long, last, ref)
	body := lackedCaptions(blocks, nr, ref)
	kept := blocks[:0:0]
	for i, b := range blocks {
		switch {
		case tail[i]:
			continue
		case body[i]:
			continue
		case long[i]:
		case !short[i]:
			continue
		case i > first && i < last: // inside the article's body
		case ref.seqShare(b.text) < agreeShortSupport:
			continue
		}
		kept = append(kept, b)
	}
	return kept, "checked"
}

// tailRun marks the long blocks (long) after the article's last edge
// (last, -1: none) that trafilatura's text has by their words only (under
// agreeTailSupport of their word trigrams), when there are two or more of
// them: a list of related posts (see agree). One alone is not marked.
func tailRun(blocks []block, long []bool, last int, ref *textRef) []bool {
	tail := make([]bool, len(blocks))
	n := 0
	for i := last + 1; last >= 0 && i < len(blocks); i++ {
		if long[i] && ref.seqShare(blocks[i].text) < agreeTailSupport {
			tail[i] = true
			n++
		}
	}
	if n < 2 {
		clear(tail)
	}
	return tail
}

// lackedCaptions marks the captions (blocks with caption set, or whose
// text reads as a photo's credit, creditLike, or is a date line,
// dateLine; a table is none) that
// trafilatura's text lacks in order (under agreeBodySupport of
// their word trigrams; under three words, their words not in that
// order), wherever they stand and however long: a photo's or a video's
// caption and its credit, with the article's topic words and none of its
// sentences. When they add up to over agreeBodyShare of readability's
// words (nr) none is marked: the captions tell the story. (html/28 marked
// the long ones between the article's edges only: the short ones stayed
// as the body's, and one above the first edge as a standfirst.)
func lackedCaptions(blocks []block, nr int, ref *textRef) []bool {
	marked := make([]bool, len(blocks))
	n := 0
	for i, b := range blocks {
		if (b.caption || creditLike(b.text) || dateLine(b.text)) && b.table == nil && ref.seqShare(b.text) < agreeBodySupport {
			marked[i] = true
			n += len(wordsOf(b.text))
		}
	}
	if float64(n) > agreeBodyShare*float64(nr) {
		clear(marked)
	}
	return marked
}

// held is the page's blocks trafilatura's text holds (agreeWidenSupport of
// their word trigrams, as readability's short blocks at the article's edges
// are judged). A block of under three words is held only between
// two long held blocks, or as the heading right before the first: its words
// in order anywhere in the text are no evidence (a menu's "Home", "News"
// whenever the article says them), and a wordless block ("•") none at all.
// A block of three words or more held already is not held again:
// trafilatura keeps a repeated text once, and a page repeats a block for
// another screen size (a donation appeal three times at an article's end).
func (r *textRef) held(page []block) []block {
	ok := make([]bool, len(page))
	first, last := -1, -1
	for i, b := range page {
		n := agreeCount(wordsOf(b.text))
		if n < 3 || r.seqShare(b.text) < agreeWidenSupport {
			continue
		}
		ok[i] = true
		if n >= agreeMinWords {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	var held []block
	seen := map[string]bool{}
	for i, b := range page {
		n := agreeCount(wordsOf(b.text))
		if n >= 3 && seen[b.text] {
			continue // the same block again (a layout's copy for another screen size)
		}
		inside := i > first && i < last
		heading := i+1 == first && b.cat == document.Title
		switch {
		case ok[i]:
		case n < 3 && n > 0 && (inside || heading) && r.seqShare(b.text) >= agreeWidenSupport:
		case n == 0 && inside:
		default:
			continue
		}
		held = append(held, b)
		seen[b.text] = true
	}
	return held
}

// textRef indexes trafilatura's text: its bag of words, its word trigrams
// and its word sequence.
type textRef struct {
	bag   map[string]int
	tri   map[[3]string]bool
	seq   string
	words int
}

func newTextRef(s string) *textRef {
	w := wordsOf(s)
	r := &textRef{bag: map[string]int{}, tri: map[[3]string]bool{}, seq: " " + strings.Join(w, " ") + " ", words: len(w)}
	for i, x := range w {
		r.bag[x]++
		if i+2 < len(w) {
			r.tri[[3]string{x, w[i+1], w[i+2]}] = true
		}
	}
	return r
}

// bagShare counts the words ws (all) and how many of them the text has
// (in).
func (r *textRef) bagShare(ws []string) (in, all int) {
	for w, n := range wordBag(ws) {
		all += n
		in += min(n, r.bag[w])
	}
	return in, all
}

// seqShare is the share of s's word trigrams in the text; under three
// words, 1 when the text has s's words in that order, else 0.
func (r *textRef) seqShare(s string) float64 {
	w := wordsOf(s)
	if len(w) == 0 {
		return 1
	}
	if len(w) < 3 {
		if strings.Contains(r.seq, " "+strings.Join(w, " ")+" ") {
			return 1
		}
		return 0
	}
	in := 0
	for i := 0; i+2 < len(w); i++ {
		if r.tri[[3]string{w[i], w[i+1], w[i+2]}] {
			in++
		}
	}
	return float64(in) / float64(len(w)-2)
}

// creditLabel finds what marks a photo's credit line: a label before a
// colon ("Photo:", "Foto:", "Bild:", "Image:", "Credit:", "Crédito:",
// "Abbildung:"), a copyright sign, or a picture agency's name. Pages set
// credits and captions in plain paragraphs and spans as often as in a
// figcaption (html/32: "© Presse- und Informationsamt | Jesco Denzel",
// "Kena Betancur/Getty Images" stayed as the body's text). Compiled on
// first use, as datePattern: no command but an extraction's pays for it.
var creditLabel = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(^|[\s(|/–—-])(photo|foto|bild|image|picture|credit|crédit|crédito|abbildung)s?\s*:|©|getty ?images|shutterstock|istock|stock\.adobe|adobe ?stock|unsplash|picture[- ]alliance|ap photo`)
})

// creditLimit: a block of this many words or more is no credit line,
// whatever it holds (a paragraph that names a photographer).
const creditLimit = 40

// creditLike says whether s reads as a photo's credit or a caption with
// one: under creditLimit words holding a creditLabel.
func creditLike(s string) bool {
	return len(wordsOf(s)) < creditLimit && creditLabel().MatchString(s)
}

// datePattern finds a date: 11.04.2020, 03/05/22, 2022-05-03, "16 marca
// 2021", "3. Februar 2022", "March 16, 2021" (a month's name or
// abbreviation has three letters or more: "12 of 2021" is none).
var datePattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b\d{1,2}[./-]\d{1,2}[./-](19|20)?\d{2}\b|\b(19|20)\d{2}-\d{2}-\d{2}\b|\b\d{1,2}\.?\s+\pL{3,}\.?\s+(19|20)\d{2}\b|\pL{3,}\.?\s+\d{1,2},?\s+(19|20)\d{2}\b`)
})

// dateLineWords: a line of more words than this is no date line.
const dateLineWords = 8

// dateLine says whether s is a date line (a publication or update
// stamp: "Aktualisiert: 11.04.2020, 10:27", "16 marca 2021"): at most
// dateLineWords words holding a date. Judged as a caption is (html/33):
// between the article's edges such a line stayed as the body's.
func dateLine(s string) bool {
	return len(wordsOf(s)) <= dateLineWords && datePattern().MatchString(s)
}

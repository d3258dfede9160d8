package main

import (
	"path/filepath"
	"testing"
)

// TestComparisonPagesParsesDataAndHoldsOut: data.go's entries are read with
// go/parser; a page named by 32 hex digits (the article-extraction
// benchmark's) is counted as held out and never listed, even when its file
// is there; a page in test-files/mock is found; an entry without a file on
// disk is left out.
func TestComparisonPagesParsesDataAndHoldsOut(t *testing.T) {
	dir := t.TempDir()
	data := `package main

var comparisonData = map[string]ComparisonEntry{
	"https://a.example/": {
		File:    "a.example.html",
		With:    []string{"kept text", "second"},
		Without: []string{"Impressum"},
	},
	"https://b.example/": {
		File:    "0123456789abcdef0123456789abcdef.html",
		With:    []string{"x"},
		Without: []string{"y"},
	},
	"https://c.example/": {
		File:    "c.example.html",
		With:    []string{"mock page"},
		Without: []string{"z"},
	},
	"https://d.example/": {
		File:    "missing.html",
		With:    []string{"gone"},
	},
}
`
	writeTree(t, dir, map[string]string{
		"scripts/comparison/data.go":                                  data,
		"test-files/comparison/a.example.html":                        "<p>kept text</p>",
		"test-files/comparison/0123456789abcdef0123456789abcdef.html": "<p>x</p>",
		"test-files/mock/c.example.html":                              "<p>mock page</p>",
	})
	pages, heldOut, err := comparisonPages(dir)
	if err != nil {
		t.Fatal(err)
	}
	if heldOut != 1 {
		t.Errorf("held out %d pages, want 1", heldOut)
	}
	if len(pages) != 2 || pages[0].file != "a.example.html" || pages[1].file != "c.example.html" {
		t.Fatalf("pages %+v, want a.example.html and c.example.html", pages)
	}
	if got := pages[0]; len(got.with) != 2 || got.with[1] != "second" || len(got.without) != 1 || got.without[0] != "Impressum" {
		t.Errorf("snippets of a.example.html: with %q without %q", got.with, got.without)
	}
	if filepath.Base(filepath.Dir(pages[1].path)) != "mock" {
		t.Errorf("c.example.html found at %s, want test-files/mock", pages[1].path)
	}
}

// TestScoreSnippets: counted as scripts/comparison does, with white space
// runs folded on both sides; an empty text finds nothing.
func TestScoreSnippets(t *testing.T) {
	pg := comparisonPage{with: []string{"the  budget\nwas approved", "missing words"}, without: []string{"Impressum", "Share this"}}
	s := scoreSnippets(pg, "The vote.\n\nthe budget was\napproved today. Share this story")
	if s != (snippetScore{tp: 1, fn: 1, fp: 1, tn: 1}) {
		t.Errorf("score %+v, want 1 of each", s)
	}
	if s := scoreSnippets(pg, ""); s != (snippetScore{fn: 2, tn: 2}) {
		t.Errorf("empty text: %+v", s)
	}
	p, r, f := snippetScore{tp: 6, fp: 2, fn: 2}.prf()
	if p != 0.75 || r != 0.75 || f != 0.75 {
		t.Errorf("prf %v %v %v, want 0.75 each", p, r, f)
	}
}

// TestScoreSnippetsSoftHyphens: a soft hyphen is not a character a reader
// sees, on either side: a snippet copied with them matches a text without
// them (archive.org.steinzeitwissen's), a snippet without them a text with
// them (wehranlage-horka's page hyphenates with &shy;), and the word split
// does not cut a word at one.
func TestScoreSnippetsSoftHyphens(t *testing.T) {
	pg := comparisonPage{with: []string{"Werk\u00adzeug\u00adty\u00adpen und ihre Laufzeiten", "Markt schlendern"}, without: []string{"Im\u00adpres\u00adsum"}}
	if s := scoreSnippets(pg, "Werkzeugtypen und ihre Lauf\u00adzei\u00adten. Über den Markt schlen\u00addern. Impressum"); s != (snippetScore{tp: 2, fp: 1}) {
		t.Errorf("score %+v, want both snippets found and the without one too", s)
	}
	if got := splitWords("schlen\u00addern"); len(got) != 1 || got[0] != "schlendern" {
		t.Errorf("words %q, want [schlendern]", got)
	}
}

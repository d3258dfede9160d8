package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTree writes each file (path under dir: content), making folders.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestGoNewsPagesParsesArticles: crawler_test.go's Article literals are
// read with go/parser (an escaped quote and newline unquoted); an
// expectation under goosePrefixWords words is counted as short and left
// out, a Domain without a page under sites/ and a second literal of the
// same Domain are left out, and the pages come sorted by name.
func TestGoNewsPagesParsesArticles(t *testing.T) {
	body := strings.Repeat("word ", goosePrefixWords-1)
	src := "package goose\n\nfunc TestA(t *testing.T) {\n" +
		"\tarticle := Article{\n\t\tDomain: \"z.example\",\n\t\tTitle: \"Z\",\n\t\tCleanedText: \"He said \\\"yes\\\".\\n\\n" + body + "\",\n\t}\n" +
		"\t_ = Article{Domain: \"a.example\", CleanedText: \"" + body + "end\"}\n" +
		"\t_ = Article{Domain: \"a.example\", CleanedText: \"second literal\"}\n" +
		"\t_ = Article{Domain: \"short.example\", CleanedText: \"a sentence\"}\n" +
		"\t_ = Article{Domain: \"nopage.example\", CleanedText: \"" + body + "x\"}\n" +
		"\t_ = article\n}\n"
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"crawler_test.go":          src,
		"sites/z.example.html":     "<p>z</p>",
		"sites/a.example.html":     "<p>a</p>",
		"sites/short.example.html": "<p>s</p>",
	})
	pages, short, err := goNewsPages(dir)
	if err != nil {
		t.Fatal(err)
	}
	if short != 1 {
		t.Errorf("%d short expectations, want 1", short)
	}
	if len(pages) != 2 || pages[0].name != "a.example" || pages[1].name != "z.example" {
		t.Fatalf("pages %+v, want a.example and z.example", pages)
	}
	if want := "He said \"yes\".\n\n" + body; pages[1].want != want {
		t.Errorf("z.example's expectation %q, want %q", pages[1].want, want)
	}
	if !strings.HasSuffix(pages[0].want, "end") || pages[0].path != filepath.Join(dir, "sites", "a.example.html") {
		t.Errorf("a.example: %+v", pages[0])
	}
}

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// nameIn is the first of prefix-1, prefix-2… that Split puts in split.
func nameIn(split, prefix string) string {
	for i := 1; ; i++ {
		if n := fmt.Sprintf("%s-%d", prefix, i); Split(n) == split {
			return n
		}
	}
}

// TestExplainRefuses: a report page and a name of hex digits (the held-out
// benchmark's kind, whatever its split) are refused before anything is
// read; a path is no page name.
func TestExplainRefuses(t *testing.T) {
	for _, name := range []string{nameIn("report", "page"), "0123456789abcdef0123456789abcdef.html", "0123456789abcdef0123456789abcdef0.html", "../x"} {
		err := explain(&bytes.Buffer{}, name, t.TempDir(), t.TempDir(), nil)
		if err == nil {
			t.Errorf("%s: explained, want refused", name)
		}
	}
	if why := explainRefusal(nameIn("tune", "page")); why != "" {
		t.Errorf("a tune page refused: %s", why)
	}
}

// TestExplainHTMLMain: on an html-main tune page, a candidate's block the
// expected text lacks is extra, with its words; the expected block it
// lacks is missed; a word the headline repeats from the body is charged
// to the headline, not to the body's paragraph.
func TestExplainHTMLMain(t *testing.T) {
	corpus := t.TempDir()
	name := nameIn("tune", "news")
	dir := filepath.Join(corpus, "html-main", name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	exp := `<div><p>The council approved the budget on Monday.</p><p>Staff: Ann Lee</p></div>`
	for f, body := range map[string]string{"source.html": "<p>x</p>", "expected.html": exp} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cand := candidate{"fixed", "fix", func([]byte) string {
		return "Council approved budget\n\nThe council approved the budget on Monday.\n\nRelated: parking fees rise"
	}}
	var out bytes.Buffer
	if err := explain(&out, name, corpus, t.TempDir(), []candidate{cand}); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		`extra  3/3 "Council approved budget" [council approved budget]`,
		`extra  4/4 "Related: parking fees rise" [related parking fees rise]`,
		`missed 3/3 "Staff: Ann Lee" [staff ann lee]`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, `"The council approved`) {
		t.Errorf("the body's paragraph was charged:\n%s", got)
	}
}

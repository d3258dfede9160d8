package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoosePagesReadsFixtures: a fixture with a cleaned_text and its page
// is listed, by name without test_; one without a cleaned_text (a tags
// test) or without its page is not; a page byte for byte another's is
// counted as a copy, not scored twice; an expectation of goosePrefixWords
// words or more is a whole body.
func TestGoosePagesReadsFixtures(t *testing.T) {
	dir := t.TempDir()
	fix := filepath.Join(dir, "package", "fixtures")
	if err := os.MkdirAll(fix, 0o755); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("word ", goosePrefixWords)
	files := map[string]string{
		"test_a.json":    `{"url": "http://a", "expected": {"cleaned_text": "First words of a."}}`,
		"test_a.html":    `<p>page a</p>`,
		"test_b.json":    `{"expected": {"tags": ["x"]}}`,
		"test_b.html":    `<p>page b</p>`,
		"test_c.json":    `{"expected": {"cleaned_text": "c"}}`,
		"test_copy.json": `{"expected": {"cleaned_text": "First words of a."}}`,
		"test_copy.html": `<p>page a</p>`,
		"test_w.json":    `{"expected": {"cleaned_text": "` + long + `"}}`,
		"test_w.html":    `<p>page w</p>`,
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(fix, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pages, dups, err := goosePages(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range pages {
		names = append(names, p.name)
	}
	if strings.Join(names, ",") != "a,w" || dups != 1 {
		t.Fatalf("pages %v, copies %d; want a,w and 1", names, dups)
	}
	if pages[0].whole || !pages[1].whole {
		t.Errorf("whole: a %v, w %v; want false, true", pages[0].whole, pages[1].whole)
	}
}

// TestFindLede: the expectation's first words are looked for in order;
// the words before them count, and those of the headline are not junk;
// a text without them has lost the lede.
func TestFindLede(t *testing.T) {
	head := map[string]bool{"big": true, "news": true}
	want := "Six years ago, Olivia Munn arrived in Hollywood with fading ambitions"
	got := "Big News\n\nBy Felix Gillette\n\nSix years ago, Olivia Munn arrived in Hollywood with fading ambitions of making it"
	if l := findLede(got, want, head); !l.found || l.before != 5 || l.junk != 3 {
		t.Errorf("findLede = %+v; want found, 5 before, 3 junk", l)
	}
	if l := findLede("Six years ago, Olivia Munn arrived in Paris", want, head); l.found {
		t.Errorf("findLede = %+v; want lost (the eighth word differs)", l)
	}
}

// TestFindLedeChinese: unsegmented Chinese is scored by the character, and
// the lede is eight English words' worth (16 characters), not eight
// clauses: a caption between the expectation's first two sentences no
// longer loses the lede (bbc_chinese was lost for every candidate), and
// the caption before it counts its worth in words.
func TestFindLedeChinese(t *testing.T) {
	p1 := "香港行政长官在各方压力下到立法会接受质询，并向香港民众道歉。"
	p2 := "他在星期二的答问大会开始之际在其演说中道歉，但强调他没有隐瞒的意图。"
	caption := "行政长官同时遭到议员质问。"
	l := findLede(caption+"\n"+p1+"\n"+"图片说明\n"+p2, p1+"\n\n"+p2, map[string]bool{})
	if !l.found || l.junk != 6 {
		t.Errorf("findLede = %+v; want found, 6 words of junk (12 characters)", l)
	}
	if got := strings.Join(splitWords("行政 长官, café 2 हिन्दी ไทย"), " "); got != "行 政 长 官 café 2 हिन्दी ไ ท ย" {
		t.Errorf("splitWords = %q", got)
	}
}

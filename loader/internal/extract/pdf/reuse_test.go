package pdf

import (
	"fmt"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// reusePDF: pages of three separated body paragraphs each, every line
// naming its page.
func reusePDF(pages int) []byte {
	var ps []pg
	for p := 1; p <= pages; p++ {
		var items []txt
		for k, y := range []float64{100, 250, 400} {
			items = append(items, column(72, y,
				fmt.Sprintf("page %d paragraph %d opens with several plain words", p, k),
				fmt.Sprintf("and page %d paragraph %d closes with a few more.", p, k))...)
		}
		ps = append(ps, pg{Items: items})
	}
	return makePDF(ps)
}

// A document's pages after reusePages fill the same Line and Word arrays
// (allocated once, not once per page), each page with its own text; a
// Doc that did not ask keeps every page's arrays apart.
func TestReusedPagesShareArrays(t *testing.T) {
	first := func(lay *Layout) (*Line, *Word) {
		t.Helper()
		ln := &lay.Blocks[0].Lines[0]
		if len(ln.Words) == 0 {
			t.Fatalf("page %d: no words in %q", lay.Number, ln.Text)
		}
		return ln, &ln.Words[0]
	}
	pages := func(reuse bool) (l1, l2 *Line, w1, w2 *Word, text2 string) {
		doc, err := OpenBytes(reusePDF(2), "application/pdf")
		if err != nil {
			t.Fatal(err)
		}
		defer doc.Close()
		if reuse {
			doc.reusePages()
		}
		lay1, err := doc.PageWith(1, Words, true)
		if err != nil {
			t.Fatal(err)
		}
		l1, w1 = first(lay1)
		if reuse {
			// what page 1 holds once page 2 is read: shared, so read now
			if l1.Text != "page 1 paragraph 0 opens with several plain words" || w1.Text != "page" {
				t.Fatalf("page 1: line %q, word %q", l1.Text, w1.Text)
			}
		}
		lay2, err := doc.PageWith(2, Words, true)
		if err != nil {
			t.Fatal(err)
		}
		l2, w2 = first(lay2)
		return l1, l2, w1, w2, l2.Text
	}
	l1, l2, w1, w2, text := pages(true)
	if l1 != l2 || w1 != w2 {
		t.Errorf("reused: page 2's first line/word at %p/%p, page 1's at %p/%p: arrays allocated again", l2, w2, l1, w1)
	}
	if text != "page 2 paragraph 0 opens with several plain words" {
		t.Errorf("reused: page 2's first line %q", text)
	}
	l1, l2, w1, w2, _ = pages(false)
	if l1 == l2 || w1 == w2 {
		t.Errorf("not reused: pages 1 and 2 share their arrays")
	}
	if l1.Text != "page 1 paragraph 0 opens with several plain words" {
		t.Errorf("not reused: page 1's line became %q after page 2 was read", l1.Text)
	}
}

// A document's elements are allocated once, at their final length (grown
// by append, they were copied ~log2(n) times).
func TestElementsAllocatedOnce(t *testing.T) {
	res, err := (Extractor{}).ExtractBytes(t.Context(), reusePDF(3), "", document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Elements) != 9 {
		t.Fatalf("%d elements, want 9 (three paragraphs on each of three pages): %+v", len(res.Elements), res.Elements)
	}
	if cap(res.Elements) != len(res.Elements) || cap(res.Pages) != len(res.Pages) {
		t.Errorf("elements: cap %d for %d, pages: cap %d for %d: grown by append", cap(res.Elements), len(res.Elements), cap(res.Pages), len(res.Pages))
	}
}

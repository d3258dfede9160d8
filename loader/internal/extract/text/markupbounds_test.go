package text

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
)

// TestOrgOpenBlocksAreCheap (text/21, review45's LOW on go-org): an
// #+BEGIN_ line no #+END_ line closes lands as the text go-org falls back
// to, the same text and paragraphs as before, said in a warning; go-org
// parsed the rest of the file for each such line (a source block's text
// built line by line: one before 160 KB of text allocated gigabytes and
// took 1.5 s, 4,000 unterminated quotes 8.5 s). The text after it lands
// whole.
func TestOrgOpenBlocksAreCheap(t *testing.T) {
	src := "Intro\n#+begin_example\nline\n\n#+BEGIN_SRC go\n" + strings.Repeat("word word word word\n\n", 8000) + "The end.\n"
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	res, err := ExtractBytes(context.Background(), []byte(src), detect.Info{Type: detect.Org}, document.Options{})
	runtime.ReadMemStats(&m1)
	if err != nil {
		t.Fatal(err)
	}
	if alloc := m1.TotalAlloc - m0.TotalAlloc; alloc > 256<<20 {
		t.Errorf("%d MB allocated for a %d KB file", alloc>>20, len(src)>>10)
	}
	text := res.Pages[0].Text
	if !strings.HasPrefix(text, "Intro\n\n#+begin_example\nline\n\n#+BEGIN_SRC go\nword word word word\n\nword") || !strings.HasSuffix(text, "The end.") {
		t.Errorf("text %.120q ... %q", text, text[max(0, len(text)-40):])
	}
	if w := strings.Join(res.Warnings, "\n"); !strings.Contains(w, "2 #+BEGIN_ (or \\begin{}) line(s) have no end line") {
		t.Errorf("warnings %q", res.Warnings)
	}
}

// TestMarkdownDeepQuotesLandAsSource (text/21, review45's LOW on
// goldmark): a Markdown file whose block quotes nest deeper than goldmark
// reads in reasonable time (its time grows with the square of the depth:
// one line of 262,144 ">" took 21.6 s) lands as its source text, said; a
// mail thread quoted 40 deep is read as before.
func TestMarkdownDeepQuotesLandAsSource(t *testing.T) {
	res, err := ExtractBytes(context.Background(), []byte(strings.Repeat(">", 64<<10)+" deep reply\n"), detect.Info{Type: detect.Markdown}, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Pages[0].Text, "deep reply") || !strings.Contains(strings.Join(res.Warnings, "\n"), "block quotes nested 65536 deep") {
		t.Errorf("text %.80q, warnings %q", res.Pages[0].Text[max(0, len(res.Pages[0].Text)-80):], res.Warnings)
	}
	res, err = ExtractBytes(context.Background(), []byte(strings.Repeat(strings.Repeat("> ", 40)+"a reply line\n", 200)), detect.Info{Type: detect.Markdown}, document.Options{})
	if err != nil || len(res.Warnings) != 0 || strings.Contains(res.Pages[0].Text, ">") {
		t.Errorf("quoted thread: warnings %q, text %.80q (%v)", res.Warnings, res.Pages[0].Text, err)
	}
}

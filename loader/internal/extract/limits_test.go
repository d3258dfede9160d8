package extract

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/text"
	"github.com/docket-dev/docket/loader/internal/worker"
)

// checkElements: every element's text is its page's text at its offsets.
func checkElements(t *testing.T, res *document.Result) {
	t.Helper()
	pages := map[int][]rune{}
	for _, p := range res.Pages {
		pages[p.Number] = []rune(p.Text)
	}
	for _, e := range res.Elements {
		pt, ok := pages[e.Page]
		if !ok || e.CharStart < 0 || e.CharEnd > len(pt) || e.CharStart > e.CharEnd {
			t.Fatalf("element %d (page %d, %d-%d) outside its page", e.Seq, e.Page, e.CharStart, e.CharEnd)
		}
		if got := strings.TrimSpace(string(pt[e.CharStart:e.CharEnd])); !strings.Contains(got, strings.TrimSpace(e.Text)) && !strings.Contains(strings.Join(strings.Fields(got), " "), strings.Join(strings.Fields(e.Text), " ")) {
			t.Fatalf("element %d text %.40q is not its page's %.40q", e.Seq, e.Text, got)
		}
	}
}

func TestLimitTextSplitsALongFlatPage(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 25_000; i++ {
		fmt.Fprintf(&b, "Paragraph %d of the long note, with a few words to carry.\n\n", i)
	}
	src := b.String()
	res, err := text.ExtractBytes(context.Background(), []byte(src), detect.Info{Type: detect.Text, Encoding: detect.UTF8}, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	LimitText(res, 1000, 0)
	if len(res.Pages) < 25 {
		t.Fatalf("a 25k-character page should be split into pages of at most 1000, got %d pages", len(res.Pages))
	}
	var all strings.Builder
	for i, p := range res.Pages {
		if n := len([]rune(p.Text)); n > 1000 {
			t.Fatalf("page %d has %d characters", i+1, n)
		}
		if p.Number != i+1 {
			t.Fatalf("page %d numbered %d", i+1, p.Number)
		}
		all.WriteString(p.Text)
	}
	if all.String() != src {
		t.Fatal("splitting lost or changed text")
	}
	if len(res.AllReviews()) != 0 {
		t.Errorf("a split loses nothing and needs no review: %v", res.AllReviews())
	}
	checkElements(t, res)
}

func TestLimitTextCutsLongPagesAndDocuments(t *testing.T) {
	long := strings.Repeat("x", 5000)
	res := &document.Result{Pages: []document.Page{{Number: 1, Text: "short page"}, {Number: 2, Text: long}, {Number: 3, Text: "third"}},
		Elements: []document.Element{{Page: 1, Text: "short page", CharEnd: 10}, {Page: 2, Text: long, CharEnd: 5000}, {Page: 3, Text: "third", CharEnd: 5, Seq: 2}}}
	LimitText(res, 1000, 0)
	if n := len(res.Pages[1].Text); n != 1000 || !strings.HasPrefix(res.Pages[1].ReviewReason, document.ReviewTruncated) {
		t.Fatalf("page 2 should be cut to 1000 characters and flagged, got %d, %q", n, res.Pages[1].ReviewReason)
	}
	if res.Pages[2].Text != "third" || len(res.Elements) != 3 || res.Elements[1].CharEnd != 1000 {
		t.Fatalf("only page 2 should be cut: %+v", res.Elements)
	}
	checkElements(t, res)

	// Past the document limit the rest of the text is dropped.
	pages := []document.Page{}
	for i := 1; i <= 4; i++ {
		pages = append(pages, document.Page{Number: i, Text: strings.Repeat("y", 800)})
	}
	res = &document.Result{Pages: pages, Elements: []document.Element{{Page: 4, Text: "y", CharStart: 10, CharEnd: 11}}}
	LimitText(res, 1000, 2000)
	got := []int{}
	for _, p := range res.Pages {
		got = append(got, len(p.Text))
	}
	if fmt.Sprint(got) != "[800 800 400 0]" || len(res.Elements) != 0 {
		t.Fatalf("want pages of 800 800 400 0 characters and page 4's element gone, got %v, %d elements", got, len(res.Elements))
	}
	rv := res.AllReviews()
	if len(rv) != 1 || rv[0].Code != document.ReviewTruncated || rv[0].Page != 0 {
		t.Fatalf("want one document-level truncated review, got %v", rv)
	}
}

// A single 64 MB line (issue 18 probed 384 MB) lands as bounded pages.
func TestLimitTextOneHugeLine(t *testing.T) {
	if testing.Short() {
		t.Skip("64 MB")
	}
	data := []byte(strings.Repeat("word ", 64<<20/5))
	res, err := text.ExtractBytes(context.Background(), data, detect.Info{Type: detect.Text, Encoding: detect.UTF8}, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	LimitText(res, 1_000_000, 20_000_000)
	total := 0
	for _, p := range res.Pages {
		if len(p.Text) > 1_000_000 {
			t.Fatalf("page %d has %d bytes", p.Number, len(p.Text))
		}
		total += len(p.Text)
	}
	if total != 20_000_000 || len(res.Pages) != 64<<20/1_000_000+1 {
		t.Fatalf("want 20M characters kept over %d pages, got %d over %d", 64<<20/1_000_000+1, total, len(res.Pages))
	}
	checkElements(t, res)
}

// TestRouteAppliesTextLimits: the limits apply to what a worker returns
// (LimitText existed but Route never called it, and `make hostile` landed
// a 384 MB one-line text as one page), for a flat format and a paged one.
func TestRouteAppliesTextLimits(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("many words on one line ", 3000) // 69,000 characters, no line end
	txt := filepath.Join(dir, "long.txt")
	os.WriteFile(txt, []byte(long), 0o644)
	opts := document.Options{MaxPageChars: 10_000, MaxDocChars: 50_000}
	res, err := Route(context.Background(), worker.Request{Path: txt, Type: detect.Text, Encoding: detect.UTF8, Opts: opts})
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, p := range res.Pages {
		if n := len([]rune(p.Text)); n > 10_000 {
			t.Fatalf("page %d has %d characters, over max_page_chars", p.Number, n)
		}
		total += len([]rune(p.Text))
	}
	if total != 50_000 || len(res.Pages) < 5 {
		t.Fatalf("want 50,000 characters kept over at least 5 pages, got %d over %d", total, len(res.Pages))
	}
	if !hasReview(res, document.ReviewTruncated) {
		t.Fatalf("the dropped text should be flagged truncated: %v", res.AllReviews())
	}
	checkElements(t, res)

	// Without limits nothing is cut.
	res, err = Route(context.Background(), worker.Request{Path: txt, Type: detect.Text, Encoding: detect.UTF8})
	if err != nil || len(res.Pages) != 1 || res.Pages[0].Text != long {
		t.Fatalf("no limits: want the one page whole, got %v", err)
	}
}

func hasReview(res *document.Result, code string) bool {
	for _, r := range res.AllReviews() {
		if r.Code == code {
			return true
		}
	}
	return false
}

package pdf

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf/pdftest"
)

// TestContentStreamBombIsNotRead (issue 17): a page whose content holds
// more than loader.max_page_tokens tokens (a glyph shown counts 16) is
// landed empty and flagged page_unreadable instead of being interpreted
// for minutes (a page whose stream inflated to 1 GiB of operators took a
// worker 5 minutes); the other pages are read, and without the limit the
// same page is read whole. Path operators and text operators both count.
func TestContentStreamBombIsNotRead(t *testing.T) {
	paths := strings.TrimSpace(strings.Repeat("0 0 m 612 792 l S\n", 20_000))                 // 140,000 tokens
	text := strings.TrimSpace(strings.Repeat("BT /F1 9 Tf 20 700 Td (Dull.) Tj ET\n", 2_000)) // 20,000 tokens + 10,000 glyphs
	for _, c := range []struct{ name, draw string }{{"paths", paths}, {"text", text}} {
		t.Run(c.name, func(t *testing.T) {
			path := pdftest.Write(t, []pdftest.Page{
				{Items: pdftest.Column(72, 72, "An ordinary first page.")},
				{Items: pdftest.Column(72, 72, "The bomb page."), Draw: []string{c.draw}},
			})
			res, err := Extract(t.Context(), path, document.Options{MaxPageTokens: 100_000})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Pages) != 2 || !strings.Contains(res.Pages[0].Text, "ordinary first page") || res.Pages[1].Text != "" {
				t.Fatalf("want page 1 read and page 2 empty, got %d pages: %q", len(res.Pages), pageTexts(res))
			}
			rv := res.AllReviews()
			if len(rv) != 1 || rv[0].Page != 2 || rv[0].Code != document.ReviewPageUnreadable || !strings.Contains(rv[0].Message, "loader.max_page_tokens") {
				t.Fatalf("want page 2 flagged page_unreadable naming loader.max_page_tokens, got %v", rv)
			}
			res, err = Extract(t.Context(), path, document.Options{})
			if err != nil || !strings.Contains(res.Pages[1].Text, "bomb page") || len(res.AllReviews()) != 0 {
				t.Fatalf("without the limit page 2 is read: %v, %v", err, res.AllReviews())
			}
		})
	}
}

func pageTexts(res *document.Result) []string {
	var out []string
	for _, p := range res.Pages {
		out = append(out, p.Text)
	}
	return out
}

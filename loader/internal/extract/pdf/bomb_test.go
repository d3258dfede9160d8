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
	// MuPDF reads the whole stream once before interpreting it: bytes
	// count too (4 a token), comments and all.
	comments := strings.Repeat("% nothing to see here, just bytes to inflate and lex\n", 10_000) + "0 0 m"
	for _, c := range []struct{ name, draw, want string }{{"paths", paths, "loader.max_page_tokens"}, {"text", text, "loader.max_page_tokens"},
		{"bytes", comments, "inflate to more than 0.4 MB"}} {
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
			if len(rv) != 1 || rv[0].Page != 2 || rv[0].Code != document.ReviewPageUnreadable || !strings.Contains(rv[0].Message, c.want) {
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

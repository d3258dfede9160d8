package text

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// reviewCodes lists a result's review reason codes.
func reviewCodes(res *document.Result) []string {
	var codes []string
	for _, r := range res.Reviews {
		codes = append(codes, r.Code)
	}
	return codes
}

// TestXMLVoidNamedElements: well-formed XML whose elements are named as
// HTML's void tags (an RSS feed's <link>, an ODF drawing's <draw:frame>) is
// read whole. Read with HTML's auto-closing, each such element closed itself
// and its end tag stopped the parser: the feed landed its channel's title
// and link only, the drawing its first page, with a warning.
func TestXMLVoidNamedElements(t *testing.T) {
	tests := []struct {
		name, data string
		want       []string
	}{
		{"feed.rss", `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Example feed</title><link>https://example.com/</link>
<description>First description words</description>
<item><title>Second item title</title><link>https://example.com/2</link><description>Text of the item</description></item>
<item><title>Third item</title><link>https://example.com/3</link><meta>kept</meta></item>
</channel></rss>`, []string{"Example feed", "First description words", "Second item title", "Text of the item", "Third item", "kept"}},
		{"drawing.xml", `<?xml version="1.0"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:drawing>` +
			`<draw:page><draw:frame><draw:text-box><text:p>First page words</text:p></draw:text-box></draw:frame></draw:page>` +
			`<draw:page><draw:frame><draw:text-box><text:p>Second page words</text:p></draw:text-box></draw:frame><draw:frame><draw:image/></draw:frame></draw:page>` +
			`</office:drawing></office:body></office:document-content>`, []string{"First page words", "Second page words"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, tc.name, []byte(tc.data))
			text := res.Pages[0].Text
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("%q missing from %q", w, text)
				}
			}
			if len(res.Warnings) != 0 || len(res.Reviews) != 0 {
				t.Errorf("warnings %v, reviews %v on a well-formed file", res.Warnings, reviewCodes(res))
			}
		})
	}
}

// TestXMLLenientFallback: a file the strict parser rejects is still read
// leniently as before (an XHTML-ish bare <br>); one that neither reading
// gets through lands the text before the fault, with a truncated review
// naming it, not only a warning; one that only breaks off at its end lands
// all it has with a warning.
func TestXMLLenientFallback(t *testing.T) {
	res := run(t, "page.xml", []byte("<doc><p>one<br>two</p><p>three</p></doc>"))
	if text := res.Pages[0].Text; !strings.Contains(text, "three") || len(res.Reviews) != 0 {
		t.Errorf("bare <br>: text %q, reviews %v", text, reviewCodes(res))
	}

	res = run(t, "broken.xml", []byte("<doc><p>kept words</p></doc></doc><p>after the fault</p>"))
	text := res.Pages[0].Text
	if !strings.Contains(text, "kept words") || strings.Contains(text, "after the fault") {
		t.Errorf("malformed: text %q", text)
	}
	if codes := reviewCodes(res); len(codes) != 1 || codes[0] != document.ReviewTruncated || len(res.Warnings) != 1 {
		t.Errorf("malformed: reviews %v, warnings %v; want one truncated review and the parser's warning", codes, res.Warnings)
	}

	res = run(t, "cut.xml", []byte("<doc><p>first</p><p>seco"))
	if text := res.Pages[0].Text; !strings.Contains(text, "seco") || len(res.Reviews) != 0 || len(res.Warnings) != 1 {
		t.Errorf("cut at the end: text %q, reviews %v, warnings %v", text, reviewCodes(res), res.Warnings)
	}
}

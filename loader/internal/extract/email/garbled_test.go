package email

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestGarbledPlainTextReadsTheHTML: a text/plain part marked base64 that
// is plain text (a mail program's mislabel, as in enmime's testdata
// mime-bad-content-transfer-encoding.raw) decodes to garbage under the
// parser's recovery policy; the message's HTML alternative is read
// instead, said in a warning and a review. Before, the garbage landed as
// the body (only document.Check's "could not be decoded" review said
// anything) and the HTML's words were lost. A message whose plain text
// decodes cleanly keeps it.
func TestGarbledPlainTextReadsTheHTML(t *testing.T) {
	plain := strings.Repeat("The quarterly report is attached and the figures were checked twice by the board\r\n", 8)
	html := base64.StdEncoding.EncodeToString([]byte("<p>The quarterly report is attached.</p><p>Figures checked by the board.</p>"))
	msg := func(plainEnc, plainBody string) []byte {
		return []byte("From: a@example.com\r\nTo: b@example.com\r\nSubject: report\r\nMIME-Version: 1.0\r\n" +
			"Content-Type: multipart/alternative; boundary=\"B\"\r\n\r\n" +
			"--B\r\nContent-Type: text/plain; charset=\"UTF-8\"\r\nContent-Transfer-Encoding: " + plainEnc + "\r\n\r\n" + plainBody + "\r\n" +
			"--B\r\nContent-Type: text/html; charset=\"UTF-8\"\r\nContent-Transfer-Encoding: base64\r\n\r\n" + html + "\r\n--B--\r\n")
	}
	res, err := ExtractBytes(context.Background(), msg("base64", plain), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Pages[0].Text
	if !strings.Contains(text, "The quarterly report is attached.") || !strings.Contains(text, "Figures checked by the board.") || strings.ContainsRune(text, '\uFFFD') {
		t.Errorf("body %q, want the HTML part's text", text)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "text/plain part decodes to garbled text") {
		t.Errorf("warnings %q", res.Warnings)
	}
	if len(res.Reviews) != 1 || res.Reviews[0].Code != document.ReviewRepaired {
		t.Errorf("reviews %+v, want one %s", res.Reviews, document.ReviewRepaired)
	}
	good, err := ExtractBytes(context.Background(), msg("base64", base64.StdEncoding.EncodeToString([]byte(plain))), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(good.Pages[0].Text, "checked twice by the board") || len(good.Warnings) != 0 {
		t.Errorf("a clean plain part: body %q warnings %q", good.Pages[0].Text, good.Warnings)
	}
}

package email

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"golang.org/x/text/unicode/norm"
)

// A message written decomposed ("a" + U+0308 for "ä", as a mail program on
// macOS may send text pasted from a file name) lands its headers and body
// in NFC, as HTML (html/22) and the text formats (text/5) do: they landed
// as written, and a typed "Blätter" did not match them in SQL.
func TestDecomposedMessageLandsComposed(t *testing.T) {
	const nfdWord, nfcWord = "Bla\u0308tter", "Bl\u00e4tter"
	const nfdName, nfcName = "Jose\u0301", "Jos\u00e9"
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	head := "From: =?UTF-8?B?" + b64(nfdName) + "?= <jose@example.com>\r\nTo: b@example.com\r\n" +
		"Subject: =?UTF-8?B?" + b64("Die "+nfdWord) + "?=\r\nMIME-Version: 1.0\r\n"
	msgs := map[string]string{
		"plain": head + "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n" +
			b64("Die "+nfdWord+" fallen.\r\n") + "\r\n",
		"html": head + "Content-Type: text/html; charset=utf-8\r\n\r\n" +
			"<html><body><p>Die " + nfdWord + " fallen.</p></body></html>\r\n",
	}
	for name, msg := range msgs {
		t.Run(name, func(t *testing.T) {
			res, err := ExtractBytes(context.Background(), []byte(msg), document.Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkOffsets(t, name, res)
			all := []string{res.Pages[0].Text, res.Metadata.Title, res.Metadata.Author}
			for _, e := range res.Elements {
				all = append(all, e.Text, e.Section)
			}
			for _, v := range res.Metadata.Extra {
				all = append(all, v)
			}
			for _, s := range all {
				if !norm.NFC.IsNormalString(s) {
					t.Errorf("landed decomposed: %q", s)
				}
			}
			md := res.Metadata
			if md.Title != "Die "+nfcWord || md.Author != nfcName+" <jose@example.com>" || !strings.Contains(res.Pages[0].Text, "Die "+nfcWord+" fallen.") {
				t.Errorf("title %q author %q text %q", md.Title, md.Author, res.Pages[0].Text)
			}
		})
	}
}

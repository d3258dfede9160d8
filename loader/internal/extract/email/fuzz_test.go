package email

import (
	"context"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/document/doctest"
)

// FuzzExtractBytes: e-mail parsing (headers, MIME parts, encodings,
// attachment names) never panics and keeps the result's invariants.
func FuzzExtractBytes(f *testing.F) {
	for _, s := range []string{
		"From: a@b\r\nSubject: =?utf-8?q?caf=C3=A9?=\r\n\r\nbody\r\n",
		"Content-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\nContent-Type: text/plain\r\n\r\nhi\r\n--x\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename*=iso-8859-1''caf%E9.txt\r\n\r\nabc\r\n--x--\r\n",
		"Content-Type: text/html; charset=latin1\r\n\r\n<p>caf\xe9</p>",
		"Content-Transfer-Encoding: base64\r\n\r\n!!!notbase64",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := ExtractBytes(context.Background(), data, document.Options{MaxAttachDepth: 3})
		if err != nil {
			return
		}
		if err := doctest.Check(res); err != nil {
			t.Fatal(err)
		}
	})
}

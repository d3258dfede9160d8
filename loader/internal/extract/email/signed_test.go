package email

import (
	"context"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestSignedPartWithoutHeaders: an S/MIME signed message whose signed part
// starts with its text right after the boundary, without header lines
// (as the shared corpus's mixed/eml/signed-doc.p7s), lands that text with
// a warning saying how it was read and metadata saying it is signed; it was quarantined with the MIME
// parser's words ("malformed MIME header initial line").
func TestSignedPartWithoutHeaders(t *testing.T) {
	msg := "MIME-Version: 1.0\r\nSubject: Signed note\r\nContent-Type: multipart/signed; protocol=\"application/x-pkcs7-signature\"; micalg=\"sha-256\"; boundary=\"----B0UND\"\r\n\r\n" +
		"This is an S/MIME signed message\r\n\r\n------B0UND\r\nThe harbour cranes were idle in March.\r\n\r\n------B0UND\r\n" +
		"Content-Type: application/x-pkcs7-signature; name=\"smime.p7s\"\r\nContent-Transfer-Encoding: base64\r\nContent-Disposition: attachment; filename=\"smime.p7s\"\r\n\r\n<SIGNATURE>\r\n\r\n------B0UND--\r\n"
	res, err := ExtractBytes(context.Background(), []byte(msg), document.Options{MaxAttachDepth: 2})
	if err != nil {
		t.Fatalf("quarantined: %v", err)
	}
	text := ""
	for _, p := range res.Pages {
		text += p.Text
	}
	if !strings.Contains(text, "The harbour cranes were idle in March.") {
		t.Errorf("the signed text did not land: %q", text)
	}
	if got := res.Metadata.Extra["signed"]; got != "signed (application/x-pkcs7-signature); the signature was not verified" {
		t.Errorf("metadata extra signed = %q", got)
	}
	// The signature's placeholder is not base64: the signature is neither
	// landed nor verified, so the MIME parser's "[E] Malformed Base64" is
	// not repeated.
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "1 part(s) of the message start with text where MIME wants their header lines") {
		t.Errorf("warnings %q, want only the one on the part read without headers", res.Warnings)
	}
}

// TestMIMEWarningsInPlainWords: what the MIME parser lost is said in plain
// words naming the part, not in its own ("[E] Malformed Base64: illegal
// base64 data at input byte 0").
func TestMIMEWarningsInPlainWords(t *testing.T) {
	msg := "MIME-Version: 1.0\r\nSubject: Report\r\nContent-Type: multipart/mixed; boundary=\"B\"\r\n\r\n--B\r\nContent-Type: text/plain\r\n\r\nThe report is attached.\r\n--B\r\n" +
		"Content-Type: application/pdf; name=\"report.pdf\"\r\nContent-Transfer-Encoding: base64\r\nContent-Disposition: attachment; filename=\"report.pdf\"\r\n\r\n<NOT BASE64>\r\n--B--\r\n"
	res, err := ExtractBytes(context.Background(), []byte(msg), document.Options{MaxAttachDepth: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := `the part "report.pdf" (application/pdf) is not valid base64 and its content is left out (illegal base64 data at input byte 0)`
	if len(res.Warnings) != 1 || res.Warnings[0] != want {
		t.Errorf("warnings %q, want %q", res.Warnings, want)
	}
}

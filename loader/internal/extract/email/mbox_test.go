package email

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// testMbox is a mailbox of three messages as Python's mailbox module
// writes one: a body line that began "From " escaped as ">From ", the
// second message forwarding a message that carries a PDF, and a body line
// "From …" after an empty line that no header line follows (not a
// separator).
func testMbox() string {
	pdf := base64.StdEncoding.EncodeToString([]byte("%PDF-1.4 fake"))
	return "From MAILER-DAEMON Sun Dec  6 17:39:56 2026\n" +
		"From: ann@example.com\nTo: bob@example.com\nSubject: First message\nDate: Tue, 14 Nov 2023 22:13:20 -0000\n\n" +
		"Alpha body text about invoices.\n>From the desk of Ann.\n\nFrom the archive, nothing else.\n\n" +
		"From MAILER-DAEMON Sun Dec  6 17:39:56 2026\n" +
		"From: ann@example.com\nTo: bob@example.com\nSubject: Second message\nMIME-Version: 1.0\n" +
		"Content-Type: multipart/mixed; boundary=\"XX\"\n\n" +
		"--XX\nContent-Type: text/plain\n\nBeta body text about the budget.\n" +
		"--XX\nContent-Type: message/rfc822\nContent-Disposition: attachment\n\n" +
		"From: carol@example.com\nSubject: Inner forwarded\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"YY\"\n\n" +
		"--YY\nContent-Type: text/plain\n\nInner body words delta.\n" +
		"--YY\nContent-Type: application/pdf\nContent-Transfer-Encoding: base64\nContent-Disposition: attachment; filename=\"inner.pdf\"\n\n" + pdf + "\n" +
		"--YY--\n--XX--\n\n" +
		"From MAILER-DAEMON Sun Dec  6 17:39:56 2026\n" +
		"From: ann@example.com\nTo: bob@example.com\nSubject: Third message\n\nGamma body text about travel.\n"
}

// TestMboxLandsEachMessage: an mbox file's messages are its attachments
// (each read as a message, its own attachments with it) and its text lists
// them. Before email/6 the file was one message: the first's headers, the
// others' raw source (headers, MIME boundaries, base64) as its body, and
// the forwarded message and its PDF never landed.
func TestMboxLandsEachMessage(t *testing.T) {
	ctx := context.Background()
	res, err := ExtractBytes(ctx, []byte(testMbox()), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkOffsets(t, "mbox", res)
	var names []string
	for _, a := range res.Attachments {
		names = append(names, a.Name)
	}
	if strings.Join(names, "|") != "1 First message.eml|2 Second message.eml|3 Third message.eml" {
		t.Fatalf("attachments %q, want the three messages", names)
	}
	text := res.Pages[0].Text
	for _, w := range []string{"1. Subject: First message", "2. Subject: Second message", "3. Subject: Third message"} {
		if !strings.Contains(text, w) {
			t.Errorf("the mailbox's text lacks %q:\n%s", w, text)
		}
	}
	if strings.Contains(text, "--XX") || strings.Contains(text, "Beta body") || res.Metadata.Extra["messages"] != "3" {
		t.Errorf("text %q, extra %v", text, res.Metadata.Extra)
	}
	first, err := ExtractBytes(ctx, res.Attachments[0].Data, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ft := first.Pages[0].Text; !strings.Contains(ft, "\nFrom the desk of Ann.") || !strings.Contains(ft, "From the archive, nothing else.") || strings.Contains(ft, "Second message") {
		t.Errorf("first message's text:\n%s", ft)
	}
	second, err := ExtractBytes(ctx, res.Attachments[1].Data, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if second.Metadata.Title != "Second message" || len(second.Attachments) != 1 || second.Attachments[0].Name != "Inner forwarded.eml" {
		t.Fatalf("second message: title %q attachments %d", second.Metadata.Title, len(second.Attachments))
	}
	inner, err := ExtractBytes(ctx, second.Attachments[0].Data, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(inner.Attachments) != 1 || inner.Attachments[0].Name != "inner.pdf" || string(inner.Attachments[0].Data) != "%PDF-1.4 fake" {
		t.Errorf("the forwarded message's attachments: %+v", inner.Attachments)
	}
	// one message after a "From " line is a message, as before
	one := testMbox()
	one = one[:strings.Index(one, "\n\nFrom MAILER-DAEMON")+1]
	if res, err := ExtractBytes(ctx, []byte(one), document.Options{}); err != nil || res.Metadata.Title != "First message" || len(res.Attachments) != 0 {
		t.Errorf("a one-message mbox: %v, title %q", err, res.Metadata.Title)
	}
}

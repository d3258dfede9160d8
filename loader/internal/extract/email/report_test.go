package email

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestBounceReportLands: a bounce's delivery-status part (the failed
// recipient, status and the server's diagnostic) and the returned
// message's headers land after its human-readable text, Section "delivery
// status" / "returned message headers" (email/10); they were dropped
// without a word, the bounce keeping only "could not be delivered".
func TestBounceReportLands(t *testing.T) {
	msg := "From: MAILER-DAEMON@example.com\r\nTo: a@example.com\r\nSubject: Undelivered Mail Returned to Sender\r\nMIME-Version: 1.0\r\n" +
		"Content-Type: multipart/report; report-type=delivery-status; boundary=\"BB\"\r\n\r\n" +
		"--BB\r\nContent-Type: text/plain\r\n\r\nYour message could not be delivered to one or more recipients.\r\n" +
		"--BB\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example.com\r\n\r\n" +
		"Final-Recipient: rfc822; nobody@example.net\r\nAction: failed\r\nStatus: 5.1.1\r\nDiagnostic-Code: smtp; 550 5.1.1 User unknown\r\n" +
		"--BB\r\nContent-Type: text/rfc822-headers\r\n\r\nFrom: a@example.com\r\nTo: nobody@example.net\r\nSubject: Invoice reminder\r\n" +
		"--BB--\r\n"
	res, err := ExtractBytes(context.Background(), []byte(msg), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Pages[0].Text
	for _, want := range []string{"could not be delivered", "Final-Recipient: rfc822; nobody@example.net", "Diagnostic-Code: smtp; 550 5.1.1 User unknown", "Subject: Invoice reminder"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q: %q", want, text)
		}
	}
	secs := map[string]bool{}
	for _, e := range res.Elements {
		secs[e.Section] = true
	}
	if !secs["delivery status"] || !secs["returned message headers"] || len(res.Attachments) != 0 {
		t.Errorf("sections %v, attachments %d", secs, len(res.Attachments))
	}
}

// TestBounceReturnedHeadersDecoded: review44's LOW on email/10: a returned
// message's encoded subject (RFC 2047, folded, in UTF-8 and ISO-8859-2)
// lands decoded, searchable; it landed "=?UTF-8?B?...?=".
func TestBounceReturnedHeadersDecoded(t *testing.T) {
	msg := "From: MAILER-DAEMON@example.com\r\nTo: a@example.com\r\nSubject: Undelivered Mail\r\nMIME-Version: 1.0\r\n" +
		"Content-Type: multipart/report; report-type=delivery-status; boundary=\"B\"\r\n\r\n" +
		"--B\r\nContent-Type: text/plain\r\n\r\nYour message could not be delivered.\r\n" +
		"--B\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example.com\r\n\r\nFinal-Recipient: rfc822; nobody@example.org\r\nAction: failed\r\nStatus: 5.1.1\r\n" +
		"--B\r\nContent-Type: text/rfc822-headers\r\n\r\nFrom: =?ISO-8859-2?Q?Pawe=B3_Nowak?= <a@example.com>\r\nTo: nobody@example.org\r\n" +
		"Subject: =?UTF-8?B?UmVjaG51bmcgTcOkcnogLSBCZXN0ZWxsdW5nIDQ3MTE=?=\r\n =?UTF-8?Q?_und_Lieferschein?=\r\n" +
		"--B--\r\n"
	res, err := ExtractBytes(context.Background(), []byte(msg), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for _, e := range res.Elements {
		all.WriteString(e.Text + "\n")
	}
	for _, want := range []string{"Subject: Rechnung März - Bestellung 4711 und Lieferschein", "From: Paweł Nowak <a@example.com>"} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("no %q in %q", want, all.String())
		}
	}
}

// TestFoldedHeaderLinearCost (review45 on email/10's decodeHeaderLines):
// a returned header folded over many lines is unfolded once; appending
// each continuation to the line allocated the line again each time (one
// header folded over 10,000 lines: ~400 MB, 25,000: 4.2 s of CPU).
func TestFoldedHeaderLinearCost(t *testing.T) {
	var b strings.Builder
	b.WriteString("Received: from relay")
	for i := 0; i < 10000; i++ {
		b.WriteString("\n\tby hop")
	}
	b.WriteString("\nSubject: =?UTF-8?Q?R=C3=BCckl=C3=A4ufer?=\n")
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	got := decodeHeaderLines(b.String())
	runtime.ReadMemStats(&m1)
	lines := strings.Split(got, "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "Received: from relay by hop by hop") || strings.Count(lines[0], "by hop") != 10000 || lines[1] != "Subject: Rückläufer" {
		t.Errorf("unfolded %d lines: %.80q ... %q", len(lines), lines[0], lines[1:])
	}
	if a := m1.TotalAlloc - m0.TotalAlloc; a > 40<<20 {
		t.Errorf("allocated %d MB to unfold one header", a>>20)
	}
}

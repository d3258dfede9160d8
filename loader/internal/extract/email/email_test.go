package email

import (
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/docket-dev/docket/loader/internal/document"
)

const plainMsg = "From: =?ISO-8859-1?Q?Andr=E9?= <andre@example.com>\r\n" +
	"To: bob@example.com, carol@example.com\r\n" +
	"Cc: dave@example.com\r\n" +
	"Date: Tue, 01 Oct 2024 12:34:56 -0500\r\n" +
	"Subject: =?UTF-8?B?UXVhcnRlcmx5IHJlcG9ydCDimJU=?=\r\n" +
	"Message-ID: <abc@example.com>\r\n" +
	"MIME-Version: 1.0\r\n" +
	"Content-Type: text/plain; charset=utf-8\r\n" +
	"Content-Transfer-Encoding: quoted-printable\r\n\r\n" +
	"Hello team,\r\n\r\nThe numbers are in. Caf=C3=A9 sales grew.\r\n\r\n" +
	"- first point\r\n- second point\r\n"

func mixedMsg() string {
	pdf := base64.StdEncoding.EncodeToString([]byte("%PDF-1.4 fake"))
	return "From: a@example.com\r\nTo: b@example.com\r\nSubject: With files\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=XX\r\n\r\n" +
		"--XX\r\nContent-Type: multipart/alternative; boundary=YY\r\n\r\n" +
		"--YY\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\nPlain body wins.\r\n" +
		"--YY\r\nContent-Type: text/html; charset=us-ascii\r\n\r\n<p>HTML body</p>\r\n" +
		"--YY--\r\n" +
		"--XX\r\nContent-Type: application/pdf; name=report.pdf\r\nContent-Disposition: attachment; filename=report.pdf\r\n" +
		"Content-Transfer-Encoding: base64\r\n\r\n" + pdf + "\r\n" +
		"--XX\r\nContent-Type: image/png\r\nContent-Disposition: inline; filename=logo.png\r\n" +
		"Content-Transfer-Encoding: base64\r\n\r\niVBORw0KGgo=\r\n" +
		"--XX\r\nContent-Type: message/rfc822\r\n\r\n" +
		"From: c@example.com\r\nSubject: Forwarded note\r\n\r\nInner body.\r\n" +
		"--XX--\r\n"
}

const htmlMsg = "From: a@example.com\r\nSubject: Html only\r\nMIME-Version: 1.0\r\n" +
	"Content-Type: text/html; charset=windows-1252\r\n\r\n" +
	"<html><body><h1>News</h1><p>Caf\xe9 opens.</p><ul><li>Tea</li><li>Cake</li></ul><script>x()</script></body></html>"

const encryptedMsg = "From: a@example.com\r\nSubject: secret\r\nMIME-Version: 1.0\r\n" +
	"Content-Type: application/pkcs7-mime; smime-type=enveloped-data; name=smime.p7m\r\n" +
	"Content-Transfer-Encoding: base64\r\n\r\nMIAGCSqGSIb3DQEHA6CAMIACAQAx\r\n"

func utf16le(s string) []byte {
	u := utf16.Encode([]rune(s))
	out := []byte{0xFF, 0xFE}
	for _, c := range u {
		out = append(out, byte(c), byte(c>>8))
	}
	return out
}

func TestExtract(t *testing.T) {
	ctx := context.Background()
	t.Run("plain", func(t *testing.T) {
		res, err := ExtractBytes(ctx, []byte(plainMsg), document.Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkOffsets(t, "plain", res)
		md := res.Metadata
		if md.Title != "Quarterly report ☕" {
			t.Errorf("subject %q", md.Title)
		}
		if md.Author != "André <andre@example.com>" {
			t.Errorf("from %q", md.Author)
		}
		if md.Created != "2024-10-01T12:34:56-05:00" {
			t.Errorf("created %q", md.Created)
		}
		if md.Extra["cc"] != "dave@example.com" || md.Extra["message_id"] != "<abc@example.com>" || !strings.Contains(md.Extra["to"], "carol@example.com") {
			t.Errorf("extra %v", md.Extra)
		}
		want := []struct {
			cat  document.Category
			text string
		}{
			{document.Header, "From: André <andre@example.com>\nTo: bob@example.com, carol@example.com\nCc: dave@example.com\nDate: Tue, 01 Oct 2024 12:34:56 -0500"},
			{document.Title, "Quarterly report ☕"},
			{document.NarrativeText, "Hello team,"},
			{document.NarrativeText, "The numbers are in. Café sales grew."},
			{document.ListItem, "- first point"},
			{document.ListItem, "- second point"},
		}
		if len(res.Elements) != len(want) {
			t.Fatalf("got %d elements: %+v", len(res.Elements), res.Elements)
		}
		for i, w := range want {
			e := res.Elements[i]
			if e.Category != w.cat || e.Text != w.text {
				t.Errorf("element %d = %s %q, want %s %q", i, e.Category, e.Text, w.cat, w.text)
			}
		}
		if res.Elements[3].Section != "Quarterly report ☕" {
			t.Errorf("section %q", res.Elements[3].Section)
		}
	})
	t.Run("attachments", func(t *testing.T) {
		res, err := ExtractBytes(ctx, []byte(mixedMsg()), document.Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkOffsets(t, "mixed", res)
		if !strings.Contains(res.Pages[0].Text, "Plain body wins.") || strings.Contains(res.Pages[0].Text, "HTML body") {
			t.Errorf("body: %q", res.Pages[0].Text)
		}
		got := map[string]string{}
		for _, a := range res.Attachments {
			got[a.Name] = string(a.Data)
		}
		if len(got) != 3 || got["report.pdf"] != "%PDF-1.4 fake" || got["logo.png"] == "" || !strings.Contains(got["Forwarded note.eml"], "Inner body.") {
			t.Errorf("attachments: %v", got)
		}
	})
	t.Run("html only", func(t *testing.T) {
		res, err := ExtractBytes(ctx, []byte(htmlMsg), document.Options{})
		if err != nil {
			t.Fatal(err)
		}
		txt := res.Pages[0].Text
		for _, w := range []string{"News", "Café opens.", "Tea", "Cake"} {
			if !strings.Contains(txt, w) {
				t.Errorf("missing %q in %q", w, txt)
			}
		}
		if strings.Contains(txt, "x()") || strings.Contains(txt, "<p>") {
			t.Errorf("markup or script in text: %q", txt)
		}
	})
	t.Run("utf-16 file", func(t *testing.T) {
		msg := strings.Replace(plainMsg, "charset=utf-8", "charset=\"utf-16\"", 1)
		msg = strings.Replace(msg, "quoted-printable", "8bit", 1)
		msg = strings.Replace(msg, "Caf=C3=A9", "Café", 1)
		res, err := ExtractBytes(ctx, utf16le(msg), document.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Metadata.Title != "Quarterly report ☕" || !strings.Contains(res.Pages[0].Text, "Café sales grew.") {
			t.Errorf("title %q text %q", res.Metadata.Title, res.Pages[0].Text)
		}
	})
	t.Run("empty subject and body", func(t *testing.T) {
		res, err := ExtractBytes(ctx, []byte("From: a@example.com\r\nTo: b@example.com\r\n\r\n"), document.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Elements) != 1 || res.Elements[0].Category != document.Header {
			t.Errorf("elements %+v", res.Elements)
		}
	})
	for _, c := range []struct {
		name, msg, kind string
	}{
		{"empty", "  \n\n  ", document.KindEmpty},
		{"encrypted smime", encryptedMsg, document.KindEncrypted},
		{"encrypted pgp", "From: a@b.c\r\nMIME-Version: 1.0\r\nContent-Type: multipart/encrypted; boundary=foo; protocol=\"application/pgp-encrypted\"\r\n\r\n--foo\r\nContent-Type: application/pgp-encrypted\r\n\r\nVersion: 1\r\n--foo\r\nContent-Type: application/octet-stream\r\n\r\n-----BEGIN PGP MESSAGE-----\r\n--foo--\r\n", document.KindEncrypted},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ExtractBytes(ctx, []byte(c.msg), document.Options{})
			var de *document.Error
			if !errors.As(err, &de) || de.Kind != c.kind {
				t.Errorf("err = %v, want kind %s", err, c.kind)
			}
		})
	}
}

// TestLegacyAttachmentNames (issue 17): RFC 2231 and RFC 2047 names in
// Latin-1 and a raw Latin-1 name all come out as café.txt, never U+FFFD.
func TestLegacyAttachmentNames(t *testing.T) {
	for _, disp := range []string{
		"attachment; filename*=iso-8859-1''caf%E9.txt",
		"attachment; filename=\"=?iso-8859-1?q?caf=E9.txt?=\"",
		"attachment; filename=\"caf\xe9.txt\"",
	} {
		msg := "From: a@example.com\r\nSubject: menu\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n" +
			"--b\r\nContent-Type: text/plain\r\n\r\nSee attached.\r\n" +
			"--b\r\nContent-Type: text/plain\r\nContent-Disposition: " + disp + "\r\n\r\nSoup of the day.\r\n--b--\r\n"
		res, err := ExtractBytes(context.Background(), []byte(msg), document.Options{MaxAttachDepth: 3})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Attachments) != 1 || res.Attachments[0].Name != "café.txt" {
			names := []string{}
			for _, a := range res.Attachments {
				names = append(names, a.Name)
			}
			t.Errorf("%q: want café.txt, got %q", disp, names)
		}
	}
}

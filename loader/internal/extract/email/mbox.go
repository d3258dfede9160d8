package email

import (
	"bytes"
	"fmt"
	"mime"
	"net/mail"
	"regexp"
	"strconv"
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
)

// An mbox file (RFC 4155) is messages one after another, each opened by a
// "From " line (the envelope sender and a date) and lines of its body that
// start with "From " written as ">From ". It was read as one message: the
// first one's headers, the others' raw source (headers, MIME boundaries,
// base64) as its body, and none of their attachments landed. Now each
// message is an attachment of the file (a child document the loader lands
// and the e-mail extractor reads, its own attachments with it), and the
// file's text lists them. Written here: the Go mbox reader
// (github.com/emersion/go-mbox) is not on the module proxy this project
// can reach, and the format is a line rule.

// mboxFromLine is an mbox separator: "From " and the envelope sender, then
// whatever the writer put (a date, usually).
var mboxFromLine = regexp.MustCompile(`^From \S+`)

// headerLine is an RFC 5322 header field's first line.
var headerLine = regexp.MustCompile(`^[!-9;-~]+:`)

// mboxMessages splits raw into an mbox file's messages, without their
// "From " lines and with one ">" taken from lines that start ">From ",
// ">>From "… (mboxrd; mboxo writes only ">From ", which reads the same).
// A separator is a "From " line at the file's start or after an empty
// line, followed by a header line: a body line that starts "From "
// unescaped (mboxcl) is not taken for one. It returns nil unless raw
// starts with a separator and holds two messages or more (one is read as
// a message, its "From " line skipped by the MIME parser as now).
func mboxMessages(raw []byte) [][]byte {
	lines := bytes.SplitAfter(raw, []byte("\n"))
	sep := func(i int) bool {
		l := bytes.TrimRight(lines[i], "\r\n")
		if !mboxFromLine.Match(l) || (i > 0 && len(bytes.TrimRight(lines[i-1], "\r\n")) > 0) {
			return false
		}
		return i+1 < len(lines) && headerLine.Match(lines[i+1])
	}
	if len(lines) == 0 || !sep(0) {
		return nil
	}
	var msgs [][]byte
	var cur []byte
	for i, l := range lines {
		if sep(i) {
			if i > 0 {
				msgs = append(msgs, cur)
			}
			cur = nil
			continue
		}
		if t := bytes.TrimLeft(l, ">"); len(t) < len(l) && bytes.HasPrefix(t, []byte("From ")) {
			l = l[1:]
		}
		cur = append(cur, l...)
	}
	msgs = append(msgs, cur)
	if len(msgs) < 2 {
		return nil
	}
	return msgs
}

// mboxResult is an mbox file's Result: one element per message (its
// subject, sender and date, in the file's order) and the messages as
// attachments, named by their number and subject.
func mboxResult(msgs [][]byte, wholeEnc string) *document.Result {
	res := &document.Result{Type: "eml", MIME: "application/mbox", ExtractorVersion: ExtractorVersion}
	md := &res.Metadata
	md.Extra = map[string]string{"messages": strconv.Itoa(len(msgs))}
	if wholeEnc != "" {
		md.Extra["file_encoding"] = wholeEnc
	}
	b := &builder{res: res}
	md.Title = fmt.Sprintf("Mailbox of %d messages", len(msgs))
	b.add(document.Title, md.Title, 1)
	width := len(strconv.Itoa(len(msgs)))
	for i, m := range msgs {
		var lines []string
		unreadable := false
		if h, err := mail.ReadMessage(bytes.NewReader(m)); err == nil {
			dec := new(mime.WordDecoder)
			get := func(k string) string {
				v, err := dec.DecodeHeader(h.Header.Get(k))
				if err != nil {
					v = h.Header.Get(k)
				}
				return clean(v)
			}
			for _, k := range []string{"Subject", "From", "Date"} {
				if v := get(k); v != "" {
					lines = append(lines, k+": "+v)
				}
			}
		} else {
			unreadable = true
		}
		name := fmt.Sprintf("%0*d", width, i+1)
		if n := subjectName(m); n != "" {
			name += " " + n
		} else {
			name += ".eml"
		}
		if unreadable {
			lines = append(lines, "(no header lines could be read)")
			res.Warnings = append(res.Warnings, fmt.Sprintf("message %d of the mailbox (%s) has no readable header lines", i+1, name))
		}
		b.add(document.ListItem, fmt.Sprintf("%d. %s", i+1, strings.Join(lines, "\n")), 1)
		res.Attachments = append(res.Attachments, document.Attachment{Name: name, Data: m})
	}
	b.finish()
	return res
}

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
// ">>From "… (mboxrd). mboxo writes only ">From " and cannot tell an
// escaped "From " from a body's own ">From ": one ">" is taken from both.
// A separator is a "From " line at the file's start or after an empty
// line, followed by a header line: a body line that starts "From "
// unescaped (mboxcl) is not taken for one. It returns nil unless raw
// starts with a separator and holds two messages or more (one is read as
// a message, its "From " line skipped by the MIME parser as now). A
// message is a slice of raw, copied only when a line is unescaped, so a
// large mailbox is held about once.
func mboxMessages(raw []byte) [][]byte {
	// line i is raw[starts[i]:starts[i+1]]
	starts := []int{0}
	for i, c := range raw {
		if c == '\n' && i+1 < len(raw) {
			starts = append(starts, i+1)
		}
	}
	n := len(starts)
	starts = append(starts, len(raw))
	line := func(i int) []byte { return raw[starts[i]:starts[i+1]] }
	blank := func(i int) bool { return len(bytes.TrimRight(line(i), "\r\n")) == 0 }
	sep := func(i int) bool {
		if !mboxFromLine.Match(bytes.TrimRight(line(i), "\r\n")) || (i > 0 && !blank(i-1)) {
			return false
		}
		return i+1 < n && headerLine.Match(line(i+1))
	}
	if n == 0 || !sep(0) {
		return nil
	}
	var msgs [][]byte
	from, escaped := -1, false // the message's first line; a line to unescape in it
	flush := func(end int) {
		if from < 0 {
			return
		}
		m := raw[starts[from]:starts[end]]
		if escaped {
			var out []byte
			for i := from; i < end; i++ {
				l := line(i)
				if t := bytes.TrimLeft(l, ">"); len(t) < len(l) && bytes.HasPrefix(t, []byte("From ")) {
					l = l[1:]
				}
				out = append(out, l...)
			}
			m = out
		}
		msgs = append(msgs, m)
	}
	for i := 0; i < n; i++ {
		if sep(i) {
			flush(i)
			from, escaped = i+1, false
			continue
		}
		if l := line(i); len(l) > 5 && l[0] == '>' {
			if t := bytes.TrimLeft(l, ">"); bytes.HasPrefix(t, []byte("From ")) {
				escaped = true
			}
		}
	}
	flush(n)
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

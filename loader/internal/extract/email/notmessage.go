package email

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// NotMessage is the error of a file routed as a message (by its name:
// .eml, .mbox) that starts with a line of text, neither a header field nor
// an mbox "From " line. Read as a message, its first line was taken for a
// header field named by the whole sentence and dropped, the rest read as
// the body (node-mbox's test-attached.mbox: "This isn't an mbox, even
// though we'll attach one below this:" lost with no warning), or the file
// was quarantined corrupt for text only. The caller lands such a file as
// plain text, saying why.
type NotMessage struct {
	First string // the file's first line, cut to 60 characters
}

func (e *NotMessage) Error() string {
	return fmt.Sprintf("not an e-mail message: it starts with %q, not a header line", e.First)
}

// startsAsText reports whether raw is text (no NUL in its first 8 KB, its
// first line UTF-8) whose first line is neither a header field, a folded line nor an
// mbox "From " line, and returns that line.
func startsAsText(raw []byte) (string, bool) {
	head := raw[:min(len(raw), 8192)]
	if bytes.IndexByte(head, 0) >= 0 {
		return "", false
	}
	line := head
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	line = bytes.TrimRight(line, "\r")
	if len(line) == 0 || !utf8.Valid(line) || line[0] == ' ' || line[0] == '\t' || bytes.HasPrefix(line, []byte("From ")) || headerLineRe.Match(line) {
		return "", false
	}
	first := string(line)
	if r := []rune(first); len(r) > 60 {
		first = string(r[:60]) + "…"
	}
	return first, true
}

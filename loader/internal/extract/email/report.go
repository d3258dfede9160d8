package email

import (
	"fmt"
	"io"
	"mime"
	"strings"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/jhillyerd/enmime/v2"
)

// reportSections name the machine-readable parts of a delivery report (a
// bounce), a read receipt and an abuse report (RFC 3464, 8098, 5965):
// which address failed and why, whose headers the returned message had.
// They come unnamed beside the human-readable part; before email/10 they
// were dropped without a word (a bounce kept "Your message could not be
// delivered to one or more recipients" and lost the recipient, the status
// 5.1.1 and the server's "550 User unknown").
var reportSections = map[string]string{
	"message/delivery-status":          "delivery status",
	"message/global-delivery-status":   "delivery status",
	"message/disposition-notification": "disposition notification",
	"message/feedback-report":          "feedback report",
	"text/rfc822-headers":              "returned message headers",
	"message/rfc822-headers":           "returned message headers",
	"message/global-headers":           "returned message headers",
}

// addReports lands the report parts of env (reportSections, unnamed: a
// named one is an attachment) after the body, a paragraph per block of
// fields, Section the part's kind.
func addReports(b *builder, env *enmime.Envelope) {
	for _, p := range append(append([]*enmime.Part(nil), env.OtherParts...), env.Inlines...) {
		sec, ok := reportSections[strings.ToLower(p.ContentType)]
		if !ok || p.FileName != "" || len(p.Content) == 0 {
			continue
		}
		b.section = sec
		body := strings.ReplaceAll(strings.ReplaceAll(strings.ToValidUTF8(string(p.Content), "\uFFFD"), "\r\n", "\n"), "\r", "\n")
		if sec == "returned message headers" {
			body = decodeHeaderLines(body)
		}
		for _, para := range paraSplitRe.Split(body, -1) {
			b.add(document.NarrativeText, strings.Trim(para, "\n"), 0)
		}
	}
}

// headerWords decodes RFC 2047 encoded words in any charset docket reads.
var headerWords = &mime.WordDecoder{CharsetReader: func(cs string, r io.Reader) (io.Reader, error) {
	e := detect.Encoding(cs)
	if e == nil {
		return nil, fmt.Errorf("charset %q unknown", cs)
	}
	return e.NewDecoder().Reader(r), nil
}}

// decodeHeaderLines reads a returned message's header lines (review44's
// LOW on email/10: an encoded subject landed as "=?UTF-8?B?...?=", not
// searchable): folded lines unfolded, encoded words decoded; a line that
// does not decode stays as it is.
func decodeHeaderLines(body string) string {
	// a logical line's pieces are joined once (review45: appending each
	// continuation to the line was quadratic, 25,000 folds of one header
	// 4.2 s)
	var pieces [][]string
	for _, l := range strings.Split(body, "\n") {
		if n := len(pieces); n > 0 && l != "" && (l[0] == ' ' || l[0] == '\t') && pieces[n-1][0] != "" {
			pieces[n-1] = append(pieces[n-1], strings.TrimLeft(l, " \t"))
			continue
		}
		pieces = append(pieces, []string{l})
	}
	out := make([]string, len(pieces))
	for i, p := range pieces {
		out[i] = strings.Join(p, " ")
	}
	for i, l := range out {
		if strings.Contains(l, "=?") {
			if d, err := headerWords.DecodeHeader(l); err == nil {
				out[i] = d
			}
		}
	}
	return strings.Join(out, "\n")
}

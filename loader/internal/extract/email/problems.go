package email

import (
	"fmt"
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/jhillyerd/enmime/v2"
)

// isSignature says a part is a signature (S/MIME, PGP) or PGP's version
// marker: it is never landed (see attachments) and never verified.
func isSignature(p *enmime.Part) bool {
	switch strings.ToLower(p.ContentType) {
	case "application/pkcs7-signature", "application/x-pkcs7-signature", "application/pgp-signature", "application/pgp-encrypted":
		return true
	}
	return false
}

// mimeWarnings says in plain words what the MIME parser lost (its severe
// errors: "a portion of the message was lost during parsing"), naming the
// part, instead of its own words ("[E] Malformed Base64: illegal base64
// data at input byte 0"). Its other messages (a header line not indented,
// an unclosed boundary, a missing Content-Type) lose nothing and are not
// repeated.
//
// A signature part's errors are dropped: a signature is neither landed
// nor verified (metadata extra signed says so), so what it held changes
// nothing in the warehouse (the shared corpus's signed-doc.p7s carries a
// "<SIGNATURE>" placeholder where its base64 should be).
func mimeWarnings(env *enmime.Envelope) []string {
	var out []string
	said := map[*enmime.Error]bool{}
	var walk func(p *enmime.Part)
	walk = func(p *enmime.Part) {
		for ; p != nil; p = p.NextSibling {
			for _, e := range p.Errors {
				said[e] = true
				if e.Severe && !isSignature(p) {
					out = appendOnce(out, plainMIMEError(p, e))
				}
			}
			walk(p.FirstChild)
		}
	}
	walk(env.Root)
	for _, e := range env.Errors {
		if e.Severe && !said[e] {
			out = appendOnce(out, fmt.Sprintf("the MIME parser could not read part of the message and left it out (it says: %s: %s)", e.Name, e.Detail))
		}
	}
	return out
}

// plainMIMEError is what the parser's severe error e on part p means.
func plainMIMEError(p *enmime.Part, e *enmime.Error) string {
	what := "a part of the message"
	switch name := attachmentName(p); {
	case p.Parent == nil:
		what = "the message"
	case name != "" && p.ContentType != "":
		what = fmt.Sprintf("the part %q (%s)", name, p.ContentType)
	case name != "":
		what = fmt.Sprintf("the part %q", name)
	case p.ContentType != "":
		what = "a " + p.ContentType + " part"
	}
	switch e.Name {
	case enmime.ErrorMalformedBase64:
		return fmt.Sprintf("%s is not valid base64 and its content is left out (%s)", what, e.Detail)
	case enmime.ErrorMalformedHeader:
		return fmt.Sprintf("%s has a header line that cannot be read, left out (%s)", what, e.Detail)
	case enmime.ErrorMalformedChildPart:
		return fmt.Sprintf("a part inside %s cannot be read and is left out (%s)", what, e.Detail)
	case enmime.ErrorDataHasBoundary:
		return fmt.Sprintf("a part inside %s names a MIME boundary but is read as one text or file, not as parts", what)
	case enmime.ErrorPlainTextFromHTML:
		return fmt.Sprintf("the HTML of %s could not be turned into plain text (%s)", what, e.Detail)
	}
	return fmt.Sprintf("the MIME parser could not read all of %s and left part of it out (it says: %s: %s)", what, e.Name, e.Detail)
}

func appendOnce(s []string, v string) []string {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	return append(s, v)
}

// garbledText says the message's plain text decodes to garbage (it fails
// document.Check's plausibility thresholds: U+FFFD, control or
// private-use characters) while its HTML alternative does not: a
// text/plain part that is plain text marked base64 (as in enmime's testdata
// mime-bad-content-transfer-encoding.raw; the parser decodes what it can of
// it, bytes from letters) or in a charset it does not declare. The HTML
// part, which the sender's mail program wrote alongside, is read instead.
// Before email/4 the garbage landed as the body (only Check's vague "could
// not be decoded" review said anything) and the HTML's words were lost.
func garbledText(env *enmime.Envelope) bool {
	return strings.TrimSpace(env.HTML) != "" && implausible(env.Text) && !implausible(env.HTML)
}

// implausible is document.Check's judgement of a text.
func implausible(s string) bool {
	m := document.Measure(s)
	return m.Replacement >= garbledMinChars && m.ReplacementShare() > document.MaxReplacementShare ||
		m.Unexpected >= garbledMinChars && m.UnexpectedShare() > document.MaxUnexpectedShare
}

// garbledMinChars: fewer suspect characters than this are no sign (as
// document.Check).
const garbledMinChars = 8

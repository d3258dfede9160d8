// Package email extracts e-mail messages (.eml, RFC 5322 / MIME). It takes a
// file path and returns a *document.Result: headers as metadata (from, to,
// cc, bcc, date, subject, message_id, RFC 2047 decoded), one page holding a
// Header element (From/To/Cc/Date lines), the subject as Title and the body
// (text/plain preferred, else the HTML body turned into text) as
// NarrativeText/ListItem paragraphs; every attachment, named inline part and
// embedded message comes back in Result.Attachments for the loader to land
// as a child document. It never recurses into attachments and never prints.
//
// MIME parsing is github.com/jhillyerd/enmime/v2: it is maintained, fuzzed,
// and already handles what the standard library leaves to the caller
// (charset conversion of bodies and RFC 2047 words beyond UTF-8/Latin-1,
// malformed boundaries and transfer encodings, collecting part errors
// instead of failing the message).
package email

import (
	"bytes"
	"context"
	"fmt"
	"mime"
	"net/mail"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/html"
	"github.com/docket-dev/docket/loader/internal/extract/version"
	"github.com/jhillyerd/enmime/v2"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// ExtractorVersion is stamped on every Result of this package.
const ExtractorVersion = version.Email

// maxMessageBytes bounds what is read of one message.
const maxMessageBytes = 512 << 20

// Extract reads one e-mail message.
func Extract(ctx context.Context, path string, opts document.Options) (*document.Result, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if st.Size() > maxMessageBytes {
		return nil, document.Errorf(document.KindTooLarge, "message of %d bytes, more than %d", st.Size(), maxMessageBytes)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ExtractBytes(ctx, raw, opts)
}

// ExtractBytes is Extract on a message already in memory.
func ExtractBytes(ctx context.Context, raw []byte, opts document.Options) (*document.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	raw, wholeEnc := decodeWhole(raw)
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, document.Errorf(document.KindEmpty, "the message is empty")
	}
	if first, ok := startsAsText(raw); ok {
		return nil, &NotMessage{First: first}
	}
	if msgs := mboxMessages(raw); msgs != nil {
		return mboxResult(msgs, wholeEnc), nil
	}
	p := enmime.NewParser(
		enmime.SetReadPartErrorPolicy(enmime.AllowCorruptTextPartErrorPolicy),
		enmime.StripMediaTypeInvalidCharacters(true),
		enmime.MultipartWOBoundaryAsSinglePart(true),
		enmime.DisableTextConversion(true),
	)
	env, err := p.ReadEnvelope(bytes.NewReader(raw))
	var headerless int
	if err != nil {
		if fixed, n := headerlessParts(raw); n > 0 {
			if e, ferr := p.ReadEnvelope(bytes.NewReader(fixed)); ferr == nil {
				env, err, headerless = e, nil, n
			}
		}
	}
	if err != nil {
		return nil, document.Errorf(document.KindCorrupt, "not a readable MIME message (the MIME parser says: %v)", err)
	}
	if len(env.GetHeaderKeys()) == 0 {
		return nil, document.Errorf(document.KindCorrupt, "no message headers found (not an e-mail message)")
	}

	res := &document.Result{Type: "eml", MIME: "message/rfc822", ExtractorVersion: ExtractorVersion}
	md := &res.Metadata
	md.Extra = map[string]string{}
	for _, k := range []string{"From", "To", "Cc", "Bcc", "Date", "Subject", "Message-Id", "In-Reply-To", "Reply-To"} {
		if v := strings.TrimSpace(clean(env.GetHeader(k))); v != "" {
			md.Extra[strings.ToLower(strings.ReplaceAll(k, "-", "_"))] = v
		}
	}
	if wholeEnc != "" {
		md.Extra["file_encoding"] = wholeEnc
	}
	md.Title = md.Extra["subject"]
	md.Author = md.Extra["from"]
	if d := md.Extra["date"]; d != "" {
		md.Created = parseDate(d)
	}
	if rootType(env) == "multipart/signed" {
		// The signature itself is not checked: say the message is signed.
		_, params, _ := mime.ParseMediaType(env.Root.Header.Get("Content-Type"))
		md.Extra["signed"] = "signed (" + params["protocol"] + "); the signature was not verified"
	}
	if headerless > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%d part(s) of the message start with text where MIME wants their header lines: read as plain text", headerless))
	}
	res.Warnings = append(res.Warnings, mimeWarnings(env)...)

	if ct := rootType(env); ct == "multipart/encrypted" || isPKCS7Enveloped(env) {
		return nil, document.Errorf(document.KindEncrypted, "the message body is encrypted (%s)", ct)
	}

	b := &builder{res: res}
	var hdr []string
	for _, k := range []string{"from", "to", "cc", "date"} {
		if v := md.Extra[k]; v != "" {
			hdr = append(hdr, strings.ToUpper(k[:1])+k[1:]+": "+v)
		}
	}
	b.add(document.Header, strings.Join(hdr, "\n"), 0)
	b.add(document.Title, md.Title, 1)
	body := env.Text
	if garbledText(env) {
		res.Warnings = append(res.Warnings, "the message's text/plain part decodes to garbled text (a wrong transfer encoding or charset): its HTML part was read instead")
		res.Flag(0, document.ReviewRepaired, "the message's plain-text part decodes to garbage (it is marked base64 or a charset it is not in): the text is its HTML part's, which the sender's mail program wrote alongside")
		body = ""
	}
	if strings.TrimSpace(body) == "" && strings.TrimSpace(env.HTML) != "" {
		if err := addHTMLBody(ctx, b, env.HTML); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			res.Warnings = append(res.Warnings, "html body: "+err.Error())
		}
	} else {
		addBody(b, body)
	}
	addReports(b, env)
	res.Attachments = attachments(env)
	b.finish()
	return res, nil
}

// decodeWhole turns a whole message written in UTF-16 (with or without a
// BOM) into UTF-8 and rewrites the charset labels that still say UTF-16.
func decodeWhole(raw []byte) ([]byte, string) {
	var enc string
	var order unicode.Endianness
	switch {
	case bytes.HasPrefix(raw, []byte{0xFF, 0xFE}):
		enc, order = "utf-16le", unicode.LittleEndian
	case bytes.HasPrefix(raw, []byte{0xFE, 0xFF}):
		enc, order = "utf-16be", unicode.BigEndian
	default:
		switch detect.WideEncoding(raw) {
		case detect.UTF16LE:
			enc, order = "utf-16le", unicode.LittleEndian
		case detect.UTF16BE:
			enc, order = "utf-16be", unicode.BigEndian
		default:
			return bytes.TrimPrefix(raw, []byte{0xEF, 0xBB, 0xBF}), ""
		}
	}
	out, _, err := transform.Bytes(unicode.UTF16(order, unicode.UseBOM).NewDecoder(), raw)
	if err != nil {
		return raw, ""
	}
	out = charsetUTF16Re.ReplaceAll(out, []byte("charset=\"utf-8\""))
	return out, enc
}

var charsetUTF16Re = regexp.MustCompile(`(?i)charset\s*=\s*"?utf-16(le|be)?"?`)

func rootType(env *enmime.Envelope) string {
	if env.Root == nil {
		return ""
	}
	return strings.ToLower(env.Root.ContentType)
}

// isPKCS7Enveloped says whether the message is S/MIME encrypted (a signed
// message, smime-type=signed-data, stays readable and is not refused).
func isPKCS7Enveloped(env *enmime.Envelope) bool {
	ct := rootType(env)
	if ct != "application/pkcs7-mime" && ct != "application/x-pkcs7-mime" {
		return false
	}
	_, params, err := mime.ParseMediaType(env.Root.Header.Get("Content-Type"))
	if err != nil {
		return true
	}
	st := strings.ToLower(params["smime-type"])
	return st == "" || st == "enveloped-data" || st == "authenveloped-data"
}

var (
	paraSplitRe = regexp.MustCompile(`\n[ \t]*\n`)
	bulletRe    = regexp.MustCompile(`^\s*([-*•◦▪+–]|\d{1,3}[.)])\s+\S`)
)

// addBody splits the body into paragraphs at blank lines; a paragraph whose
// lines are all bullets becomes one ListItem per line.
func addBody(b *builder, body string) {
	body = strings.ReplaceAll(strings.ReplaceAll(body, "\r\n", "\n"), "\r", "\n")
	for _, para := range paraSplitRe.Split(body, -1) {
		lines := strings.Split(strings.Trim(para, "\n"), "\n")
		allBullets := len(lines) > 0
		for _, l := range lines {
			if !bulletRe.MatchString(l) {
				allBullets = false
				break
			}
		}
		if allBullets {
			for _, l := range lines {
				depth := (len(l) - len(strings.TrimLeft(l, " \t"))) / 2
				b.add(document.ListItem, l, max(1, depth))
			}
			continue
		}
		b.add(document.NarrativeText, para, 0)
	}
}

// addHTMLBody lands an HTML body (a message without a plain-text part, or
// whose plain text is garbled) through docket's HTML walker, whole, as an
// .html file's blocks land: headings as Title, list items as ListItem,
// data tables as tables. Before email/8 it went through html2text, whose
// plain-text rendering landed a heading between lines of asterisks
// ("****************\nQuarterly update\n****************"), bold words as
// "*12%*" and list items with a "* " bullet, all as NarrativeText.
func addHTMLBody(ctx context.Context, b *builder, src string) error {
	r, err := html.WholePage(ctx, []byte(src), detect.Info{Type: detect.HTML, MIME: "text/html", Encoding: detect.UTF8})
	if err != nil {
		return err
	}
	for _, w := range r.Warnings {
		b.res.Warnings = append(b.res.Warnings, "html body: "+w)
	}
	for _, e := range r.Elements {
		if e.Category == document.TableCat && e.TableSeq >= 0 && e.TableSeq < len(r.Tables) {
			b.addTable(e.Text, r.Tables[e.TableSeq])
			continue
		}
		b.add(e.Category, e.Text, e.Level)
	}
	return nil
}

// attachments collects every part the loader should land as a child
// document: attachments, inline non-text parts with a file name, embedded
// messages (message/rfc822) and other named parts. Signatures are left out.
func attachments(env *enmime.Envelope) []document.Attachment {
	var out []document.Attachment
	seen := map[*enmime.Part]bool{}
	names := map[string]int{}
	calendars := map[string]bool{} // the calendars landed, by content
	add := func(p *enmime.Part, must bool) {
		if p == nil || seen[p] || len(p.Content) == 0 {
			return
		}
		ct := strings.ToLower(p.ContentType)
		if isCalendarType(ct) {
			// Gmail sends an invitation twice, as the alternative part
			// and as an attached invite.ics: it lands once (email/12)
			key := string(bytes.TrimSpace(p.Content))
			if calendars[key] {
				return
			}
			calendars[key] = true
		}
		if isSignature(p) {
			return
		}
		if strings.HasPrefix(ct, "multipart/") {
			return
		}
		isMsg := ct == "message/rfc822" || ct == "message/global"
		// an invitation's text/calendar part (beside the body, in a
		// multipart/alternative, with no file name) was dropped (email/9)
		if !must && !isMsg && p.FileName == "" && ct != "text/calendar" {
			return
		}
		seen[p] = true
		name := filepath.Base(strings.ReplaceAll(strings.TrimSpace(attachmentName(p)), "\\", "/"))
		if (name == "" || name == "." || name == "/") && isMsg {
			name = subjectName(p.Content)
		}
		if (name == "" || name == "." || name == "/") && ct == "text/calendar" {
			name = "invite.ics"
		}
		if name == "" || name == "." || name == "/" {
			name = "attachment-" + strconv.Itoa(len(out)+1) + extFor(ct)
		}
		if isMsg && !strings.HasSuffix(strings.ToLower(name), ".eml") {
			name += ".eml"
		}
		if k := names[name]; k > 0 {
			ext := filepath.Ext(name)
			name = fmt.Sprintf("%s (%d)%s", strings.TrimSuffix(name, ext), k+1, ext)
		}
		names[name]++
		out = append(out, document.Attachment{Name: name, Data: p.Content})
	}
	for _, p := range env.Attachments {
		add(p, true)
	}
	for _, p := range env.Inlines {
		if !strings.HasPrefix(strings.ToLower(p.ContentType), "text/") {
			add(p, false)
		}
	}
	for _, p := range env.OtherParts {
		add(p, false)
	}
	return out
}

// isCalendarType says whether a part's content type is an iCalendar's.
func isCalendarType(ct string) bool {
	switch ct {
	case "text/calendar", "application/ics", "text/x-vcalendar", "application/x-ics":
		return true
	}
	return false
}

// subjectName names an embedded message after its subject.
func subjectName(raw []byte) string {
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return ""
	}
	subj, err := new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
	if err != nil {
		subj = m.Header.Get("Subject")
	}
	subj = strings.Map(func(r rune) rune {
		if strings.ContainsRune(`/\:*?"<>|`, r) || r < 0x20 {
			return '_'
		}
		return r
	}, clean(subj))
	if r := []rune(subj); len(r) > 80 {
		subj = string(r[:80])
	}
	if subj == "" {
		return ""
	}
	return subj + ".eml"
}

func extFor(ct string) string {
	switch ct {
	case "message/rfc822", "message/global":
		return ".eml"
	case "text/plain":
		return ".txt"
	case "text/html":
		return ".html"
	case "text/calendar":
		return ".ics"
	case "application/pdf":
		return ".pdf"
	case "image/jpeg":
		return ".jpg"
	}
	if exts, _ := mime.ExtensionsByType(ct); len(exts) > 0 {
		return exts[0]
	}
	return ".bin"
}

// parseDate returns RFC 3339 for the date forms found in mail headers, else
// "" (the raw value stays in Extra["date"]).
func parseDate(s string) string {
	s = strings.TrimSpace(s)
	if t, err := mail.ParseDate(s); err == nil {
		return t.Format(time.RFC3339)
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05 -0700", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.Format(time.RFC3339)
		}
	}
	return ""
}

// clean makes a header value printable: valid UTF-8 in NFC (cleanText), no
// control characters, folded whitespace collapsed.
func clean(s string) string {
	s = document.Composed(strings.ToValidUTF8(s, "\uFFFD"))
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// builder keeps the page text and element offsets in step (one page).
type builder struct {
	res     *document.Result
	text    strings.Builder
	runes   int
	section string
}

func (b *builder) add(cat document.Category, text string, level int) {
	b.addRaw(cat, cleanText(text), level, -1)
}

// addRaw adds an element whose text is already clean.
func (b *builder) addRaw(cat document.Category, text string, level, tableSeq int) {
	if text == "" {
		return
	}
	if cat == document.Title {
		b.section = text
	}
	if b.text.Len() > 0 {
		b.text.WriteString("\n\n")
		b.runes += 2
	}
	start := b.runes
	b.text.WriteString(text)
	b.runes += utf8.RuneCountInString(text)
	b.res.Elements = append(b.res.Elements, document.Element{
		Page: 1, Seq: len(b.res.Elements), Category: cat, Text: text,
		CharStart: start, CharEnd: b.runes, Level: level, Section: b.section, TableSeq: tableSeq,
	})
}

// addTable adds a Table element (its text as the HTML walker made it: a
// row a line, cells tab-separated) and its table.
func (b *builder) addTable(text string, t document.Table) {
	if strings.TrimSpace(text) == "" {
		return
	}
	t.Seq, t.Page = len(b.res.Tables), 1
	b.res.Tables = append(b.res.Tables, t)
	b.addRaw(document.TableCat, text, 0, t.Seq)
}

// finish sets the result's one page (the text added) and page count.
func (b *builder) finish() {
	b.res.Pages = []document.Page{{
		Number:    1,
		Text:      b.text.String(),
		Method:    document.MethodNative,
		CharCount: document.RealChars(b.text.String()),
	}}
	b.res.Metadata.PageCount = 1
}

// cleanText trims, normalises newlines, drops NULs and blank lines (so an
// element never holds the "\n\n" page separator) and puts the text in NFC,
// as HTML (html/22) and the text formats (text/5) land theirs: a body
// written decomposed ("a" + U+0308 for "ä") landed as written, which a
// typed word did not match.
func cleanText(s string) string {
	s = document.Composed(strings.ToValidUTF8(s, "\uFFFD"))
	s = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\x00", "", "\u00a0", " ").Replace(s)
	lines := strings.Split(s, "\n")
	out := lines[:0]
	for _, l := range lines {
		l = strings.TrimRight(l, " \t")
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}

// rawFileName finds filename= (Content-Disposition) or name=
// (Content-Type) in a raw header value.
var rawFileName = regexp.MustCompile(`(?i)(?:^|;)\s*(?:file)?name\s*=\s*("([^"]*)"|[^;\s]+)`)

// rfc2231Name is filename*=charset'lang'percent-encoded.
var rfc2231Name = regexp.MustCompile(`(?i)(?:file)?name\*=([^']*)'[^']*'([^;\s]+)`)

// attachmentName is a part's file name. enmime decodes RFC 2047 and RFC
// 2231 names; a name sent as raw 8-bit bytes in a legacy charset came
// out with U+FFFD (issue 17: caf\ufffd.txt): such a name is read from the
// raw header and decoded as Windows-1252 (Latin-1's superset), the
// charset of nearly all such mail.
func attachmentName(p *enmime.Part) string {
	name := p.FileName
	if name == "" {
		// RFC 2231 in a charset Go's mime package does not decode.
		for _, h := range []string{"Content-Disposition", "Content-Type"} {
			if m := rfc2231Name.FindStringSubmatch(p.Header.Get(h)); m != nil {
				if raw, err := url.PathUnescape(m[2]); err == nil {
					if utf8.ValidString(raw) {
						return raw
					}
					if enc := detect.Encoding(m[1]); enc != nil {
						if dec, err := enc.NewDecoder().String(raw); err == nil && utf8.ValidString(dec) {
							return dec
						}
					}
					if dec, err := charmap.Windows1252.NewDecoder().String(raw); err == nil {
						return dec
					}
					return raw
				}
			}
		}
	}
	if !strings.ContainsRune(name, utf8.RuneError) {
		return name
	}
	for _, h := range []string{"Content-Disposition", "Content-Type"} {
		m := rawFileName.FindStringSubmatch(p.Header.Get(h))
		if m == nil {
			continue
		}
		raw := m[2]
		if raw == "" {
			raw = m[1]
		}
		if utf8.ValidString(raw) {
			continue
		}
		if dec, err := charmap.Windows1252.NewDecoder().String(raw); err == nil {
			return dec
		}
		return raw // the loader shows the bytes escaped
	}
	return name
}

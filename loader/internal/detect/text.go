package detect

import (
	"bytes"
	"encoding/json"
	"io"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/gogs/chardet"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
)

// Encoding returns the decoder for an Info.Encoding name (nil when unknown).
// UTF-16/32 decoders honour and strip a BOM, else use the named byte order.
func Encoding(name string) encoding.Encoding {
	switch strings.ToLower(name) {
	case UTF8, "utf8", "":
		return unicode.UTF8BOM
	case UTF16LE:
		return unicode.UTF16(unicode.LittleEndian, unicode.UseBOM)
	case UTF16BE:
		return unicode.UTF16(unicode.BigEndian, unicode.UseBOM)
	case UTF32LE:
		return utf32.UTF32(utf32.LittleEndian, utf32.UseBOM)
	case UTF32BE:
		return utf32.UTF32(utf32.BigEndian, utf32.UseBOM)
	case EBCDIC037, "cp037", "ebcdic-cp-us":
		return charmap.CodePage037
	case EBCDIC500, "cp500", "ebcdic-cp-be", "ebcdic-cp-ch":
		return cp500{}
	}
	if e, err := htmlindex.Get(name); err == nil && e != nil {
		return e
	}
	if e, err := ianaindex.IANA.Encoding(name); err == nil && e != nil {
		return e
	}
	return nil
}

// bomEncoding recognises a byte order mark.
func bomEncoding(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}):
		return UTF8
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE, 0, 0}):
		return UTF32LE
	case bytes.HasPrefix(b, []byte{0, 0, 0xFE, 0xFF}):
		return UTF32BE
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		return UTF16LE
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		return UTF16BE
	}
	return ""
}

// WideEncoding recognises BOM-less UTF-32/UTF-16 by where the zero bytes
// sit in the first 4 KiB (works for mostly-Latin text, which is what
// appears without a BOM): UTF32LE, UTF32BE, UTF16LE, UTF16BE, or "".
func WideEncoding(b []byte) string {
	b = b[:min(len(b), 4096)]
	if q := len(b) / 4; q >= 1 {
		var le, be int
		for i := 0; i+4 <= len(b); i += 4 {
			if b[i+2] == 0 && b[i+3] == 0 && (b[i] != 0 || b[i+1] != 0) {
				le++
			}
			if b[i] == 0 && b[i+1] == 0 && (b[i+2] != 0 || b[i+3] != 0) {
				be++
			}
		}
		if le*10 >= q*9 {
			return UTF32LE
		}
		if be*10 >= q*9 {
			return UTF32BE
		}
	}
	if p := len(b) / 2; p >= 2 {
		var lo, hi int // zero in the high (odd) byte / in the low (even) byte
		for i := 0; i+2 <= len(b); i += 2 {
			if b[i+1] == 0 && b[i] != 0 {
				lo++
			}
			if b[i] == 0 && b[i+1] != 0 {
				hi++
			}
		}
		if lo*2 >= p && hi*20 < p {
			return UTF16LE
		}
		if hi*2 >= p && lo*20 < p {
			return UTF16BE
		}
	}
	return ""
}

// looksText says whether the head could be text in some encoding: a BOM, a
// UTF-16/32 pattern, or few control bytes. A stray NUL or two do not make
// a text binary (issue 18: a .txt with one NUL was "unsupported"); NULs
// count as control bytes.
func looksText(b []byte) bool {
	if bomEncoding(b) != "" || WideEncoding(b) != "" {
		return true
	}
	ctl := 0
	for _, c := range b {
		switch {
		case c == 0:
			ctl += 4 // weigh NULs heavier: binary formats are full of them
		case c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != 0x1B:
			ctl++
		}
	}
	return ctl*100 <= len(b)
}

// NULPadded says whether b is text padded out with NUL bytes: fixed-width
// records filled with NULs (a database or mainframe export), or a file
// written only in part of the space it was given (a log cut short by a
// crash ends in a block of NULs). Its NULs stand in runs, 8 bytes long on
// average or more, at most a tenth of them one NUL long, and without them it is UTF-8 text of 64 bytes or more
// with no control byte but tabs, line ends and form feeds. A binary format's NULs sit among other control bytes or
// bytes that are no UTF-8. Before, such a file was quarantined
// unsupported_type ("could not be recognised from its bytes"), or
// undecodable when the NULs came after the head detection reads.
func NULPadded(b []byte) bool {
	nul, runs, ones := 0, 0, 0
	for i, c := range b {
		if c != 0 {
			continue
		}
		nul++
		if i == 0 || b[i-1] != 0 { // a run starts
			runs++
			if i+1 == len(b) || b[i+1] != 0 {
				ones++
			}
		}
	}
	// UTF-16 without a byte-order mark holds a NUL beside every ASCII
	// character: a block of padding after it lifts the average run over 8,
	// and read as UTF-8 it landed one character a line (review43). Padding
	// has few runs of one NUL: more than a tenth of them, and it is no
	// padded UTF-8 text. A few single NULs are a log's stray bytes, not
	// UTF-16 (which has one beside each of its 64 or more ASCII
	// characters): a log with one stray NUL before its padding (two runs,
	// one single) was quarantined again (review44's LOW on 6ae8420).
	if nul == 0 || nul < runs*8 || ones >= 4 && ones*10 > runs {
		return false
	}
	rest := bytes.ReplaceAll(b, []byte{0}, nil)
	if len(rest) < 64 || !validUTF8Prefix(rest, true) {
		return false
	}
	for _, c := range rest {
		// no control byte but line ends, tabs and form feeds: a binary's
		// header (a dBase table's \x03 version and \x0d field end) is
		// mostly ASCII names padded with NULs (review42)
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' || c == 0x7f {
			return false
		}
	}
	return true
}

// DropNULPadding removes the NULs of NUL-padded text (NULPadded): a run
// between two pieces of text becomes a line end (fixed-width records
// padded and not ended by a newline would glue together, "minutesREC00001";
// review42), a run beside a line end or at the end of the text is dropped.
func DropNULPadding(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		if b[i] != 0 {
			out = append(out, b[i])
			i++
			continue
		}
		j := i
		for j < len(b) && b[j] == 0 {
			j++
		}
		atEdge := i == 0 || j == len(b) || b[i-1] == '\n' || b[i-1] == '\r' || b[j] == '\n' || b[j] == '\r'
		if !atEdge {
			out = append(out, '\n')
		}
		i = j
	}
	return out
}

// validUTF8Prefix accepts a head cut in the middle of a rune.
func validUTF8Prefix(b []byte, truncated bool) bool {
	if truncated {
		for i := 1; i <= 3 && i <= len(b); i++ {
			if utf8.RuneStart(b[len(b)-i]) {
				if !utf8.FullRune(b[len(b)-i:]) {
					b = b[:len(b)-i]
				}
				break
			}
		}
	}
	return utf8.Valid(b)
}

// GuessCharset names the most likely legacy single/multi-byte charset of
// non-UTF-8 bytes, defaulting to windows-1252 (which also stands for
// ISO-8859-1, as browsers do).
func GuessCharset(b []byte) string {
	// DetectAll rather than DetectBest: the library orders equal
	// confidences unstably, so the same bytes could come out as Latin-1 one
	// run and Latin-2 the next. Ties go to the Western charsets, then by name.
	b = notUTF8Lines(b)
	all, err := chardet.NewTextDetector().DetectAll(b[:min(len(b), 64<<10)])
	if err != nil || len(all) == 0 {
		return "windows-1252"
	}
	western := func(c string) bool { c = strings.ToLower(c); return c == "iso-8859-1" || c == "windows-1252" }
	r := all[0]
	for _, c := range all[1:] {
		if c.Confidence > r.Confidence || (c.Confidence == r.Confidence &&
			(western(c.Charset) && !western(r.Charset) || western(c.Charset) == western(r.Charset) && c.Charset < r.Charset)) {
			r = c
		}
	}
	name := strings.ToLower(r.Charset)
	switch name {
	case "iso-8859-1", "us-ascii", "utf-8", "utf-16be", "utf-16le", "utf-32be", "utf-32le":
		return "windows-1252"
	}
	if Encoding(name) == nil {
		return "windows-1252"
	}
	return name
}

// sniffText decides among the text types. head is the file's start; size the
// whole length.
func sniffText(head []byte, size int64, ext string) (typ, mime, enc string, bom bool) {
	truncated := int64(len(head)) < size
	enc = bomEncoding(head)
	bom = enc != ""
	if enc == "" {
		enc = WideEncoding(head)
	}
	if enc == "" {
		switch {
		case validUTF8Prefix(head, truncated):
			enc = UTF8
		case EBCDICEncoding(head) != "":
			enc = EBCDICEncoding(head)
		default:
			enc = GuessTextCharset(head)
		}
	}
	s := decodeHead(head, enc)
	if enc != UTF8 && !bom && strings.ContainsRune(s, 0) {
		return Unknown, "application/octet-stream", "", false
	}
	typ = classify(s, ext, truncated)
	return typ, "", enc, bom
}

// decodeHead decodes the head for classification, tolerating a cut rune.
func decodeHead(head []byte, enc string) string {
	e := Encoding(enc)
	if e == nil {
		e = charmap.Windows1252
	}
	out, _ := io.ReadAll(e.NewDecoder().Reader(bytes.NewReader(head)))
	return strings.TrimPrefix(string(out), "\uFEFF")
}

// htmlTags are tags an HTML fragment typically starts with.
var htmlTags = []string{"html", "head", "body", "title", "meta", "link", "script", "style",
	"div", "p", "span", "table", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "a", "b", "i",
	"br", "font", "center", "section", "article", "main", "header", "nav", "form", "img", "pre", "!--"}

func startsWithTag(lower string, tags []string) bool {
	if !strings.HasPrefix(lower, "<") {
		return false
	}
	rest := lower[1:]
	for _, t := range tags {
		if strings.HasPrefix(rest, t) {
			if t == "!--" {
				return true
			}
			if len(rest) == len(t) {
				return true
			}
			switch rest[len(t)] {
			case ' ', '>', '/', '\t', '\n', '\r':
				return true
			}
		}
	}
	return false
}

// classify decides the text type of decoded content. Strong content signals
// (RTF, an HTML doctype, an XML declaration, a mail header block) win; weak
// ones (JSON syntax, delimiter columns, a tag at the start) only when the
// extension does not claim another text type.
func classify(s, ext string, truncated bool) string {
	t := strings.TrimLeft(s, " \t\r\n\f\v")
	if t == "" {
		if IsText(ext) {
			return ext
		}
		return Text
	}
	if strings.HasPrefix(t, `{\rtf`) {
		return RTF
	}
	if strings.HasPrefix(t, "WEBVTT") && (len(t) == 6 || t[6] == ' ' || t[6] == '\t' || t[6] == '\n' || t[6] == '\r') {
		return WebVTT
	}
	if looksSRT(t) {
		return SRT
	}
	if len(t) >= 15 && strings.EqualFold(t[:15], "BEGIN:VCALENDAR") {
		return ICalendar
	}
	if looksLaTeX(t) && !isMail(t) {
		// (a message whose text part holds a LaTeX document is a message)
		return LaTeX
	}
	lower := strings.ToLower(t[:min(len(t), 4096)])
	if strings.HasPrefix(lower, "<?xml") || strings.HasPrefix(lower, "<!") || strings.HasPrefix(lower, "<html") {
		root, doctype := rootElement(lower)
		switch {
		case strings.HasPrefix(doctype, "html"), root == "html":
			return HTML
		case strings.HasPrefix(lower, "<?xml"), doctype != "":
			if ext == HTML {
				return HTML
			}
			return XML
		case startsWithTag("<"+root+">", htmlTags) && !isTextClaim(ext):
			return HTML // comments, then an HTML fragment
		}
	}
	if isMail(t) {
		return EML
	}
	textClaim := isTextClaim(ext)
	if !textClaim && (t[0] == '{' || t[0] == '[') {
		if k := jsonKind(t, truncated); k != "" {
			return k
		}
	}
	if startsWithTag(lower, htmlTags) && !textClaim && ext != XML {
		return HTML
	}
	if strings.HasPrefix(lower, "<") && ext == "" && strings.Contains(lower, "</") {
		return XML
	}
	if ext == "" {
		if d := delimited(t); d != "" {
			return d
		}
		return Text
	}
	if IsText(ext) {
		return ext
	}
	return Text
}

func isTextClaim(ext string) bool {
	return ext == Text || ext == Markdown || ext == RST || ext == Org || ext == CSV || ext == TSV
}

// rootElement skips the XML declaration, processing instructions, comments
// and the doctype at the start of lower-cased markup and returns the first
// element's name and the doctype's text ("" when absent).
func rootElement(lower string) (root, doctype string) {
	s := lower
	for i := 0; i < 50; i++ {
		s = strings.TrimLeft(s, " \t\r\n\f")
		switch {
		case strings.HasPrefix(s, "<?"):
			j := strings.Index(s, "?>")
			if j < 0 {
				return "", doctype
			}
			s = s[j+2:]
		case strings.HasPrefix(s, "<!--"):
			j := strings.Index(s, "-->")
			if j < 0 {
				return "", doctype
			}
			s = s[j+3:]
		case strings.HasPrefix(s, "<!doctype"):
			j := strings.IndexByte(s, '>')
			if j < 0 {
				return "", strings.TrimSpace(s[9:])
			}
			doctype = strings.TrimSpace(s[9:j])
			s = s[j+1:]
		case strings.HasPrefix(s, "<"):
			j := 1
			for j < len(s) && !strings.ContainsRune(" \t\r\n/>", rune(s[j])) {
				j++
			}
			name := s[1:j]
			if k := strings.IndexByte(name, ':'); k >= 0 { // xhtml:html
				name = name[k+1:]
			}
			return name, doctype
		default:
			return "", doctype
		}
	}
	return "", doctype
}

// mailHeaders are header names that mark an RFC 822 message.
var mailHeaders = map[string]bool{
	"from": true, "to": true, "cc": true, "bcc": true, "subject": true, "date": true,
	"received": true, "message-id": true, "mime-version": true, "content-type": true,
	"return-path": true, "delivered-to": true, "reply-to": true, "sender": true,
	"in-reply-to": true, "references": true, "content-transfer-encoding": true,
	"x-mailer": true, "x-gmail-labels": true, "thread-topic": true, "x-originating-ip": true,
}

// mailCore are the headers of which at least one must be present.
var mailCore = map[string]bool{
	"from": true, "to": true, "subject": true, "received": true, "message-id": true,
	"mime-version": true, "delivered-to": true, "return-path": true,
}

// isMail checks for an RFC 822 header block (or an mbox "From " line) at the
// start: every line a header or continuation until a blank line, with known
// mail headers among them.
func isMail(t string) bool {
	lines := strings.Split(t[:min(len(t), 8192)], "\n")
	known, core, bad, n := 0, 0, 0, 0
	for i, line := range lines {
		line = strings.TrimRight(line, "\r")
		if line == "" {
			break
		}
		if i == len(lines)-1 && len(t) > 8192 {
			break // possibly cut
		}
		n++
		if i == 0 && strings.HasPrefix(line, "From ") {
			known++
			core++
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			if i == 0 {
				return false
			}
			continue
		}
		c := strings.IndexByte(line, ':')
		if c <= 0 || !isToken(line[:c]) {
			if i == 0 {
				return false
			}
			bad++
			continue
		}
		name := strings.ToLower(line[:c])
		if mailHeaders[name] {
			known++
		}
		if mailCore[name] {
			core++
		}
		if n > 200 {
			break
		}
	}
	return known >= 2 && core >= 1 && bad*10 <= n
}

func isToken(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7F || c == ':' {
			return false
		}
	}
	return true
}

// jsonKind tells JSON from NDJSON from neither. A truncated head counts as
// JSON when it parses without error until it runs out.
func jsonKind(t string, truncated bool) string {
	dec := json.NewDecoder(strings.NewReader(t))
	var v json.RawMessage
	err := dec.Decode(&v)
	if err == nil {
		rest := strings.TrimSpace(t[dec.InputOffset():])
		if rest == "" {
			return JSON
		}
		// NDJSON: one value per line.
		lines := strings.Split(strings.TrimSpace(t), "\n")
		if truncated && len(lines) > 1 {
			lines = lines[:len(lines)-1]
		}
		ok := 0
		for _, l := range lines {
			l = strings.TrimSpace(l)
			if l == "" {
				continue
			}
			if !json.Valid([]byte(l)) {
				return ""
			}
			ok++
		}
		if ok >= 2 {
			return NDJSON
		}
		return ""
	}
	if truncated && (err == io.ErrUnexpectedEOF || strings.Contains(err.Error(), "unexpected EOF")) {
		return JSON
	}
	return ""
}

// delimited recognises CSV/TSV by a constant, non-zero delimiter count over
// at least three lines. Only used when the file name says nothing.
func delimited(t string) string {
	lines := strings.Split(t, "\n")
	if len(lines) > 1 {
		lines = lines[:len(lines)-1] // possibly cut
	}
	var rows []string
	for _, l := range lines {
		if l = strings.TrimRight(l, "\r"); l != "" {
			rows = append(rows, l)
		}
		if len(rows) == 30 {
			break
		}
	}
	if len(rows) < 3 {
		return ""
	}
	for _, d := range []struct {
		sep string
		typ string
	}{{"\t", TSV}, {",", CSV}, {";", CSV}} {
		n := strings.Count(rows[0], d.sep)
		if n == 0 {
			continue
		}
		same := true
		for _, r := range rows[1:] {
			if strings.Count(r, d.sep) != n {
				same = false
				break
			}
		}
		if same {
			return d.typ
		}
	}
	return ""
}

var (
	srtTimingRe = regexp.MustCompile(`^\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}\s*-->\s*\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}`)
	srtNumberRe = regexp.MustCompile(`^\d+$`)
)

// looksSRT: a SubRip file starts with a cue number and a timing line.
func looksSRT(t string) bool {
	lines := strings.SplitN(t, "\n", 3)
	return len(lines) >= 2 && srtNumberRe.MatchString(strings.TrimSpace(lines[0])) && srtTimingRe.MatchString(strings.TrimSpace(lines[1]))
}

// looksLaTeX: after comment lines, a LaTeX document starts with
// \documentclass (or the LaTeX 2.09 \documentstyle), or has \begin{document}.
func looksLaTeX(t string) bool {
	for strings.HasPrefix(t, "%") {
		_, rest, ok := strings.Cut(t, "\n")
		if !ok {
			return false
		}
		t = strings.TrimLeft(rest, " \t\r\n")
	}
	// Written out rather than as the regexp
	// ^\\(documentclass|documentstyle)\b|\\begin\{document\}, which
	// backtracked through the 4 KB of every text file the loader detected
	// (7% of the main process's CPU on small documents).
	t = t[:min(len(t), 4096)]
	for _, p := range []string{`\documentclass`, `\documentstyle`} {
		if strings.HasPrefix(t, p) && (len(t) == len(p) || !isWordByte(t[len(p)])) {
			return true
		}
	}
	return strings.Contains(t, `\begin{document}`)
}

// isWordByte is an ASCII word character (regexp's \w, which \b uses).
func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// notUTF8Lines is b without its lines that are valid UTF-8 beyond ASCII,
// when some other line is not UTF-8 (b itself when none is): in a text
// whose lines mix UTF-8 and a legacy charset (text/10 reads each line in
// its own) those lines mislead the guess, Russian in UTF-8 being pairs of
// bytes that read as Windows-1252's accented letters and symbols (a
// Windows-1251 half after a UTF-8 half was guessed Windows-1252). A line
// of legacy text is valid UTF-8 by chance only rarely ("ß" before a
// no-break space), and then is left out of the guess only.
func notUTF8Lines(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	var out []byte
	for rest := b; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n') + 1
		if i == 0 {
			i = len(rest)
		}
		l := rest[:i]
		rest = rest[i:]
		if utf8.Valid(l) && bytes.IndexFunc(l, func(r rune) bool { return r >= utf8.RuneSelf }) >= 0 {
			if out == nil {
				out = append(make([]byte, 0, len(b)), b[:len(b)-len(rest)-len(l)]...)
			}
			continue
		}
		if out != nil {
			out = append(out, l...)
		}
	}
	if out == nil {
		return b
	}
	return out
}

// Package text extracts plain-text documents. It takes the bytes of a text,
// Markdown, reStructuredText, Org, JSON, NDJSON or XML file (in UTF-8/16/32
// with or without BOM, or a legacy charset) and produces one native page of
// UTF-8 text with typed elements: NarrativeText paragraphs, ListItem for
// bullet and numbered lines, Title for headings (by the markup's syntax, or a
// conservative guess for plain text), and Table for Markdown pipe tables.
// WebVTT and SRT subtitles become their cue text (subtitles.go); LaTeX its
// text without commands, following \input/\include in its folder (latex.go).
// EBCDIC (code pages 037/500) is decoded; a legacy decoding whose text is
// implausible is quarantined undecodable rather than landed as mojibake.
// Element offsets are code points into the page text.
package text

import (
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/version"
)

// Version is recorded as the pages' extractor_version.
const Version = version.Text

// Extract reads the file at path and extracts it. It reads no more of
// the file than opts.MaxDocChars characters can take (see readBounded):
// a 384 MB one-line file was read whole, decoded and copied before the
// text limits cut it.
func Extract(ctx context.Context, path string, info detect.Info, opts document.Options) (*document.Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("text %s: %w", path, err)
	}
	defer f.Close()
	inc := includes{dir: filepath.Dir(path), followLinks: opts.FollowSymlinks}
	if opts.NoFolder {
		inc = includes{} // the folder of a private copy holds nothing of the document's
	}
	return extractReader(ctx, f, info, opts, inc)
}

// extractReader extracts the text read from r, at most opts.MaxDocChars
// characters of it; inc is as for extractBytes.
func extractReader(ctx context.Context, r io.Reader, info detect.Info, opts document.Options, inc includes) (*document.Result, error) {
	data, more, err := readBounded(r, info.Encoding, opts.MaxDocChars)
	if err != nil {
		return nil, fmt.Errorf("text: %w", err)
	}
	return extractBytes(ctx, data, info, inc, opts.MaxDocChars, more)
}

// readBounded reads r to its end, or only as far as holds maxChars
// characters (and one more byte, to know whether the text goes on): for
// UTF-8, as many bytes as characters are still missing, again and again,
// so that an ASCII text is read to the byte; for other encodings 4 bytes
// a character (the most any of them takes). maxChars <= 0 reads it all.
func readBounded(r io.Reader, enc string, maxChars int) (data []byte, more bool, err error) {
	if maxChars <= 0 {
		data, err = io.ReadAll(r)
		return data, false, err
	}
	maxChars++ // a byte order mark is a character Decode drops
	if e := strings.ToLower(enc); e != "" && e != detect.UTF8 {
		data, err = io.ReadAll(io.LimitReader(r, 4*int64(maxChars)))
		if err != nil || len(data) < 4*maxChars {
			return data, false, err
		}
		return data, moreBytes(r), nil
	}
	data = make([]byte, 0, min(maxChars, 32<<10))
	counted, chars := 0, 0 // bytes of data whose characters are counted, and those
	for chars < maxChars {
		need := max(maxChars-chars, utf8.UTFMax)
		var rerr error
		data, rerr = readFull(r, data, need)
		for counted < len(data) && utf8.FullRune(data[counted:]) {
			if data[counted] < utf8.RuneSelf {
				counted++
			} else {
				_, w := utf8.DecodeRune(data[counted:])
				counted += w
			}
			chars++
		}
		switch {
		case rerr == io.EOF || rerr == io.ErrUnexpectedEOF:
			return data, false, nil
		case rerr != nil:
			return data, false, rerr
		}
	}
	// Whole characters only: a sequence cut at the end is not the text's.
	more = counted < len(data) || moreBytes(r)
	return data[:counted], more, nil
}

// readFull appends n bytes from r to data, as io.ReadFull into n bytes of
// room would (the same bytes and error), but grows data only as the bytes
// come: making the room first cost every small text file a zeroed buffer
// of loader.max_doc_chars bytes (20 MB by default, twice with the copy
// append made), which was ~40 % of a worker's CPU on a corpus of small
// text documents.
func readFull(r io.Reader, data []byte, n int) ([]byte, error) {
	start := len(data)
	for {
		got := len(data) - start
		if got >= n {
			return data, nil
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		k, err := r.Read(data[len(data):min(cap(data), start+n)])
		data = data[:len(data)+k]
		if err == nil {
			continue
		}
		switch got = len(data) - start; {
		case got >= n:
			return data, nil
		case err == io.EOF && got > 0:
			return data, io.ErrUnexpectedEOF
		}
		return data, err
	}
}

// moreBytes reports whether r has at least one more byte.
func moreBytes(r io.Reader) bool {
	var b [1]byte
	n, _ := io.ReadFull(r, b[:])
	return n > 0
}

// ExtractBytes extracts in-memory content (e.g. an e-mail body).
func ExtractBytes(ctx context.Context, data []byte, info detect.Info, opts document.Options) (*document.Result, error) {
	return extractBytes(ctx, data, info, includes{}, 0, false)
}

// extractBytes extracts; inc is where LaTeX \input files are read from
// (no folder for in-memory content: not followed). More than maxChars > 0
// characters are cut there; more says data is the head of a longer text.
func extractBytes(ctx context.Context, data []byte, info detect.Info, inc includes, maxChars int, more bool) (*document.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s, enc, warnings, err := Decode(data, info.Encoding)
	if err != nil {
		return nil, err
	}
	data = nil
	res := &document.Result{
		Type: info.Type, MIME: info.MIME, Warnings: warnings, ExtractorVersion: Version,
	}
	if maxChars > 0 && (more || len(s) > maxChars && utf8.RuneCountInString(s) > maxChars) {
		s = prefixRunes(s, maxChars)
		res.Flag(0, document.ReviewTruncated, "the document's text is over %d characters (loader.max_doc_chars); the rest of the file was not read", maxChars)
	}
	if res.Type == "" {
		res.Type = detect.Text
	}
	if enc != "" && enc != detect.UTF8 {
		res.Metadata.Extra = map[string]string{"encoding": enc}
	}
	var els []document.Element
	var tables []document.Table
	var title string
	if info.Type != detect.XML {
		s = document.Composed(s)
	}
	switch info.Type {
	case detect.XML:
		var stop xmlStop
		s, stop = xmlText(s)
		if stop.err != nil {
			res.Warnings = append(res.Warnings, stop.err.Error())
		}
		if stop.unread > 0 {
			res.Flag(0, document.ReviewTruncated, "the XML is malformed (%v): the last %d bytes of the file, after the fault, were not read", stop.err, stop.unread)
		}
		s = document.Composed(s)
		els, tables, title = Structure(s, Data)
	case detect.WebVTT, detect.SRT:
		s = subtitleText(s)
		els, tables, title = Structure(s, Data)
	case detect.ICalendar:
		var blocks []block
		var ws []string
		blocks, title, ws, err = calendarBlocks(s)
		res.Warnings = append(res.Warnings, ws...)
		if err != nil {
			calendarUnreadable(res, err)
			els, tables, title = Structure(s, Data)
		} else {
			s, els, tables = assembleBlocks(blocks)
		}
	case detect.LaTeX:
		warn := func(w string) { res.Warnings = append(res.Warnings, w) }
		if inc.dir == "" {
			flagNoFolder(res, s)
		}
		if inc.dir != "" {
			inc.tried = map[string]string{}
		}
		d := parseLaTeX(latexSource(s, inc, map[string]bool{}, 0, warn))
		if inc.tried != nil {
			if res.Metadata.Extra == nil {
				res.Metadata.Extra = map[string]string{}
			}
			res.Metadata.Extra[document.ExtraLaTeXIncludes] = document.JoinIncludes(inc.tried)
			if len(inc.tried) > 0 {
				res.Metadata.Extra[document.ExtraLaTeXSources] = document.SourcesDigest(inc.tried)
			}
		}
		s, els, tables = assembleBlocks(d.blocks)
		title = d.title
		res.Metadata.Author = d.author
	case detect.Markdown, detect.Org, detect.RST:
		ws, names := unfollowedIncludes(s, info.Type)
		res.Warnings = append(res.Warnings, ws...)
		if len(names) > 0 {
			res.Flag(0, document.ReviewIncludesMissing, "the document includes other files (%s) that docket does not read (it reads %s file alone; only LaTeX's \\input/\\include are followed): their text is missing",
				strings.Join(names, ", "), includeKind[info.Type])
		}
		if d, err := readMarkup(s, info.Type); err != nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("the %s markup could not be read (%v): the file lands as its source text, markup and all", info.Type, err))
			els, tables, title = Structure(s, SyntaxOf(info.Type))
		} else {
			s = d.apply(res)
			title, els, tables = res.Metadata.Title, res.Elements, res.Tables
		}
	default:
		ws, names := unfollowedIncludes(s, info.Type)
		res.Warnings = append(res.Warnings, ws...)
		if len(names) > 0 {
			res.Flag(0, document.ReviewIncludesMissing, "the document includes other files (%s) that docket does not read (it reads %s file alone; only LaTeX's \\input/\\include are followed): their text is missing, the directives are kept as text",
				strings.Join(names, ", "), includeKind[info.Type])
		}
		els, tables, title = Structure(s, SyntaxOf(info.Type))
	}
	if title == "" && len(els) > 0 && els[0].Category == document.Title {
		title = els[0].Text
	}
	res.Metadata.Title = title
	res.Metadata.PageCount = 1
	res.Pages = []document.Page{{
		Number: 1, Text: s, Method: document.MethodNative, CharCount: document.RealChars(s),
	}}
	res.Elements = els
	res.Tables = tables
	return res, nil
}

// SyntaxOf maps a detected type to the block syntax to honour.
func SyntaxOf(typ string) Syntax {
	switch typ {
	case detect.Markdown:
		return Markdown
	case detect.RST:
		return RST
	case detect.Org:
		return Org
	case detect.JSON:
		return Data
	case detect.NDJSON:
		return Lines
	}
	return Plain
}

// xmlStop says where reading an XML document stopped short: the parser's
// error, and how many bytes of the input were left unread after it (0 when
// it read to the end, an element left open there).
type xmlStop struct {
	err    error
	unread int
}

// xmlText returns the character data of an XML document as paragraphs: the
// texts of an element's leaf children form one block ("\n"-joined), blocks
// are separated by blank lines. A well-formed document is read as XML; only
// one the strict parser rejects is read again leniently, HTML's void elements
// closing themselves (an XHTML-ish file's bare <br>): read so from the
// start, a well-formed feed's <link>...</link> or an ODF <draw:frame> closed
// itself, its end tag was an error and the rest of the file was lost.
// Malformed XML yields what the reading that got further read before the
// error, and where it stopped.
func xmlText(s string) (string, xmlStop) {
	text, stop := xmlRead(s, false)
	if stop.err == nil {
		return text, stop
	}
	if lax, laxStop := xmlRead(s, true); laxStop.unread < stop.unread {
		return lax, laxStop
	}
	return text, stop
}

// xmlRead is xmlText's reading, strict or lenient.
func xmlRead(s string, lenient bool) (string, xmlStop) {
	d := xml.NewDecoder(strings.NewReader(s))
	if lenient {
		d.Strict = false
		d.AutoClose = xml.HTMLAutoClose
	}
	d.Entity = xml.HTMLEntity
	// The text is already UTF-8, whatever the declaration says.
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	type frame struct {
		own      strings.Builder
		lines    []string
		children bool
	}
	var stack []*frame
	var blocks []string
	collapse := func(t string) string { return strings.Join(strings.Fields(t), " ") }
	var stop xmlStop
	for {
		tok, err := d.Token()
		if err != nil {
			if err != io.EOF {
				stop.err = fmt.Errorf("xml: %w", err)
				stop.unread = len(s) - int(d.InputOffset())
			}
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) > 0 {
				stack[len(stack)-1].children = true
			}
			stack = append(stack, &frame{})
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].own.Write(t)
			}
		case xml.EndElement:
			if len(stack) == 0 {
				continue
			}
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			own := collapse(f.own.String())
			if !f.children && len(stack) > 0 {
				if own != "" {
					p := stack[len(stack)-1]
					p.lines = append(p.lines, own)
				}
				continue
			}
			var parts []string
			if own != "" {
				parts = append(parts, own)
			}
			parts = append(parts, f.lines...)
			if len(parts) > 0 {
				blocks = append(blocks, strings.Join(parts, "\n"))
			}
		}
	}
	// Unclosed elements at EOF.
	for k := len(stack) - 1; k >= 0; k-- {
		f := stack[k]
		var parts []string
		if own := collapse(f.own.String()); own != "" {
			parts = append(parts, own)
		}
		parts = append(parts, f.lines...)
		if len(parts) > 0 {
			blocks = append(blocks, strings.Join(parts, "\n"))
		}
	}
	return strings.Join(blocks, "\n\n"), stop
}

// assembleBlocks joins blocks into page text ("\n\n" between them) with
// code point offsets and sections; a Table block's table is numbered and
// linked to its element.
func assembleBlocks(blocks []block) (string, []document.Element, []document.Table) {
	var sb strings.Builder
	var els []document.Element
	var tables []document.Table
	section := ""
	pos := 0
	for _, b := range blocks {
		if sb.Len() > 0 {
			sb.WriteString("\n\n")
			pos += 2
		}
		n := utf8.RuneCountInString(b.text)
		if b.cat == document.Title {
			section = b.text
		}
		e := document.Element{Page: 1, Seq: len(els), Category: b.cat, Text: b.text,
			CharStart: pos, CharEnd: pos + n, Level: b.level, Section: section, TableSeq: -1}
		if b.cat == document.TableCat && b.table != nil {
			t := *b.table
			t.Page, t.Seq = 1, len(tables)
			e.TableSeq = t.Seq
			tables = append(tables, t)
		}
		els = append(els, e)
		sb.WriteString(b.text)
		pos += n
	}
	return sb.String(), els, tables
}

// prefixRunes is the first n code points of s.
func prefixRunes(s string, n int) string {
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return s[:i]
}

// includeRes find the include directives of reStructuredText and Org,
// which docket does not follow (only LaTeX's \input/\include are).
var includeRes = map[string]*regexp.Regexp{
	// an include, a literalinclude (Sphinx's example code) and a
	// csv-table's or raw's :file: / :url: option show another file's
	// content (text/18: the last three landed nothing and said nothing)
	detect.RST: regexp.MustCompile(`(?m)^(?:\.\. +(?:include|literalinclude):: *|[ \t]+:(?:file|url): *)(\S.*?)\s*$`),
	detect.Org: regexp.MustCompile(`(?mi)^#\+include: *(\S.*?)\s*$`),
}

// includeKind names the formats of includeRes in a sentence.
var includeKind = map[string]string{detect.RST: "a reStructuredText", detect.Org: "an Org"}

// unfollowedIncludes are the warnings for s's include directives and the
// files they name: the included files' text is not in the document (a
// review, includes_missing: its text showed the directive's line with no
// word that nothing was read).
func unfollowedIncludes(s, typ string) (warnings, names []string) {
	re := includeRes[typ]
	if re == nil {
		return nil, nil
	}
	for _, m := range re.FindAllStringSubmatch(s, 20) {
		warnings = append(warnings, fmt.Sprintf("include of %s not followed: docket reads %s file alone (only LaTeX's \\input/\\include are followed); its text is missing",
			m[1], includeKind[typ]))
		names = append(names, m[1])
	}
	return warnings, names
}

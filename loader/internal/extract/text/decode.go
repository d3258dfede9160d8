package text

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
)

// Decode turns the bytes of a text document into UTF-8 with "\n" line ends,
// no BOM and no NUL characters. enc is the encoding detection named (may be
// empty: then it is sniffed here). It returns the text, the encoding really
// used and warnings. Bytes that are not text in any encoding give a
// *document.Error of kind undecodable.
func Decode(data []byte, enc string) (s, used string, warnings []string, err error) {
	if enc == "" {
		info, _ := detect.DetectBytes("", data)
		enc = info.Encoding
		if enc == "" {
			enc = detect.UTF8
		}
	}
	used = strings.ToLower(enc)
	if used == detect.UTF8 && detect.NULPadded(data) {
		// padding, not text: dropped before the bytes are judged (below,
		// NULs over a twentieth of the text make it unreadable)
		n := bytes.Count(data, []byte{0})
		data = detect.DropNULPadding(data)
		warnings = append(warnings, fmt.Sprintf("%d NUL byte(s) of padding removed (records padded with NULs, or space the file was given and not written; a run between two records is a line end)", n))
	}
	if used == detect.UTF8 {
		data = bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF})
		if bad := invalidUTF8(data); bad > 0 {
			// Detection saw only the head; the rest is not UTF-8 either. A
			// few stray bytes are replaced; many mean a legacy charset.
			if bad*1000 < len(data) && bad < 16 {
				warnings = append(warnings, fmt.Sprintf("%d invalid UTF-8 sequence(s) replaced with U+FFFD", bad))
				s = strings.ToValidUTF8(string(data), "\uFFFD")
			} else {
				used = detect.EBCDICEncoding(data[:min(len(data), 64<<10)])
				if used == "" {
					used = detect.GuessTextCharset(data)
				}
				warnings = append(warnings, fmt.Sprintf("not valid UTF-8; decoded as %s (guessed)", used))
			}
		} else {
			s = string(data)
		}
	}
	if s == "" && len(data) > 0 {
		if mixed, u, l, ok := mixedLines(data, used); ok {
			s = mixed
			warnings = append(warnings, fmt.Sprintf("mixed encodings: %d line(s) read as UTF-8, the other %d as %s", u, l, used))
		}
	}
	if s == "" && len(data) > 0 {
		e := detect.Encoding(used)
		if e == nil {
			return "", used, warnings, document.Errorf(document.KindUndecodable, "unknown text encoding %q", used)
		}
		out, derr := io.ReadAll(e.NewDecoder().Reader(bytes.NewReader(data)))
		if derr != nil {
			return "", used, warnings, document.Errorf(document.KindUndecodable, "cannot decode as %s: %v", used, derr)
		}
		s = strings.ToValidUTF8(string(out), "\uFFFD")
	}
	s = strings.TrimPrefix(s, "\uFEFF")
	if used == detect.EBCDIC037 || used == detect.EBCDIC500 {
		s = strings.ReplaceAll(s, "\u0085", "\n") // EBCDIC NL
	}
	if !unicodeEncoding(used) {
		// A legacy charset is a guess (or a declaration that can be
		// wrong): text that decodes to controls, private-use characters or
		// words mixing scripts is mojibake, not text, and is not landed.
		if m := document.Measure(s); m.Unexpected >= 8 && m.UnexpectedShare() > document.MaxUnexpectedShare {
			return "", used, warnings, document.Errorf(document.KindUndecodable,
				"decoded as %s the text is implausible: %.0f%% of its characters are controls, private-use characters or letters of words mixing scripts; its encoding could not be determined",
				used, 100*m.UnexpectedShare())
		}
	}
	total, repl, nul, ctl := 0, 0, 0, 0
	for _, r := range s {
		total++
		switch {
		case r == utf8.RuneError:
			repl++
		case r == 0:
			nul++
		case r < 0x20 && r != '\n' && r != '\r' && r != '\t' && r != '\f' && r != '\v' && r != 0x1B:
			ctl++
		}
	}
	if total > 0 && (repl*20 > total || (nul+ctl)*20 > total) {
		return "", used, warnings, document.Errorf(document.KindUndecodable,
			"content is not readable text as %s (%d of %d characters invalid)", used, repl+nul+ctl, total)
	}
	if nul > 0 {
		s = strings.ReplaceAll(s, "\x00", "")
		warnings = append(warnings, fmt.Sprintf("%d NUL character(s) removed", nul))
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return s, used, warnings, nil
}

func unicodeEncoding(enc string) bool {
	switch enc {
	case detect.UTF8, detect.UTF16LE, detect.UTF16BE, detect.UTF32LE, detect.UTF32BE, "utf8", "utf-16", "utf-32":
		return true
	}
	return false
}

// invalidUTF8 counts invalid sequences.
func invalidUTF8(b []byte) int {
	n := 0
	for len(b) > 0 {
		if b[0] < utf8.RuneSelf {
			b = b[1:]
			continue
		}
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			n++
		}
		b = b[size:]
	}
	return n
}

// mixedLines decodes a text whose lines are in two encodings, UTF-8 and a
// single-byte legacy charset (used): text pasted together from two
// sources, a log whose writer changed. A line that reads as UTF-8
// (readsAsUTF8) is read so, any other in used. It applies (ok) only when
// some line reads as UTF-8 beyond ASCII and another is no UTF-8, and used
// is a single-byte charset that keeps ASCII as it is: multi-byte charsets
// (Shift-JIS, GBK) make lines that are valid UTF-8 by chance and read as
// letters those charsets have, and EBCDIC moves ASCII's letters. Lines
// end at "\n", "\r\n" or a lone "\r". Before text/10 the whole file was
// decoded as used, and its UTF-8 lines landed as mojibake ("CafÃ© crÃ¨me").
func mixedLines(data []byte, used string) (s string, utf8Lines, legacyLines int, ok bool) {
	e, single := detect.Encoding(used).(*charmap.Charmap)
	if !single || !keepsASCII(e) {
		return "", 0, 0, false
	}
	// Lines are walked in place (no slice of every line: a 134 MB word
	// list, one short word a line, took ~2 GB so), counted first, then
	// read: a line judged UTF-8 copied, a legacy one decoded byte by byte
	// through the charmap's table (no decoder allocation per line).
	for rest := data; len(rest) > 0; {
		var l []byte
		l, rest = nextLine(rest)
		if isUTF8, ascii := lineIsUTF8(l, e); ascii {
			continue
		} else if isUTF8 {
			utf8Lines++
		} else {
			legacyLines++
		}
	}
	if utf8Lines == 0 || legacyLines == 0 {
		return "", 0, 0, false
	}
	var sb strings.Builder
	sb.Grow(len(data) + len(data)/4)
	for rest := data; len(rest) > 0; {
		var l []byte
		l, rest = nextLine(rest)
		if isUTF8, _ := lineIsUTF8(l, e); isUTF8 {
			sb.Write(l)
			continue
		}
		for _, b := range l {
			if b < utf8.RuneSelf {
				sb.WriteByte(b)
			} else {
				sb.WriteRune(e.DecodeByte(b))
			}
		}
	}
	return sb.String(), utf8Lines, legacyLines, true
}

// lineIsUTF8 says how line l of a mixed text reads: as UTF-8 (ASCII
// lines too, the same bytes in both), or in the legacy charset e; ascii
// says it is ASCII only.
func lineIsUTF8(l []byte, e *charmap.Charmap) (isUTF8, ascii bool) {
	k := 0
	for k < len(l) && l[k] < utf8.RuneSelf {
		k++
	}
	if k == len(l) {
		return true, true
	}
	if !utf8.Valid(l[k:]) {
		return false, false
	}
	return readsAsUTF8(l[k:], e), false
}

// nextLine cuts data after its first line end ("\n", "\r\n", a lone
// "\r"), the end kept with the line.
func nextLine(data []byte) (line, rest []byte) {
	i := bytes.IndexAny(data, "\r\n")
	if i < 0 {
		return data, nil
	}
	if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
		i++
	}
	return data[:i+1], data[i+1:]
}

// readsAsUTF8 reports whether line l, valid UTF-8 and not ASCII only,
// reads as UTF-8 in a text otherwise in the legacy charset e: its
// characters beyond ASCII are, at least half of them, ones e has too (the
// same language's letters, quotes, dashes, "€" from the other source), and
// none is a control or private-use character. A line of e's text is valid
// UTF-8 by chance only where an accented letter stands before symbols: in
// Windows-1252 "ß" and a no-break space ("Hauptstraße 5"), "é", a no-break
// space and "»" ("café »"), which read as UTF-8 are letters of other
// scripts (NKo "ߠ", Han "頻") e has not, or C1 controls.
func readsAsUTF8(l []byte, e *charmap.Charmap) bool {
	has, hasnt := 0, 0
	for _, r := range string(l) {
		if r < utf8.RuneSelf {
			continue
		}
		if unicode.IsControl(r) || unicode.Is(unicode.Co, r) {
			return false
		}
		if _, ok := e.EncodeRune(r); ok || utf8Only(r) {
			has++
		} else {
			hasnt++
		}
	}
	return has > 0 && has >= hasnt
}

// utf8Only says whether r is a character whose UTF-8 bytes a legacy text
// does not hold by chance: an emoji or another character past U+FFFF (its
// lead byte, "ð" in Windows-1252, then three symbols) or an arrow,
// technical sign, box-drawing or dingbat (U+2190-U+2BFF: "â" and two
// symbols, "â†’"). A UTF-8 line of such characters only ("Thanks 👍 see
// you →") was read as Windows-1252 in a mixed file, landing "ðŸ‘" (review44).
// Han stays out: "é", a no-break space and "»" are Han's bytes.
func utf8Only(r rune) bool {
	return r > 0xFFFF || r >= 0x2190 && r <= 0x2BFF
}

// keepsASCII reports whether e decodes the bytes of printable ASCII and
// white space as ASCII (EBCDIC does not).
func keepsASCII(e *charmap.Charmap) bool {
	for b := byte('\t'); b < 0x7f; b++ {
		if (b >= ' ' || b == '\t' || b == '\n' || b == '\r') && e.DecodeByte(b) != rune(b) {
			return false
		}
	}
	return true
}

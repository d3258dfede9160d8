package textproc

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// NormalizeText returns the canonical form of s used for chunk provenance,
// exact-duplicate hashing and shingling:
//
//   - invalid UTF-8 bytes become U+FFFD;
//   - zero-width characters (U+200B..U+200D, U+2060, U+FEFF), the soft
//     hyphen, bidirectional marks and control characters are removed
//     (whitespace controls such as \n and \t are kept as whitespace);
//   - the text is put in NFKC form (ligatures fold: "ﬁ" becomes "fi");
//   - a word hyphenated across a line break is rejoined ("infor-\nmation"
//     becomes "information"; "well-known" stays) when the next line starts
//     with a lower-case letter;
//   - every whitespace run becomes one space and the ends are trimmed.
//
// It is idempotent: NormalizeText(NormalizeText(s)) == NormalizeText(s) for
// every s (checked by FuzzNormalize).
func NormalizeText(s string) string {
	if s == "" {
		return ""
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	// Drop invisible characters before NFKC: dropping them afterwards could
	// bring a base letter and a combining mark together that NFKC would
	// then compose, which would break idempotence.
	if strings.IndexFunc(s, isDropped) >= 0 {
		s = strings.Map(func(r rune) rune {
			if isDropped(r) {
				return -1
			}
			return r
		}, s)
	}
	s = norm.NFKC.String(s)
	return collapse(s)
}

// isDropped reports whether r is removed by NormalizeText.
func isDropped(r rune) bool {
	switch {
	case r == 0x00AD, // soft hyphen
		r >= 0x200B && r <= 0x200F, // zero width space, ZWNJ, ZWJ, LRM, RLM
		r >= 0x202A && r <= 0x202E, // bidi embeddings and overrides
		r >= 0x2060 && r <= 0x2064, // word joiner, invisible operators
		r >= 0x2066 && r <= 0x2069, // bidi isolates
		r == 0xFEFF:                // BOM / zero width no-break space
		return true
	case unicode.IsControl(r):
		return !unicode.IsSpace(r)
	}
	return false
}

// isHyphen reports whether r can end a line in the middle of a word.
func isHyphen(r rune) bool { return r == '-' || r == 0x2010 }

// isLineBreak reports whether r ends a line.
func isLineBreak(r rune) bool {
	switch r {
	case '\n', '\r', '\v', '\f', 0x85, 0x2028, 0x2029:
		return true
	}
	return false
}

// collapse rejoins hyphenated line breaks, turns whitespace runs into one
// space and trims. The input is NFKC and free of dropped characters.
func collapse(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	rs := []rune(s)
	pendingSpace := false
	var prev rune // last rune written, 0 if none
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if unicode.IsSpace(r) {
			if b.Len() > 0 {
				pendingSpace = true
			}
			continue
		}
		if isHyphen(r) && !pendingSpace && unicode.IsLetter(prev) {
			// Look past the hyphen: whitespace holding a line break, then a
			// lower-case letter means a word broken across lines.
			j, sawBreak := i+1, false
			for j < len(rs) && unicode.IsSpace(rs[j]) {
				if isLineBreak(rs[j]) {
					sawBreak = true
				}
				j++
			}
			if sawBreak && j < len(rs) && unicode.IsLower(rs[j]) {
				i = j - 1 // continue with the next line's first letter
				continue
			}
		}
		if pendingSpace {
			b.WriteByte(' ')
			pendingSpace = false
		}
		b.WriteRune(r)
		prev = r
	}
	return b.String()
}

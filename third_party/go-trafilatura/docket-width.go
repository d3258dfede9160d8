package trafilatura

import (
	"unicode"
	"unicode/utf8"
)

// TextWidth is s's length in characters for a gate in characters (docket:
// not upstream), a Han character counted three and a kana or Hangul
// character two: a page in Chinese is about a third as many characters as
// the same page in English, in Japanese or Korean about half (Debian's .mo
// translations, measured for docket's gates in session 31: characters per
// English character Chinese 0.33, Japanese and Korean 0.54). Exported for
// docket's own gates (loader/internal/extract/html), so that the weights
// are one.
func TextWidth(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if s[i] < 0xe3 { // under U+3000: one each
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
			n++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case unicode.Is(unicode.Han, r):
			n += 3
		case unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Hangul) || r == 0x30fc || r == 0xff70: // ー, ｰ
			n += 2
		default:
			n++
		}
	}
	return n
}

package detect

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// GuessTextCharset is GuessCharset for a text file, its guess checked
// against the two Central European charsets: chardet's statistics need
// more text than a short note gives, and Windows-1250 and ISO-8859-2 place
// a dozen letters apart. A Polish note in Windows-1250 ("Ściśle tajne:
// źródło w Łodzi.") was guessed windows-1252 and landed "Œciœle tajne:
// Ÿród³o w £odzi."; a Polish line whose only letter apart is "ą" (0xB9,
// ISO-8859-2's "š") was guessed ISO-8859-2 and landed "zarzšdu". The two
// are told apart by what their bytes decode to, no word list needed:
//
//   - a C1 control (0x80-0x9F in ISO-8859-2, where Windows-1250 has "Š Ś
//     Ť Ž Ź š ś ť ž ź") or a byte the charset leaves undefined is no text;
//   - a sign between two letters ("d³o", "lu»o", "ą±d": Windows-1250
//     reads ISO-8859-2's "ą ś Ś Ť ť" as "± ¶ ¦ « »", Windows-1252 reads
//     Windows-1250's "ł ą ľ" as "³ ¹ ¾") is no word, nor a sign no word
//     touches at its start or end ("Fina³", "¯yæ");
//   - letters only Polish writes (ą ę ł ń ś ź ż) beside letters only
//     Czech and Slovak write (š ž ř ě ů ť ď ň ľ ĺ ŕ) are two languages
//     in one text, where a wrong reading turns one into the other;
//   - a reading whose letters the text's plain letters deny (letterTally:
//     "Wyrok sšdu w sprawie" writes Polish's "w", "Gyõr" Hungarian's
//     "gy"), and a sign opening a word in small letters ("©koda").
//
// Another charset (Cyrillic, Greek...) and a guess no Central European
// reading improves on stay as chardet guessed (a Turkish text in
// Windows-1254 reads as letters: it stays): the candidate
// must be better, a tie keeps the guess. The HTML reader uses it for a
// page that declares no charset (html/39).
func GuessTextCharset(b []byte) string {
	guess := GuessCharset(b)
	if latin2Map(guess) == nil {
		return guess
	}
	b = notUTF8Lines(b)
	b = b[:min(len(b), 64<<10)]
	// a text writing squares (0xB2: "²", where the two Central European
	// charsets have an ogonek no word holds) writes exponents: its
	// superscript one and three are no letters'
	exp := bytes.IndexByte(b, 0xB2) >= 0
	best, bestScore := guess, latin2Score(b, guess, exp)
	if bestScore == 0 {
		return guess
	}
	for _, c := range []string{"windows-1250", "iso-8859-2"} {
		if c == guess {
			continue
		}
		if s := latin2Score(b, c, exp); s < bestScore {
			best, bestScore = c, s
		}
	}
	return best
}

// latin2Score counts what makes b, read as charset name, no text: C1
// controls and undefined bytes, signs between letters, and the smaller of
// its Polish-only and Czech/Slovak-only letters when it holds both
// (exponents: a superscript one or three is an exponent, not a sign). A
// valid UTF-8 sequence is read as UTF-8 (a file mixing UTF-8 lines with
// legacy ones is decoded line by line: its UTF-8 is no charset's sign).
// Where a reading's letters and the text's plain letters disagree on the
// language, its letters count too (languageCues).
func latin2Score(b []byte, name string, exponents bool) int {
	cm := latin2Map(name)
	if cm == nil {
		return 0
	}
	// a text holding a left guillemet quotes with guillemets (»Die Zeit«,
	// « mot »)
	guillemets := bytes.Contains(b, []byte("\u00ab")) || cm.DecodeByte(0xAB) == '«' && bytes.IndexByte(b, 0xAB) >= 0
	bad, polish, czech := 0, 0, 0
	var lt letterTally
	var prev, cur rune = ' ', ' '
	step := func(next rune) {
		switch {
		case cur == 'µ' && (unicode.IsLetter(prev) && unicode.IsLetter(next) || strings.ContainsRune("aeiouy", next)):
			// a micro sign heads a unit ("µg", "µmol"), never a word
			// ("µadovej": ISO-8859-2's "ľ")
			bad++
		case unicode.IsLetter(cur) || cur < 0xA0 || unicode.IsMark(cur) || wordJoiner(cur):
		case unicode.IsLetter(prev) && unicode.IsLetter(next):
			bad++
		case strings.ContainsRune(letterSigns, cur) && (unicode.IsLetter(prev) || unicode.IsLetter(next)) &&
			!(cur == '³' && prev == 'm' && !unicode.IsLetter(next)) && !(exponents && (cur == '¹' || cur == '³')):
			bad++
		case (cur == '©' || cur == '®') && unicode.IsLower(next):
			// a sign before a small letter opens a word ("©koda",
			// "®ilina": ISO-8859-2's "Š", "Ž")
			bad++
		case cur == '»' && !guillemets && !unicode.IsLetter(prev) && unicode.IsLower(next):
			// a right guillemet opening a word in small letters, and no
			// left one in the text ("»ahal": ISO-8859-2's "ť"; a Swedish
			// quote »Hej» opens with a capital)
			bad++
		}
		lt.add(cur)
		prev, cur = cur, next
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c < utf8.RuneSelf {
			step(rune(c))
			continue
		}
		if r, n := utf8.DecodeRune(b[i:]); n > 1 {
			// a UTF-8 character (a mixed file's line, text/10): read
			// as the decoder's mixed lines read it, not as this charset
			step(r)
			i += n - 1
			continue
		}
		r := cm.DecodeByte(c)
		switch {
		case r == utf8.RuneError || (r >= 0x80 && r < 0xA0):
			bad++
		case strings.ContainsRune(polishOnly, r):
			polish++
		case strings.ContainsRune(czechSlovakOnly, r):
			czech++
		}
		step(r)
	}
	step(' ')
	lt.add(' ')
	return bad + min(polish, czech) + lt.languageCues(polish, czech)
}

// latin2Map is the charmap of a guess GuessTextCharset checks: the
// Western charsets chardet names for short Central European texts
// (Windows-1252, and Windows-1254 / ISO-8859-9, Turkish: a two-line
// Polish note was guessed so), and the two Central European ones.
func latin2Map(name string) *charmap.Charmap {
	switch name {
	case "windows-1252":
		return charmap.Windows1252
	case "windows-1254":
		return charmap.Windows1254
	case "iso-8859-9":
		return charmap.ISO8859_9
	case "iso-8859-15":
		return charmap.ISO8859_15
	case "windows-1250":
		return charmap.Windows1250
	case "iso-8859-2":
		return charmap.ISO8859_2
	}
	return nil
}

const (
	// letterSigns are signs no word touches, where a Central European
	// charset has a letter ("kana³", "darmow¹", "¯yæ"): a superscript one
	// or three (but a cubic metre's "m³"), a macron, a fraction, a
	// plus-minus, a pilcrow
	letterSigns     = "¹³¯¼¾±¶"
	polishOnly      = "ąęłńśźżĄĘŁŃŚŹŻ"
	czechSlovakOnly = "šžřěůťďňľĺŕŠŽŘĚŮŤĎŇĽĹŔ"
)

// wordJoiner is a sign a word may hold between its letters: an
// apostrophe, a hyphen, a middle dot (Catalan "l·l"), an acute or grave
// typed for an apostrophe.
func wordJoiner(r rune) bool {
	switch r {
	case '\u00AD', '\u00B7', '\u00B4', '\u2018', '\u2019', '\u2010', '\u2011', '\u2013', '\u02BC', '\u0060':
		return true
	}
	return false
}

package html

import (
	"strings"
	"unicode"
	"unicode/utf8"

	trafilatura "github.com/markusmobius/go-trafilatura"
)

// Words and lengths across scripts. The checks against trafilatura match
// text by its words and judge blocks by how many words they hold; the page
// gates count characters. Neither unit means the same in every script:
//
//   - Chinese and Japanese put no spaces between words, nor do Thai, Lao,
//     Khmer and Burmese: a paragraph was one or a few "words". For matching,
//     each Han or kana character is a word of its own (html/15), and so is
//     each letter of those four scripts with the vowel signs and tone marks
//     after it (a cluster; html/19);
//   - a vowel sign or other combining mark belongs to its word (Devanagari
//     and the other Indic scripts, Thai, Hebrew and Arabic points, Latin
//     written decomposed): split at every mark (before html/19), a Hindi
//     word was two or three pieces, different words the same pieces, and a
//     Hindi text twice as many words as its English;
//   - a length threshold counts words as an English text has them:
//     wordCount weighs a Han character half a word (html/16), a kana
//     character or a cluster a third; agree's thresholds keep a Han or kana
//     character a word (agreeCount); textWidth, for the page gates in
//     characters, weighs a Han character three, a kana or Hangul one two.
//
// The weights are measured on the translations Debian ships (the .mo
// catalogues under /usr/share/locale: each message of eight English words
// or more with its translation, the median over a language's pairs; not in
// this repository): wordCount's words per English word, before html/19 ->
// after, Chinese 0.83 -> 0.83 (4,941 pairs), Japanese 1.42 -> 1.10 (3,805),
// Korean 0.78 -> 0.78 (4,106; eojeol, spaced), Thai 1.11 -> 1.25 (459;
// pieces between marks before), Khmer 2.50 -> 1.07 (648), Burmese 1.88 ->
// 0.88 (991), Hindi 2.00 -> 1.00 (1,497); characters per English character
// for the page gates, Chinese 0.33 -> 0.85, Japanese 0.54 -> 1.09, Korean
// 0.54 -> 0.89 (Thai, Khmer, Burmese, Hindi 0.9-1.1 either way).
const (
	sixthsWord    = 6 // a spaced word, in sixths of a word
	sixthsHan     = 3 // a Han character
	sixthsKana    = 2 // a hiragana or katakana character
	sixthsCluster = 2 // a Thai, Lao, Khmer or Burmese letter with its marks
)

// wordsOf splits s into lower-case words of letters, marks and digits; a
// Han or kana character, or a Thai, Lao, Khmer or Burmese letter with the
// marks after it, is a word of its own. A mark with no letter before it in
// the word (a variation selector after an emoji) is no word. Session 29
// (html/15, Han and kana), tune: html-main 0.985 (gmw, a Chinese page,
// keeps a paragraph: F1 0.98 -> 0.99), comparison and goose unchanged;
// report 0.9914 -> 0.9921.
func wordsOf(s string) []string {
	ws := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r)
	})
	var out []string // nil until a word is split or dropped: ws is the answer
	for k, w := range ws {
		if !mayBeSplit(w) {
			if out != nil {
				out = append(out, w)
			}
			continue
		}
		if out == nil {
			out = append(make([]string, 0, len(ws)+len(w)/3), ws[:k]...)
		}
		out = splitWord(out, w)
	}
	if out == nil {
		return ws
	}
	return out
}

// splitWord appends w's words to out: w cut before and after each Han or
// kana character and before each letter of the unspaced scripts (whose
// marks stay with it); leading marks dropped.
func splitWord(out []string, w string) []string {
	start := 0 // where the word being read starts
	for i, r := range w {
		switch {
		case i == start && unicode.IsMark(r):
			start = i + utf8.RuneLen(r) // no letter before it
		case unicode.Is(unicode.Han, r) || isKana(r):
			if i > start {
				out = append(out, w[start:i])
			}
			out = append(out, w[i:i+utf8.RuneLen(r)])
			start = i + utf8.RuneLen(r)
		case unspaced(r) && unicode.IsLetter(r):
			if i > start {
				out = append(out, w[start:i])
			}
			start = i
		}
	}
	if start < len(w) {
		out = append(out, w[start:])
	}
	return out
}

// mayBeSplit says whether splitWord may change w: w has a character from
// U+0300 on (combining marks, and every script whose words splitWord cuts,
// are there; ASCII and the Latin letters with accents precomposed are
// below).
func mayBeSplit(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] >= 0xcc {
			return true
		}
	}
	return false
}

// isKana says whether r is hiragana or katakana, the long-vowel mark ー
// (and its halfwidth form) with them: Unicode gives it no script of its
// own (Common), and as a word apart it weighed a whole word where a kana
// weighs a third (コンピューター: seven kana, three words).
func isKana(r rune) bool {
	return unicode.In(r, unicode.Hiragana, unicode.Katakana) || r == 0x30fc || r == 0xff70
}

// unspaced says whether r is of a script written without spaces between
// words whose letters splitWord cuts apart (Thai, Lao, Khmer, Burmese).
func unspaced(r rune) bool {
	return r >= 0x0e00 && r <= 0x0eff || r >= 0x1000 && r <= 0x109f || r >= 0x1780 && r <= 0x17ff
}

// wordCount is how many words s holds for a length threshold (the
// weights above), rounded up.
func wordCount(s string) int { return sixths(wordsOf(s), sixthsHan, sixthsKana) }

// agreeCount is how many words ws (wordsOf's) hold for agree's thresholds
// (agreeMinWords, agreeLeadWords, held's three words): a Han or kana
// character counts a whole word there, as html/15 chose on the tune
// halves; a cluster of the unspaced scripts a third, as wordCount has it
// (their pieces between marks, the unit before html/19, were about one a
// word: Thai 1.11). Session 31 (html/19): a Han character half a word
// there too (a kana one a third) moved no tune page but lowered
// html-main's report half (recall 0.989 -> 0.988, F1 0.9926 -> 0.9922):
// not done.
func agreeCount(ws []string) int { return sixths(ws, sixthsWord, sixthsWord) }

// sixths is how many words ws hold, rounded up, a Han character weighed
// han sixths of a word and a kana one kana sixths.
func sixths(ws []string, han, kana int) int {
	n := 0
	for _, w := range ws {
		n += weight(w, han, kana)
	}
	return (n + sixthsWord - 1) / sixthsWord
}

// weight is the word w in sixths of a word (see sixths).
func weight(w string, han, kana int) int {
	r, size := utf8.DecodeRuneInString(w)
	switch {
	case size < 3: // ASCII, Latin, Greek, Cyrillic, Arabic, Hebrew...
		return sixthsWord
	case size == len(w) && unicode.Is(unicode.Han, r):
		return han
	case size == len(w) && isKana(r):
		return kana
	case unspaced(r):
		return sixthsCluster
	}
	return sixthsWord
}

// leadOf is s's first words, as many as n words by agreeCount.
func leadOf(s string, n int) string {
	w := wordsOf(s)
	end, sum := 0, 0
	for end < len(w) && sum < n*sixthsWord {
		sum += weight(w[end], sixthsWord, sixthsWord)
		end++
	}
	return strings.Join(w[:end], " ")
}

// textWidth is s's length in characters for a gate in characters, a Han
// character counted three, a kana or Hangul character two (the weights
// above): a Chinese page is a third as many characters as the same page in
// English. The fork's TextWidth, which its own rescue gate uses (html/24):
// one set of weights for both.
func textWidth(s string) int { return trafilatura.TextWidth(s) }

func wordBag(ws []string) map[string]int {
	bag := map[string]int{}
	for _, w := range ws {
		bag[w]++
	}
	return bag
}

package main

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The scorer's words. A word is a run of letters, marks and digits; in the
// scripts written without spaces between words each Han or kana character
// is a word, and each Thai, Lao, Khmer or Burmese letter with the marks
// after it, as character-level scores of Chinese text have it. (Before
// session 31 a Chinese clause was one "word": the eight words of goose's
// lede were two sentences of bbc_chinese, which no candidate had in a row,
// an image caption between them; and one character off cost a candidate
// the whole clause in html-main's word bags.) The scorer's own split, not
// docket's: a fault in docket's must not hide in its scores.
func splitWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(withoutSoftHyphens(s)), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r)
	}) {
		start := 0
		for i, r := range w {
			switch {
			case i == start && unicode.IsMark(r): // no letter before it
				start = i + utf8.RuneLen(r)
			case unicode.Is(unicode.Han, r) || kana(r):
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
	}
	return out
}

// withoutSoftHyphens is s less its soft hyphens (&shy;, U+00AD): a hint
// where a word may break at a line's end, not a character a reader sees.
// The sets disagree on them (go-trafilatura's comparison snippets keep them
// on some pages, as the text they were copied from did, and leave them out
// on others; readability and trafilatura drop them), and the word split cut
// a word at each. Both sides of every comparison go through it.
func withoutSoftHyphens(s string) string {
	if strings.IndexRune(s, '\u00ad') < 0 {
		return s
	}
	return strings.ReplaceAll(s, "\u00ad", "")
}

// kana: hiragana, katakana and the long-vowel mark ー (Common in Unicode).
func kana(r rune) bool {
	return unicode.In(r, unicode.Hiragana, unicode.Katakana) || r == 0x30fc || r == 0xff70
}

// unspaced: Thai, Lao, Myanmar or Khmer.
func unspaced(r rune) bool {
	return r >= 0x0e00 && r <= 0x0eff || r >= 0x1000 && r <= 0x109f || r >= 0x1780 && r <= 0x17ff
}

// wordSixths is w (one of splitWords') in sixths of an English word: a Han
// character half a word, a kana character or a letter of the unspaced
// scripts a third, as their English translations have them (Debian's .mo
// catalogues, see extract/html's words.go). Goose's lede is so many words
// of English's.
func wordSixths(w string) int {
	r, size := utf8.DecodeRuneInString(w)
	switch {
	case size < 3 || size < len(w) && !unspaced(r):
		return 6
	case unicode.Is(unicode.Han, r):
		return 3
	}
	if kana(r) || unspaced(r) {
		return 2
	}
	return 6
}

// firstWords is ws's first words, as many as n English words' worth.
func firstWords(ws []string, n int) []string {
	end, sum := 0, 0
	for end < len(ws) && sum < 6*n {
		sum += wordSixths(ws[end])
		end++
	}
	return ws[:end]
}

// wordWorth is ws's worth in English words, rounded.
func wordWorth(ws []string) int {
	sum := 0
	for _, w := range ws {
		sum += wordSixths(w)
	}
	return (sum + 3) / 6
}

func words(s string) map[string]int {
	bag := map[string]int{}
	for _, w := range splitWords(s) {
		bag[w]++
	}
	return bag
}

package table

import (
	"unicode"
	"unicode/utf8"
)

// Right-to-left cells. The page's words of a line holding Hebrew or
// Arabic come in logical order, each word's text already readable (see
// package pdf's rtl.go), but a cell's text is built from its words by
// position, left to right: a cell of several RTL words came out with its
// words reversed ("גולמי מקומי תוצר" for "תוצר מקומי גולמי"). lineText
// orders a cell line's words as they are read.

// wordDir is a word's direction by its first strong letter: +1 left to
// right, -1 right to left, 0 none (numbers, punctuation).
func wordDir(s string) int {
	for _, r := range s {
		if r < 0x0590 {
			if unicode.IsLetter(r) {
				return 1
			}
			continue
		}
		if rtlRune(r) {
			return -1
		}
		if unicode.IsLetter(r) {
			return 1
		}
	}
	return 0
}

// rtlRune: the Unicode blocks of Hebrew, Arabic, Syriac, Thaana, NKo,
// Samaritan, Mandaic and their presentation forms.
func rtlRune(r rune) bool {
	return r >= 0x0590 && r <= 0x08FF || r >= 0xFB1D && r <= 0xFDFF || r >= 0xFE70 && r <= 0xFEFC
}

// readingOrder returns ws (one line's words, left to right) in reading
// order: unchanged for a left-to-right line; for a right-to-left one (more
// RTL words than LTR ones, or as many and the rightmost word RTL) right to
// left, with runs of words that hold no RTL letter (Latin words, numbers)
// kept left to right. ws is not modified.
func readingOrder(ws []*word) []*word {
	nR, nL, last := 0, 0, 0
	for _, w := range ws {
		switch wordDir(w.text) {
		case -1:
			nR++
			last = -1
		case 1:
			nL++
			last = 1
		}
	}
	if nR == 0 || nR < nL || nR == nL && last != -1 {
		return ws
	}
	out := make([]*word, 0, len(ws))
	for i := len(ws) - 1; i >= 0; {
		if wordDir(ws[i].text) == -1 {
			out = append(out, ws[i])
			i--
			continue
		}
		j := i
		for j > 0 && wordDir(ws[j-1].text) != -1 {
			j--
		}
		out = append(out, ws[j:i+1]...)
		i = j - 1
	}
	return out
}

// signTouches: a word that is only a sign set against the number after it
// ("-" "1.7", as an RTL line's rebuild leaves a negative number) is one
// word with it.
func signTouches(a, b *word) bool {
	if r, n := utf8.DecodeRuneInString(a.text); n != len(a.text) || !(r == '-' || r == '+' || r == '−' || r == '–') {
		return false
	}
	return b.bb.X0-a.bb.X1 < 0.15*max(a.size, b.size) && numeric(b.text)
}

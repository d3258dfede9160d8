package pdf

/*
#include "walk.h"
*/
import "C"

import (
	"unicode"

	unorm "golang.org/x/text/unicode/norm"
)

// Arabic presentation forms. Many producers write Arabic as its shaped
// glyphs' own code points, the presentation forms (U+FB50-U+FDFF,
// U+FE70-U+FEFF: "ﻛﺘﺎﺏ" for "كتاب", the lam-alef ligature "ﻻ" for "لا"),
// which MuPDF passes through. Words in them match nothing a user types
// or a search tokenizer splits, so each is replaced at the page walk, by
// its NFKC letters (golang.org/x/text/unicode/norm), before words, the
// RTL rebuild, tables and the page text are made from the characters: a
// ligature becomes several characters sharing its box, cut along the
// line, the first letter at the line's right end (Arabic reads right to
// left). The isolated forms of harakat (U+FE70 "ﹰ") decompose to a space
// and the mark; the space is left out, so the mark stays on its letter.

// IsPresentationForm reports whether r is an Arabic presentation form
// (eval-rtl counts those left in the text with it).
func IsPresentationForm(r rune) bool {
	return r >= 0xFB50 && r <= 0xFDFF || r >= 0xFE70 && r <= 0xFEFF
}

// unshape returns the page's characters and lines with every Arabic
// presentation form replaced by its letters; the same slices, unread
// past the first, when there is none.
func unshape(cs []C.dk_char, ls []C.dk_line) ([]C.dk_char, []C.dk_line) {
	// Both tests want a code point from U+0590 on (mayBeRTL), so most
	// characters are passed by one comparison, without copying them into
	// zeroWidthLetter (the scan was ~0.9 % of a PDF worker's instructions).
	i := 0
	for i < len(cs) && (cs[i].c < 0x0590 || !IsPresentationForm(rune(cs[i].c)) && !zeroWidthLetter(cs[i])) {
		i++
	}
	if i == len(cs) {
		return cs, ls
	}
	out := make([]C.dk_char, 0, len(cs)+len(cs)/4)
	nl := make([]C.dk_line, len(ls))
	copy(nl, ls)
	for li := range nl {
		l := &nl[li]
		first := len(out)
		for _, c := range cs[l.first : l.first+l.n] {
			out = appendLetters(out, c, l.dx, l.dy)
		}
		shareGlyphs(out[first:], l.dx, l.dy)
		l.first, l.n = C.int(first), C.int(len(out)-first)
	}
	return out, nl
}

// appendLetters appends c, or its letters when it is a presentation form
// (dx, dy: its line's direction).
func appendLetters(out []C.dk_char, c C.dk_char, dx, dy C.float) []C.dk_char {
	r := rune(c.c)
	if !IsPresentationForm(r) {
		return append(out, c)
	}
	rs := []rune(unorm.NFKC.String(string(r)))
	if len(rs) > 1 && rs[0] == ' ' {
		rs = rs[1:] // an isolated mark: the mark alone
	}
	n := len(rs)
	for k, l := range rs {
		p := c
		p.c = C.int(l)
		if n > 1 {
			// piece k from the line's end: the first letter is drawn last
			// along the pen's way
			t0, t1 := C.float(n-1-k)/C.float(n), C.float(n-k)/C.float(n)
			if abs32(dx) >= abs32(dy) {
				p.x0, p.x1 = piece(c.x0, c.x1, t0, t1, dx < 0)
				p.ox = p.x0
			} else {
				p.y0, p.y1 = piece(c.y0, c.y1, t0, t1, dy < 0)
				p.oy = p.y0
			}
		}
		out = append(out, p)
	}
	return out
}

// shareGlyphs: a glyph whose ToUnicode gives several letters (a lam-alef
// ligature mapped to "لأ") comes from MuPDF as the first letter with the
// glyph's box and the others with no width at the glyph's end, next to
// it (before it when MuPDF turned the right-to-left run), so the RTL
// rebuild, which reads boxes, put them on the wrong side ("األخير" for
// "الأخير"). The glyph's box is shared out among its letters as for a
// presentation-form ligature, the first letter at the line's end. Only
// for right-to-left letters: a Latin ligature's letters are in order
// either way.
func shareGlyphs(cs []C.dk_char, dx, dy C.float) {
	if abs32(dx) < abs32(dy) {
		return
	}
	end := func(c *C.dk_char) C.float {
		if dx < 0 {
			return c.x0
		}
		return c.x1
	}
	rtlGlyph := func(i int, x C.float) bool {
		return i >= 0 && i < len(cs) && cs[i].x1 > cs[i].x0 && end(&cs[i]) == x && mayBeRTL(rune(cs[i].c))
	}
	for a := 0; a < len(cs); a++ {
		x := cs[a].x0
		if !zeroWidthLetter(cs[a]) {
			continue
		}
		b := a + 1
		for b < len(cs) && cs[b].x0 == x && zeroWidthLetter(cs[b]) {
			b++
		}
		// the letters in the ToUnicode's order: the glyph's first, then
		// the others as written (after it) or turned (before it)
		var order []int
		switch {
		case rtlGlyph(b, x):
			order = append(order, b)
			for k := b - 1; k >= a; k-- {
				order = append(order, k)
			}
		case rtlGlyph(a-1, x):
			order = append(order, a-1)
			for k := a; k < b; k++ {
				order = append(order, k)
			}
		default:
			a = b - 1
			continue
		}
		g, n := cs[order[0]], len(order)
		for k, i := range order {
			t0, t1 := C.float(n-1-k)/C.float(n), C.float(n-k)/C.float(n)
			c := &cs[i]
			c.x0, c.x1 = piece(g.x0, g.x1, t0, t1, dx < 0)
			c.y0, c.y1 = g.y0, g.y1
			c.ox = c.x0
		}
		a = b
	}
}

// zeroWidthLetter: c is a right-to-left letter (not a combining mark,
// which MuPDF also gives no width) with no width.
func zeroWidthLetter(c C.dk_char) bool {
	r := rune(c.c)
	return c.x0 == c.x1 && mayBeRTL(r) && !unicode.Is(unicode.Mn, r)
}

// piece is the part [t0, t1] (fractions) of the span a..b, counted from b
// when back is set.
func piece(a, b, t0, t1 C.float, back bool) (C.float, C.float) {
	w := b - a
	if back {
		return b - t1*w, b - t0*w
	}
	return a + t0*w, a + t1*w
}

func abs32(f C.float) C.float {
	if f < 0 {
		return -f
	}
	return f
}

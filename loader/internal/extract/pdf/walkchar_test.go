package pdf

import (
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestWalkSpaceIsUnicodeSpace: the page walk's space test (walkSpace,
// which skips unicode.IsSpace for ASCII) and its real-character count
// (not RuneError, not a space) agree with unicode.IsSpace and
// document.IsRealChar for every value a character's code can hold:
// every code point, surrogates, past U+10FFFF and negative.
func TestWalkSpaceIsUnicodeSpace(t *testing.T) {
	check := func(c rune) {
		r := walkRune(c)
		if r < 0x20 || r == 0x7f || !utf8.ValidRune(r) {
			t.Fatalf("walkRune(%#x) = %#x, not a printable code point or ' '", c, r)
		}
		if got, want := walkSpace(r), unicode.IsSpace(r); got != want {
			t.Fatalf("walkSpace(%#x) = %v, unicode.IsSpace %v", r, got, want)
		}
		if got, want := r != utf8.RuneError && !walkSpace(r), document.IsRealChar(r); got != want {
			t.Fatalf("%#x counted real %v, document.IsRealChar %v", r, got, want)
		}
	}
	for c := rune(-1 << 20); c <= 0x110000+(1<<20); c++ {
		check(c)
	}
	for _, c := range []rune{-1 << 31, 1<<31 - 1, utf8.RuneError, 0x85, 0xa0, 0x1680, 0x2028, 0x3000, 0xfeff} {
		check(c)
	}
}

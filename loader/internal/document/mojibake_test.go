package document

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// mojibakeFull is Mojibake as it was before its shortcuts (a text with no
// rune U+00C2-U+00F4 returns after counting; latinByte looks up cp1252
// only for runes between its bounds): every rune through the map.
func mojibakeFull(s string) Doubled {
	latin := func(r rune) (byte, bool) {
		if r >= 0x80 && r <= 0xFF {
			return byte(r), true
		}
		b, ok := cp1252[r]
		return b, ok
	}
	var d Doubled
	rs := []rune(s)
	for _, r := range rs {
		if r >= utf8.RuneSelf {
			d.NonASCII++
		}
	}
	for i := 0; i < len(rs); i++ {
		lead, ok := latin(rs[i])
		need := 0
		switch {
		case !ok:
		case lead >= 0xC2 && lead <= 0xDF:
			need = 1
		case lead >= 0xE0 && lead <= 0xEF:
			need = 2
		case lead >= 0xF0 && lead <= 0xF4:
			need = 3
		}
		if need == 0 || i+need >= len(rs) {
			continue
		}
		b := []byte{lead}
		for _, r := range rs[i+1 : i+1+need] {
			c, ok := latin(r)
			if !ok || c < 0x80 || c > 0xBF {
				break
			}
			b = append(b, c)
		}
		if len(b) != need+1 {
			continue
		}
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError || size != len(b) || !(unicode.IsLetter(r) || unicode.IsPunct(r) || unicode.IsSymbol(r) || r == 0xA0) {
			continue
		}
		if d.Places == 0 {
			d.Example, d.Was = string(rs[i:i+1+need]), string(r)
		}
		d.Places++
		d.Chars += need + 1
		i += need
	}
	return d
}

// TestCP1252Bounds: cp1252Min and cp1252Max bound the map's runes, so
// latinByte's shortcut skips no rune the map holds.
func TestCP1252Bounds(t *testing.T) {
	for r := range cp1252 {
		if r < cp1252Min || r > cp1252Max {
			t.Errorf("cp1252 holds %U, outside %U..%U", r, cp1252Min, cp1252Max)
		}
	}
}

// TestMojibakeIsTheFullPath: Mojibake with its shortcuts finds what the
// full path finds, on generated texts: all ASCII, and mixes of ASCII,
// invalid UTF-8,
// Latin-1, Windows-1252's runes, their neighbours outside the map, and
// real mojibake (UTF-8 of letters and punctuation read as Latin-1 or
// Windows-1252).
func TestMojibakeIsTheFullPath(t *testing.T) {
	var cp []rune
	for r := range cp1252 {
		cp = append(cp, r)
	}
	twice := func(s string) string { // UTF-8 read again as Windows-1252 / Latin-1
		var b strings.Builder
		back := map[byte]rune{}
		for r, c := range cp1252 {
			back[c] = r
		}
		for _, c := range []byte(s) {
			if r, ok := back[c]; ok {
				b.WriteRune(r)
			} else {
				b.WriteRune(rune(c))
			}
		}
		return b.String()
	}
	chars := []rune("é–’“”€™ßÖ→中😀") // 2, 3 and 4 bytes of UTF-8
	rng := rand.New(rand.NewPCG(7, 26))
	pick := func() string {
		switch rng.IntN(10) {
		case 9:
			return string([]byte{0xC3, 0x80 + byte(rng.IntN(0x40))}[:1+rng.IntN(2)]) // invalid UTF-8 or a Latin-1 letter
		case 0, 1, 2:
			return string(rune(' ' + rng.IntN(95)))
		case 3:
			return string(rune(0x80 + rng.IntN(0x80)))
		case 4:
			return string(cp[rng.IntN(len(cp))])
		case 5:
			return string(cp1252Min - 1 - rune(rng.IntN(0xD0))) // between Latin-1 and the map
		case 6:
			return string(cp1252Max + 1 + rune(rng.IntN(0x1000)))
		case 7:
			return twice(string(chars[rng.IntN(len(chars))]))
		default:
			return string(rune(0x100 + rng.IntN(0x2100)))
		}
	}
	n := 0
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		ascii := i%4 == 0
		for k := rng.IntN(40); k >= 0; k-- {
			if ascii {
				b.WriteByte(byte(' ' + rng.IntN(95)))
			} else {
				b.WriteString(pick())
			}
		}
		if i%4 == 1 { // ASCII around one character's mojibake
			b.Reset()
			b.WriteString("a test ")
			b.WriteString(twice(string(chars[rng.IntN(len(chars))])))
			b.WriteString(" text")
		}
		s := b.String()
		got, want := Mojibake(s), mojibakeFull(s)
		if got != want {
			t.Fatalf("Mojibake(%q) = %+v, the full path gives %+v", s, got, want)
		}
		if want.Places > 0 {
			n++
		}
	}
	if n < 1000 {
		t.Errorf("only %d of the generated texts hold mojibake: the comparison tests too little", n)
	}
}

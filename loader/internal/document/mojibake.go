package document

import (
	"unicode"
	"unicode/utf8"
)

// Text encoded in UTF-8 and decoded a second time as Latin-1 or
// Windows-1252 (mojibake) keeps most of its letters: only the characters
// outside ASCII turn into two to four others ("–" into "â€“" or
// "â\u0080\u0093", "é" into "Ã©"). In a mostly-English text they are a
// small share of the characters, under MaxUnexpectedShare, so Check also
// counts the sequences themselves: a letter that is a UTF-8 lead byte
// followed by the continuation bytes it needs, read back to bytes, form a
// character real text uses. No real text spells one: a Latin-1 letter
// is not followed by C1 controls or by a run of Windows-1252 punctuation
// that happens to encode a character.

// cp1252 is Windows-1252's characters for the bytes 0x80-0x9F that differ
// from Latin-1 (the undefined 0x81, 0x8D, 0x8F, 0x90, 0x9D stay as Latin-1
// reads them).
var cp1252 = map[rune]byte{
	'€': 0x80, '‚': 0x82, 'ƒ': 0x83, '„': 0x84, '…': 0x85, '†': 0x86, '‡': 0x87, 'ˆ': 0x88, '‰': 0x89, 'Š': 0x8A,
	'‹': 0x8B, 'Œ': 0x8C, 'Ž': 0x8E, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '•': 0x95, '–': 0x96, '—': 0x97,
	'˜': 0x98, '™': 0x99, 'š': 0x9A, '›': 0x9B, 'œ': 0x9C, 'ž': 0x9E, 'Ÿ': 0x9F,
}

// cp1252Min and cp1252Max bound cp1252's runes (Œ, ™); TestCP1252Bounds.
const cp1252Min, cp1252Max = 'Œ', '™'

// latinByte is the byte a Latin-1 or Windows-1252 decoding read as r.
func latinByte(r rune) (byte, bool) {
	if r >= 0x80 && r <= 0xFF {
		return byte(r), true
	}
	if r < cp1252Min || r > cp1252Max {
		return 0, false // no map look-up for ASCII and most other text
	}
	b, ok := cp1252[r]
	return b, ok
}

// Doubled is what Mojibake found in a text.
type Doubled struct {
	Places   int    // places where UTF-8 was decoded a second time
	Chars    int    // the characters they take
	NonASCII int    // all characters outside ASCII
	Example  string // the first place, as it reads
	Was      string // the character it was
}

// Add sums o into d, keeping d's example when it has one.
func (d *Doubled) Add(o Doubled) {
	if d.Places == 0 {
		d.Example, d.Was = o.Example, o.Was
	}
	d.Places += o.Places
	d.Chars += o.Chars
	d.NonASCII += o.NonASCII
}

// Suspect: enough places, taking most of the characters outside ASCII
// (text garbled some other way, such as a font read through a stand-in,
// or German with a no-break space after ß, spells a few by chance among
// many others).
func (d Doubled) Suspect() bool {
	return d.Places >= minSuspectChars && 2*d.Chars >= d.NonASCII
}

// Mojibake finds the places in s where UTF-8 was decoded a second time
// as Latin-1 or Windows-1252.
func Mojibake(s string) Doubled {
	var d Doubled
	leads := false
	for _, r := range s { // the runes []rune(s) holds
		if r >= utf8.RuneSelf {
			d.NonASCII++
			leads = leads || r >= 0xC2 && r <= 0xF4
		}
	}
	if !leads {
		// A place begins with a lead byte 0xC2-0xF4 read as Latin-1, the
		// runes U+00C2-U+00F4 (cp1252's runes stand for bytes 0x80-0x9F):
		// most pages have none.
		return d
	}
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		lead, ok := latinByte(rs[i])
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
			c, ok := latinByte(r)
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

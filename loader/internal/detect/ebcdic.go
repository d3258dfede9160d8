package detect

import (
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/transform"
)

// EBCDIC encodings detection can name.
const (
	EBCDIC037 = "ibm037" // US/Canada EBCDIC
	EBCDIC500 = "ibm500" // International EBCDIC: 037 with [ ] ! ^ | ¢ ¬ elsewhere
)

// ebcdicText marks the bytes EBCDIC text is made of: space, letters,
// digits, common punctuation and the line ends (NL 0x15, LF 0x25, CR 0x0D).
var ebcdicText = func() (t [256]bool) {
	for _, r := range [][2]byte{
		{0x81, 0x89}, {0x91, 0x99}, {0xA2, 0xA9}, // a-z
		{0xC1, 0xC9}, {0xD1, 0xD9}, {0xE2, 0xE9}, // A-Z
		{0xF0, 0xF9},                                           // 0-9
		{0x4A, 0x50}, {0x5A, 0x61}, {0x6B, 0x6F}, {0x7A, 0x7F}, // punctuation
		{0x42, 0x49}, {0x51, 0x59}, {0x62, 0x69}, {0x70, 0x78}, // accented letters
	} {
		for c := int(r[0]); c <= int(r[1]); c++ {
			t[c] = true
		}
	}
	for _, c := range []byte{0x40, 0x15, 0x25, 0x0D, 0x05, 0x41, 0xBA, 0xBB, 0xB0} {
		t[c] = true
	}
	return t
}()

// EBCDICEncoding names the EBCDIC code page of head, or "" when head is
// not EBCDIC text. EBCDIC text is never valid UTF-8 (its letters are
// bytes ≥ 0x81) and looks nothing like ASCII: space is 0x40 ('@'), most
// bytes are high, and a legacy-charset guesser reads it as CJK or accented
// garbage. Required: 0x40 is at least 8% of the bytes, high bytes at least
// 40%, and 97% of all bytes are EBCDIC letters, digits, punctuation or
// line ends.
func EBCDICEncoding(head []byte) string {
	if len(head) < 16 {
		return ""
	}
	var space, high, text int
	for _, c := range head {
		if c == 0x40 {
			space++
		}
		if c >= 0x80 {
			high++
		}
		if ebcdicText[c] {
			text++
		}
	}
	n := len(head)
	if space*100 < n*8 || high*100 < n*40 || text*100 < n*97 {
		return ""
	}
	// 037 vs 500: where '!' and the brackets are. A 0x4F ending a word is
	// cp500's '!' (cp037's '|'); 0x5A ending one is cp037's '!' (cp500's
	// ']'); 0xBA/0xBB are cp037's brackets (cp500's ¬ and |).
	var s037, s500 int
	for i, c := range head {
		end := i+1 == n || head[i+1] == 0x40 || head[i+1] == 0x25 || head[i+1] == 0x15
		switch {
		case c == 0x5A && end, c == 0xBA, c == 0xBB:
			s037++
		case c == 0x4F && end, c == 0x4A:
			s500++
		}
	}
	if s500 > s037 {
		return EBCDIC500
	}
	return EBCDIC037
}

// cp500to037 moves the seven bytes where code page 500 differs from 037
// to where 037 has the same characters.
var cp500to037 = func() (m [256]byte) {
	for i := range m {
		m[i] = byte(i)
	}
	for from, to := range map[byte]byte{0x4A: 0xBA, 0x5A: 0xBB, 0x4F: 0x5A, 0x5F: 0xB0, 0xBA: 0x5F, 0xBB: 0x4F, 0xB0: 0x4A} {
		m[from] = to
	}
	return m
}()

type permute struct{ transform.NopResetter }

func (permute) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	n := min(len(dst), len(src))
	for i := 0; i < n; i++ {
		dst[i] = cp500to037[src[i]]
	}
	if n < len(src) {
		err = transform.ErrShortDst
	}
	return n, n, err
}

// cp500 decodes IBM code page 500 (x/text has 037 and 1047 but not 500).
type cp500 struct{}

func (cp500) NewDecoder() *encoding.Decoder {
	return &encoding.Decoder{Transformer: transform.Chain(permute{}, charmap.CodePage037.NewDecoder())}
}

func (cp500) NewEncoder() *encoding.Encoder {
	return charmap.CodePage037.NewEncoder() // not used: docket only decodes
}

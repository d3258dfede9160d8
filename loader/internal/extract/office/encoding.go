package office

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
	"golang.org/x/text/transform"
)

// charsetReader decodes an XML document declared in a non-UTF-8 charset.
func charsetReader(label string, in io.Reader) (io.Reader, error) {
	label = strings.ToLower(strings.TrimSpace(label))
	if label == "" || label == "utf-8" || label == "utf8" {
		return in, nil
	}
	enc, err := htmlindex.Get(label)
	if err != nil {
		return nil, fmt.Errorf("unknown charset %q: %w", label, err)
	}
	return transform.NewReader(in, enc.NewDecoder()), nil
}

// decodeText turns bytes of unknown encoding into UTF-8: a BOM decides
// (UTF-8, UTF-16 LE/BE); BOM-less UTF-16 is recognised by its NUL bytes;
// valid UTF-8 is kept; anything else is read as Windows-1252, the usual
// encoding of legacy CSV exports. It returns the text and the encoding name.
func decodeText(b []byte) (string, string) {
	switch {
	case bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}):
		return string(b[3:]), "utf-8"
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE, 0, 0}):
		return decodeWith(b, utf32LE()), "utf-32le"
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		return decodeWith(b, unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM)), "utf-16le"
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		return decodeWith(b, unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM)), "utf-16be"
	}
	if le, be := nulPattern(b); le || be {
		order := unicode.LittleEndian
		name := "utf-16le"
		if be {
			order, name = unicode.BigEndian, "utf-16be"
		}
		return decodeWith(b, unicode.UTF16(order, unicode.IgnoreBOM)), name
	}
	if utf8.Valid(b) {
		return string(b), "utf-8"
	}
	return decodeWith(b, charmap.Windows1252), "windows-1252"
}

func utf32LE() encoding.Encoding { return utf32.UTF32(utf32.LittleEndian, utf32.ExpectBOM) }

func decodeWith(b []byte, enc encoding.Encoding) string {
	out, _, err := transform.Bytes(enc.NewDecoder(), b)
	if err != nil {
		return strings.ToValidUTF8(string(b), "\uFFFD")
	}
	return string(out)
}

// nulPattern says whether the first bytes look like BOM-less UTF-16 text
// (ASCII with a NUL in every odd or every even byte).
func nulPattern(b []byte) (le, be bool) {
	n := len(b)
	if n > 512 {
		n = 512
	}
	if n < 4 {
		return false, false
	}
	var even, odd int
	for i := 0; i < n; i++ {
		if b[i] == 0 {
			if i%2 == 0 {
				even++
			} else {
				odd++
			}
		}
	}
	half := n / 2
	return odd > half*3/4 && even == 0, even > half*3/4 && odd == 0
}

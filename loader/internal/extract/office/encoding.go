package office

import (
	"fmt"
	"io"
	"strings"

	"golang.org/x/text/encoding/htmlindex"
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

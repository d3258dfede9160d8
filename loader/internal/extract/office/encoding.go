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

package email

import (
	"bytes"
	"regexp"
)

// A MIME part must start with its header lines (or a blank line for none)
// after its boundary. Some signing tools write the signed text straight
// after the boundary (mixed/eml/signed-doc.p7s: "This is a test"), which
// enmime refuses as a whole ("malformed MIME header initial line"), and
// the message was quarantined with those words. headerlessParts gives
// such a message with a plain-text header put before each such part's
// text (MIME's default for a part without one), and how many.

var (
	boundaryRe   = regexp.MustCompile(`(?i)boundary\s*=\s*(?:"([^"\r\n]+)"|([^\s;"]+))`)
	headerLineRe = regexp.MustCompile(`^[!-9;-~]+:`)
)

func headerlessParts(raw []byte) ([]byte, int) {
	var out []byte
	fixed := 0
	for _, m := range boundaryRe.FindAllSubmatch(raw, -1) {
		b := m[1]
		if len(b) == 0 {
			b = m[2]
		}
		delim := append([]byte("\n--"), b...)
		src := raw
		if out != nil {
			src = out
		}
		var buf bytes.Buffer
		for {
			i := bytes.Index(src, delim)
			if i < 0 {
				buf.Write(src)
				break
			}
			end := i + len(delim)
			nl := bytes.IndexByte(src[end:], '\n')
			if nl < 0 {
				buf.Write(src)
				break
			}
			line := end + nl + 1
			buf.Write(src[:line])
			rest := src[line:]
			first := rest
			if j := bytes.IndexByte(rest, '\n'); j >= 0 {
				first = rest[:j]
			}
			first = bytes.TrimRight(first, "\r")
			if !bytes.HasPrefix(src[end:], []byte("--")) && len(first) > 0 && !headerLineRe.Match(first) && first[0] != ' ' && first[0] != '\t' {
				buf.WriteString("Content-Type: text/plain\r\n\r\n")
				fixed++
			}
			src = rest
		}
		out = buf.Bytes()
	}
	return out, fixed
}

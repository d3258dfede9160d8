package exec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// PyJSONDumps (docket) is Python's json.dumps(v) as dbt's tojson and
// Jinja2's tojson filter write it: ", " and ": " between items, every
// character past ASCII as \uXXXX (ensure_ascii; a surrogate pair beyond
// the BMP), a map's keys sorted (a Go map keeps no order; Jinja2's filter
// sorts them too). htmlSafe is Jinja2's htmlsafe_json_dumps: <, >, & and '
// as \u003c, \u003e, \u0026 and \u0027. A float is written as Go writes
// it (1, where Python writes 1.0).
func PyJSONDumps(v any, htmlSafe bool) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(htmlSafe)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	compact := bytes.TrimRight(buf.Bytes(), "\n")
	var out strings.Builder
	inStr, esc := false, false
	for i := 0; i < len(compact); {
		r, size := utf8.DecodeRune(compact[i:])
		i += size
		switch {
		case inStr && r > 0x7e:
			if r > 0xffff {
				r -= 0x10000
				fmt.Fprintf(&out, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
			} else {
				fmt.Fprintf(&out, `\u%04x`, r)
			}
			continue
		case inStr && esc:
			esc = false
		case inStr && r == '\\':
			esc = true
		case inStr && htmlSafe && r == '\'':
			out.WriteString(`\u0027`)
			continue
		case r == '"':
			inStr = !inStr
		case !inStr && (r == ',' || r == ':'):
			out.WriteRune(r)
			out.WriteByte(' ')
			continue
		}
		out.WriteRune(r)
	}
	return out.String(), nil
}

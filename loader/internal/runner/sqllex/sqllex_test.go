package sqllex

import (
	"strings"
	"testing"
)

// TestTokensWithOpaqueSpans: with a template's {{ }} opaque, a quote
// inside a print ends no literal or identifier, and a print outside them
// is one token; DuckDB's literals, identifiers and comments are read as
// its lexer reads them.
func TestTokensWithOpaqueSpans(t *testing.T) {
	jinja := func(q string, i int) int {
		if strings.HasPrefix(q[i:], "{{") {
			if j := strings.Index(q[i:], "}}"); j >= 0 {
				return i + j + 2
			}
			return len(q)
		}
		return i
	}
	for _, c := range []struct {
		q    string
		want string // tokens as kind:text, space separated
	}{
		{`select '{{ ref('m') }}' as "a{{ x("y") }}b"`, `I:select S:'{{ ref('m') }}' I:as Q:"a{{ x("y") }}b"`},
		{`x{{ '}' }}.y`, `I:x O:{{ '}' }} D:. I:y`},
		{`E'it\'s {{ t }}' e'\{{ '' }}'`, `S:E'it\'s {{ t }}' S:e'\{{ '' }}'`},
		{`$q$it's {{ "$q$" }}$q$ $1`, `S:$q$it's {{ "$q$" }}$q$ O:$ O:1`},
		{`a /* b /* c */ it's */ -- it's` + "\n" + `'d''e'`, `I:a S:'d''e'`},
		{`'open {{ x`, `S:'open {{ x`},
	} {
		var got []string
		for _, tk := range Tokens(c.q, jinja) {
			got = append(got, string("?OIQDS"[tk.Kind])+":"+c.q[tk.Start:tk.End])
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.q, strings.Join(got, " "), c.want)
		}
	}
}

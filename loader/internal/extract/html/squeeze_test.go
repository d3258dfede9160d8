package html

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/strtest"
)

// The Fields-based definitions squeeze replaced (issue 15: they were a
// quarter of a 31.5 MB page's allocations); squeeze must give the same text.
func collapseFields(s string) string { return strings.Join(strings.Fields(s), " ") }

func cleanLinesFields(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = collapseFields(l); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestSqueezeMatchesFields: collapse and cleanLines (and squeeze of a
// byte slice, as the walker's paragraph buffer is read) give what
// strings.Fields and Join gave, on hand-picked strings (every kind of white
// space Fields knows, leading and trailing runs, empty lines, invalid
// UTF-8), on every string of up to three of their pieces and on random
// strings of them (strtest.Strings).
func TestSqueezeMatchesFields(t *testing.T) {
	cases := []string{"", " ", "\n", "\n\n", "a", " a ", "a  b", "\ta\tb\t", "a\nb", "a \n b", " \n a \n\n b \n ",
		"a\r\nb", "a\u00a0b", "a\u0085b", "\u2028a\u3000b\u2029", "a\v\fb", "\xffa \xfe\n\xc3", "x\u200bx", "é  ü\n\n ß "}
	pieces := []string{"a", "bc", "é", " ", "  ", "\n", "\t", "\r", "\u00a0", "\u0085", "\u3000", "\u2028", "\xff", "\xc3", "\u200b"}
	strtest.Strings(pieces, 3, 20000, 1, func(s string) { cases = append(cases, s) })
	for _, s := range cases {
		if got, want := collapse(s), collapseFields(s); got != want {
			t.Fatalf("collapse(%q) = %q, want %q", s, got, want)
		}
		if got, want := cleanLines(s), cleanLinesFields(s); got != want {
			t.Fatalf("cleanLines(%q) = %q, want %q", s, got, want)
		}
		if got, want := squeeze([]byte(s), true), cleanLinesFields(s); got != want {
			t.Fatalf("squeeze of the bytes %q = %q, want %q", s, got, want)
		}
	}
}

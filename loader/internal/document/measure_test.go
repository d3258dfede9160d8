package document

import (
	"math/rand"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// measureRef is Measure as written before its ASCII fast path.
func measureRef(s string) Plausibility {
	var p Plausibility
	for _, w := range strings.Fields(s) {
		mixed := mixedScripts(w)
		for _, r := range w {
			switch {
			case r == utf8.RuneError:
				p.Replacement++
				continue
			case !IsRealChar(r):
				continue
			}
			p.Real++
			if unexpected(r) || mixed && unicode.IsLetter(r) {
				p.Unexpected++
			}
		}
	}
	return p
}

// TestMeasureMatchesReference: the ASCII fast path counts as the general
// rules do, on fixed cases and on random mixes of ASCII, controls,
// Cyrillic, Han, private-use and invalid bytes.
func TestMeasureMatchesReference(t *testing.T) {
	cases := []string{"", "plain ascii text, 42 words.", "дocтуп mixed", "a\x01b c\x7fd", "\ufffd\ufffd x", "日本語のテキストABC",
		"tab\tand\nnew\u00a0line\u2003em", "\ue000private use", "bad \xff\xfe bytes", "Ωmega µ π", "x\u200by"}
	pieces := []string{"a", "Z", "1", " ", "\t", "\x00", "\x1f", "\x7f", "д", "日", "\ue001", "\xff", "\u00a0", "é", "_", "\ufffd", "\n"}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 2000; i++ {
		var b strings.Builder
		for j := rng.Intn(30); j > 0; j-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		cases = append(cases, b.String())
	}
	for _, c := range cases {
		if got, want := Measure(c), measureRef(c); got != want {
			t.Fatalf("Measure(%q) = %+v, want %+v", c, got, want)
		}
	}
}

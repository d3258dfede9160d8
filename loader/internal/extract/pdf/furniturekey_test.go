package pdf

import (
	"regexp"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/strtest"
)

// TestFurnitureKeyIsTheRegexps: furnitureKey's one pass gives what the
// two regexp replacements it stands for gave, on every string of up to
// four pieces from an alphabet of digits, white space (\v and Unicode
// spaces among them, which \s does not take), letters in both cases,
// multi-byte letters and an invalid byte, and on 100,000 longer random
// ones.
func TestFurnitureKeyIsTheRegexps(t *testing.T) {
	digitsRe, spacesRe := regexp.MustCompile(`\d+`), regexp.MustCompile(`\s+`)
	alphabet := []string{"0", "42", " ", "\t", "\n", "\v", "\f", "\r", "\u00a0", "\u2003", "P", "a", "É", "٣", "\xa0", "\xc3", "-", "#"}
	check := func(s string) {
		t.Helper()
		w := strings.ToLower(strings.TrimSpace(s))
		w = spacesRe.ReplaceAllString(digitsRe.ReplaceAllString(w, "#"), " ")
		if got := furnitureKey(s); got != w {
			t.Fatalf("furnitureKey(%q) = %q, the regexps give %q", s, got, w)
		}
	}
	strtest.Strings(alphabet, 4, 100_000, 3, check)
	check("Page 3 of 10")
}

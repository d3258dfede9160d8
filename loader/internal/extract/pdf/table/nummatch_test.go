package table

import (
	"testing"

	"github.com/docket-dev/docket/loader/internal/strtest"
)

// TestNumMatchIsNumRe: numMatch answers as numRe.MatchString, on every
// string of up to four pieces from an alphabet of what numRe reads
// (signs, currencies, digits, separators, the spaces it takes and ones
// it does not, a letter, an invalid byte), on 200,000 longer random ones,
// and on values as cells hold them.
func TestNumMatchIsNumRe(t *testing.T) {
	alphabet := []string{"0", "7", ".", ",", "'", " ", "\u00a0", "\u202f", ")", "(", "%", "*", "-", "+", "−", "–", "$", "€", "£", "\t", "\v", "a", "\xa0", "\u2009"}
	check := func(s string) {
		t.Helper()
		if got, want := numMatch(s), numRe.MatchString(s); got != want {
			t.Fatalf("numMatch(%q) = %v, numRe says %v", s, got, want)
		}
	}
	strtest.Strings(alphabet, 4, 200_000, 1, check)
	for _, s := range []string{"1,234.56", "(1,234)", "-12.5%", "$ 761", "€12", "£3.50*", "12 %", "9 112", "1'000", "12.3)", ".5", "-,25%", "(.5)", "12 )", "1\u00a0000", "$", "12a", "12%%", "12**", "−4", "–4", "+4", "4 \t%*"} {
		check(s)
	}
}

// TestNoLeadersIsLeaderRe: noLeaders gives what
// leaderRe.ReplaceAllString(s, " ") gives, on every string of up to six
// pieces of an alphabet of points, ellipses, white space (\v and a
// Unicode space among it, which \s does not take), a letter, a digit, a
// broken ellipsis and an invalid byte, on 200,000 longer random ones, and
// on leaders as cells hold them.
func TestNoLeadersIsLeaderRe(t *testing.T) {
	alphabet := []string{".", "…", " ", "\t", "\v", "\u00a0", "a", "1", "\xe2\x80", "\xff"}
	check := func(s string) {
		t.Helper()
		if got, want := noLeaders(s), leaderRe.ReplaceAllString(s, " "); got != want {
			t.Fatalf("noLeaders(%q) = %q, leaderRe gives %q", s, got, want)
		}
	}
	strtest.Strings(alphabet, 6, 200_000, 5, check)
	for _, s := range []string{"Item ........ 12", "Item . . . . 12", "a .... b .... c", "1.2.3.4", "e.g. a.b. c.d.", "Total ……… 3", ". . . x . . . .", "  ....  "} {
		check(s)
	}
}

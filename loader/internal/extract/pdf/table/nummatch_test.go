package table

import (
	"testing"

	"github.com/docket-dev/docket/loader/internal/strtest"
)

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

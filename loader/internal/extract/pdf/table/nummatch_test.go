package table

import (
	"testing"

	"github.com/docket-dev/docket/loader/internal/extract/pdf/pdftest"
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
	pdftest.Strings(alphabet, 4, 200_000, 1, check)
	for _, s := range []string{"1,234.56", "(1,234)", "-12.5%", "$ 761", "€12", "£3.50*", "12 %", "9 112", "1'000", "12.3)", ".5", "-,25%", "(.5)", "12 )", "1\u00a0000", "$", "12a", "12%%", "12**", "−4", "–4", "+4", "4 \t%*"} {
		check(s)
	}
}

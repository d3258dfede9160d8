package pdf

import (
	"testing"

	"github.com/docket-dev/docket/loader/internal/strtest"
)

// TestIsNumberIsNumRe: IsNumber answers as numRe.MatchString, on every
// string of up to four pieces from an alphabet of what numRe reads
// (signs, currencies, digits, separators, the spaces it takes and ones
// it does not, a letter, an invalid byte), on 200,000 longer random ones,
// and on values as cells hold them.
func TestIsNumberIsNumRe(t *testing.T) {
	alphabet := []string{"0", "7", ".", ",", "'", " ", "\u00a0", "\u202f", ")", "(", "%", "*", "-", "+", "−", "–", "$", "€", "£", "\t", "\v", "a", "\xa0", "\u2009"}
	check := func(s string) {
		t.Helper()
		if got, want := IsNumber(s), numRe.MatchString(s); got != want {
			t.Fatalf("IsNumber(%q) = %v, numRe says %v", s, got, want)
		}
	}
	strtest.Strings(alphabet, 4, 200_000, 1, check)
	for _, s := range []string{"1,234.56", "(1,234)", "-12.5%", "$ 761", "€12", "£3.50*", "12 %", "9 112", "1'000", "12.3)", ".5", "-,25%", "(.5)", "12 )", "1\u00a0000", "$", "12a", "12%%", "12**", "−4", "–4", "+4", "4 \t%*"} {
		check(s)
	}
}

// TestNumericCellIsIsNumber: a line holds a number as a word of its own
// (numericCell, for a page number's neighbours) by IsNumber, the table
// package's definition, not a second regexp of its own: a minus sign
// (U+2212), grouping by apostrophes, a decimal fraction and a footnote
// asterisk are numbers there too (rowcell.go's numberRe took none of
// them), a word with letters is none. (numberRe also took a yen sign and
// a percent before a closing parenthesis, "¥12", "12%)", which IsNumber,
// as the table package, does not.)
func TestNumericCellIsIsNumber(t *testing.T) {
	for s, want := range map[string]bool{
		"Troon 27": true, "Rain −4": true, "1'250 homes": true, "rate .5": true, "Paid 12*": true, "(1,234)": true,
		"March": false, "Page one": false, "A4 sheets": false, "": false,
	} {
		if got := numericCell(s); got != want {
			t.Errorf("numericCell(%q) = %v, want %v", s, got, want)
		}
	}
}

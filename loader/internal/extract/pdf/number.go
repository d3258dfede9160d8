package pdf

import (
	"regexp"
	"unicode/utf8"
)

// numRe is what IsNumber reads (the definition; TestIsNumberIsNumRe).
var numRe = regexp.MustCompile(`^[-+−–(]?(?:[$€£]\s?)?\d[\d.,' \x{00A0}\x{202F}]*\)?\s*%?\*?$|^[-+−–(]?[.,]\d+\)?%?$`)

// IsNumber: s is a number as a table's cell or a page's margin holds it
// (numRe: a sign, a currency sign, digits with grouping by points,
// commas, apostrophes or spaces, a closing parenthesis, a percent, an
// asterisk; or a decimal fraction, ".5"). It is the one definition: the
// table package's numeric takes a cell's currency codes, footnote marks
// and margins of error off around it, and numericCell (page numbers
// beside a row's cells) asks it of each word.
//
// It is numRe.MatchString without the regexp engine: numeric runs
// on every cell the detector weighs, and numRe, which is not one-pass,
// went through the backtracker at ~4,500 instructions a call (1.2 % of
// the instructions of extracting the 149 corpus PDFs with tables,
// callgrind). numRe stays the definition; TestIsNumberIsNumRe compares
// both. Each step is forced (one way to go on at each rune), so one
// greedy pass decides as the regexp does: after the optional sign, a
// point or comma can only start the second form and a currency or digit
// only the first; the first form's run of digits and separators can
// give back only spaces, which its \s* would then have to take, and
// that leaves the same tail to match.
func IsNumber(s string) bool {
	i := 0
	if r, n := utf8.DecodeRuneInString(s); r == '-' || r == '+' || r == '−' || r == '–' || r == '(' {
		i = n
	}
	if i < len(s) && (s[i] == '.' || s[i] == ',') { // [.,]\d+\)?%?$
		j := i + 1
		for j < len(s) && '0' <= s[j] && s[j] <= '9' {
			j++
		}
		if j == i+1 {
			return false
		}
		if j < len(s) && s[j] == ')' {
			j++
		}
		if j < len(s) && s[j] == '%' {
			j++
		}
		return j == len(s)
	}
	if r, n := utf8.DecodeRuneInString(s[i:]); r == '$' || r == '€' || r == '£' { // (?:[$€£]\s?)?
		i += n
		if i < len(s) && RegexpSpace(s[i]) {
			i++
		}
	}
	if i >= len(s) || s[i] < '0' || s[i] > '9' { // \d
		return false
	}
	for i++; i < len(s); { // [\d.,' \x{00A0}\x{202F}]*
		r, n := utf8.DecodeRuneInString(s[i:])
		if !('0' <= r && r <= '9' || r == '.' || r == ',' || r == '\'' || r == ' ' || r == '\u00a0' || r == '\u202f') {
			break
		}
		i += n
	}
	if i < len(s) && s[i] == ')' {
		i++
	}
	for i < len(s) && RegexpSpace(s[i]) {
		i++
	}
	if i < len(s) && s[i] == '%' {
		i++
	}
	if i < len(s) && s[i] == '*' {
		i++
	}
	return i == len(s)
}

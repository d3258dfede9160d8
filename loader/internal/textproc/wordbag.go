package textproc

import (
	"strings"
	"unicode"
)

// WordBag counts the lower-cased words of s, a word being a run of letters
// and digits. It is the bag that WordAgreement compares.
func WordBag(s string) map[string]int {
	bag := map[string]int{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		bag[w]++
	}
	return bag
}

// WordAgreement is the weighted Jaccard of two word bags: the words both
// hold (each counted the fewer times) over the words either holds (the more
// times). Two empty bags agree (1); a bag and an empty one do not (0).
func WordAgreement(a, b map[string]int) float64 {
	num, den := 0, 0
	for w, n := range a {
		num += min(n, b[w])
		den += max(n, b[w])
	}
	for w, n := range b {
		if _, ok := a[w]; !ok {
			den += n
		}
	}
	if den == 0 {
		return 1
	}
	return float64(num) / float64(den)
}

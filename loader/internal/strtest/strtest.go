// Package strtest gives tests the inputs that compare a hand-written
// scanner with the definition it stands for (a regexp, strings.Fields).
package strtest

import (
	"math/rand/v2"
	"strings"
)

// Strings calls check with every string of up to upTo pieces of
// alphabet (the empty one included), then with random strings of 5 to 16
// pieces (seeded, so a failure repeats): the inputs of tests that compare
// a hand-written scanner with the definition it stands for.
func Strings(alphabet []string, upTo, random int, seed uint64, check func(string)) {
	var all func(prefix string, n int)
	all = func(prefix string, n int) {
		check(prefix)
		if n == 0 {
			return
		}
		for _, a := range alphabet {
			all(prefix+a, n-1)
		}
	}
	all("", upTo)
	r := rand.New(rand.NewPCG(seed, seed+1))
	var b strings.Builder
	for range random {
		b.Reset()
		for range 5 + r.IntN(12) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		check(b.String())
	}
}

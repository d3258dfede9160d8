package searchidx

import (
	"math/rand"
	"testing"
)

// TestTermRanges: the ranges follow each other over every term id, each
// holds at most max postings unless it is one term, and none could take
// the next term without passing max.
func TestTermRanges(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for trial := range 200 {
		df := make([]uint32, r.Intn(30))
		for i := range df {
			df[i] = uint32(1 + r.Intn(10))
		}
		max := int64(1 + r.Intn(25))
		got := termRanges(df, max)
		next := 0
		for i, g := range got {
			if g[0] != next || g[1] < g[0] {
				t.Fatalf("trial %d: ranges %v over %d terms", trial, got, len(df))
			}
			var sum int64
			for _, n := range df[g[0] : g[1]+1] {
				sum += int64(n)
			}
			if sum > max && g[1] > g[0] {
				t.Fatalf("trial %d: range %v holds %d postings, more than %d", trial, g, sum, max)
			}
			if i+1 < len(got) && sum+int64(df[g[1]+1]) <= max {
				t.Fatalf("trial %d: range %v could take term %d (%d + %d <= %d)", trial, g, g[1]+1, sum, df[g[1]+1], max)
			}
			next = g[1] + 1
		}
		if next != len(df) {
			t.Fatalf("trial %d: ranges %v end at %d of %d terms", trial, got, next, len(df))
		}
	}
}

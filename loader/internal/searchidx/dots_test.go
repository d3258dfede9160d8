package searchidx

import (
	"math/rand"
	"testing"
)

// TestApproxDotsBlocked: the blocked, four-dimensions-at-a-time sums over
// two workers equal the plain sums dimension by dimension (the same
// additions in the same order), across block and worker boundaries and
// for query dimensions not a multiple of four.
func TestApproxDotsBlocked(t *testing.T) {
	const v, d = 140_001, 16
	rng := rand.New(rand.NewSource(1))
	s := &segment{h: header{Vectors: v, Dims: d}, codes: make([]int8, v*d)}
	for i := range s.codes {
		s.codes[i] = int8(rng.Intn(255) - 127)
	}
	q := make([]float32, d)
	var nz []int
	for i := range q {
		if i%3 != 1 {
			q[i] = float32(rng.NormFloat64())
			nz = append(nz, i)
		}
	}
	got := s.approxDots(q, nz)
	for j := range v {
		var want float32
		for _, i := range nz {
			want += q[i] * float32(s.codes[i*v+j])
		}
		if got[j] != want {
			t.Fatalf("vector %d: %v, want %v", j, got[j], want)
		}
	}
}

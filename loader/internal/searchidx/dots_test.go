package searchidx

import (
	"math/rand"
	"testing"
)

// TestDotsBlocked: the blocked, four-dimensions-at-a-time sums (with the
// assembly kernels where there are some) equal the plain sums dimension by
// dimension bit for bit (the same additions in the same order), for block
// lengths that are not a multiple of the kernels' widths, codes at the
// int8 extremes and query dimensions not a multiple of four.
func TestDotsBlocked(t *testing.T) {
	const v, d = 20_011, 16
	rng := rand.New(rand.NewSource(1))
	s := &segment{h: header{Vectors: v, Dims: d}, codes: make([]int8, v*d)}
	for i := range s.codes {
		switch i % 97 {
		case 0:
			s.codes[i] = -128
		case 1:
			s.codes[i] = 127
		default:
			s.codes[i] = int8(rng.Intn(256) - 128)
		}
	}
	q := make([]float32, d)
	var nz []int
	for i := range q {
		if i%3 != 1 {
			q[i] = float32(rng.NormFloat64())
			nz = append(nz, i)
		}
	}
	t.Logf("AVX2 kernels: %v", useAVX2)
	for _, n := range []int{0, 1, 7, 8, 9, 31, 32, 33, 63, 64, 65, 1000, dotBlock} {
		for _, b0 := range []int{0, 3, v - n} {
			acc := make([]float32, n)
			for j := range acc {
				acc[j] = float32(rng.NormFloat64()) // sums already started
			}
			want := append([]float32(nil), acc...)
			s.dots(acc, q, nz, b0)
			for j := range want {
				for _, i := range nz {
					want[j] += float32(q[i] * float32(s.codes[i*v+b0+j]))
				}
				if acc[j] != want[j] {
					t.Fatalf("%d vectors from %d: vector %d: %v, want %v", n, b0, b0+j, acc[j], want[j])
				}
			}
		}
	}
}

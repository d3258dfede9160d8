package textproc

import (
	"fmt"
	"math"
	"math/bits"
	"strings"
	"testing"
)

func TestMulmod61(t *testing.T) {
	for _, c := range [][3]uint64{{1, 0, 0}, {mersenne61 - 1, math.MaxUint64, mersenne61 - 1}, {123456789, 987654321987654321, 42}, {mersenne61 - 2, 1 << 63, 7}} {
		a, x, b := c[0], c[1], c[2]
		// Reference: (a*(x mod p) + b) mod p with 128-bit arithmetic.
		hi, lo := bits.Mul64(a, x%mersenne61)
		_, rem := bits.Div64(hi, lo, mersenne61)
		want := (rem + b) % mersenne61
		if got := mulmod61(a, x, b); got != want {
			t.Fatalf("mulmod61(%d,%d,%d) = %d, want %d", a, x, b, got, want)
		}
	}
}

func TestShingleWords(t *testing.T) {
	got := ShingleWords("The ﬁrst, SECOND—and infor-\nmation’s end!")
	want := "the first second and information s end"
	if strings.Join(got, " ") != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestMinHashDeterministicAndEstimates(t *testing.T) {
	a := sampleText(1500)
	if fmt.Sprint(MinHash(a, 3, 64)) != fmt.Sprint(MinHash(a, 3, 64)) {
		t.Fatal("MinHash is not deterministic")
	}
	if got := len(MinHash(a, 3, 128)); got != 128 {
		t.Fatalf("len = %d", got)
	}
	if j := EstimateJaccard(MinHash(a, 3, 128), MinHash(strings.ToUpper(NormalizeText(a)), 3, 128)); j != 1 {
		t.Fatalf("case change should not matter, got %v", j)
	}
	// Known Jaccard: sets of 3-shingles over distinct tokens.
	var w1, w2 []string
	for i := range 400 {
		w1 = append(w1, fmt.Sprintf("w%d", i))
		w2 = append(w2, fmt.Sprintf("w%d", i+100)) // 300 of 400 shared -> shingles 298 of 398+100
	}
	s1, s2 := strings.Join(w1, " "), strings.Join(w2, " ")
	// shingles: 398 each, shared 298, union 498 -> 0.598
	j := EstimateJaccard(MinHash(s1, 3, 256), MinHash(s2, 3, 256))
	if math.Abs(j-298.0/498) > 0.1 {
		t.Fatalf("estimate %v far from %v", j, 298.0/498)
	}
	if j := EstimateJaccard(MinHash("short text", 5, 32), MinHash("short text", 5, 32)); j != 1 {
		t.Fatalf("short texts: %v", j)
	}
	if j := EstimateJaccard(MinHash("short text", 5, 32), MinHash("other words", 5, 32)); j > 0.2 {
		t.Fatalf("different short texts: %v", j)
	}
	if EstimateJaccard(nil, nil) != 0 {
		t.Fatal("empty signatures")
	}
}

func TestLSHBandKeys(t *testing.T) {
	sig := MinHash(sampleText(900), 3, 128)
	keys := LSHBandKeys(sig, 20)
	if len(keys) != 20 {
		t.Fatalf("got %d keys", len(keys))
	}
	seen := map[string]bool{}
	for i, k := range keys {
		if !strings.HasPrefix(k, fmt.Sprintf("%d:", i)) || seen[k] {
			t.Fatalf("key %d = %q", i, k)
		}
		seen[k] = true
	}
	// Same band values in different bands give different keys.
	same := make([]uint64, 8)
	k2 := LSHBandKeys(same, 2)
	if k2[0][2:] == k2[1][2:] {
		t.Fatalf("band index not mixed in: %q", k2)
	}
	if LSHBandKeys(sig, 0) == nil || len(LSHBandKeys(sig, 0)) != 0 {
		t.Fatal("zero bands should give no keys")
	}
}

func BenchmarkMinHash(b *testing.B) {
	s := sampleText(800)
	for b.Loop() {
		MinHash(s, 3, 128)
	}
}

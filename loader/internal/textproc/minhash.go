package textproc

import (
	"encoding/binary"
	"math/bits"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/zeebo/xxh3"
)

// MinHash signatures and LSH band keys.
//
// docket computes its own rather than use github.com/ekzhu/minhash-lsh: the
// curated models need the band keys themselves (a UDF returns them and SQL
// groups on them), while that library hides them inside an LSH-forest index
// that takes interface{} keys, wants every signature inserted before a
// query and keeps them all in its own structures; its signatures also come
// from a different hash family than the one the UDF would expose. Owning
// the few lines below keeps the Go path (NearDuplicates) and the SQL path
// (minhash + lsh_band_keys) bit-for-bit identical.

// mersenne61 is the prime 2^61-1 of the universal hash family
// h(x) = (a*x + b) mod p used for the permutations, as in datasketch.
const mersenne61 = 1<<61 - 1

// permSeed fixes the permutations: signatures are comparable across runs
// and machines. Changing it changes every stored signature.
const permSeed = 0x646f636b6574 // "docket"

type perm struct{ a, b uint64 }

var (
	permMu    sync.Mutex
	permCache = map[int][]perm{}
)

func perms(n int) []perm {
	permMu.Lock()
	defer permMu.Unlock()
	if p, ok := permCache[n]; ok {
		return p
	}
	p := make([]perm, n)
	state := uint64(permSeed)
	for i := range p {
		p[i].a = splitmix(&state)%(mersenne61-1) + 1
		p[i].b = splitmix(&state) % mersenne61
	}
	permCache[n] = p
	return p
}

func splitmix(s *uint64) uint64 {
	*s += 0x9e3779b97f4a7c15
	z := *s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// mulmod61 returns (a*x + b) mod 2^61-1 for a, b < p and any x < 2^64.
func mulmod61(a, x, b uint64) uint64 {
	x = (x & mersenne61) + (x >> 61) // x mod p, up to one extra p
	hi, lo := bits.Mul64(a, x)
	// a*x = hi*2^64 + lo = (hi<<3 | lo>>61)*2^61 + (lo & p)
	r := (lo & mersenne61) + (hi<<3 | lo>>61) + b
	r = (r & mersenne61) + (r >> 61)
	if r >= mersenne61 {
		r -= mersenne61
	}
	return r
}

// ShingleWords returns the words MinHash shingles: NormalizeText, lower
// case, split on everything that is not a letter, digit or mark.
func ShingleWords(text string) []string {
	return strings.FieldsFunc(strings.ToLower(NormalizeText(text)), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r)
	})
}

// shingleHashes returns the 64-bit hashes of the k-word shingles of text.
// A text with fewer than k words is one shingle; a text without words has
// none.
func shingleHashes(text string, k int, out []uint64) []uint64 {
	words := ShingleWords(text)
	if len(words) == 0 {
		return out[:0]
	}
	k = max(k, 1)
	out = out[:0]
	var buf []byte
	hash := func(ws []string) uint64 {
		buf = buf[:0]
		for i, w := range ws {
			if i > 0 {
				buf = append(buf, ' ')
			}
			buf = append(buf, w...)
		}
		return xxh3.Hash(buf)
	}
	if len(words) < k {
		return append(out, hash(words))
	}
	for i := 0; i+k <= len(words); i++ {
		out = append(out, hash(words[i:i+k]))
	}
	return out
}

// MinHash returns the numPerm-value MinHash signature of text's k-word
// shingles (see ShingleWords). The permutations are fixed, so signatures
// from any run compare. A text without words gets a signature of all
// math.MaxUint64, which matches other empty texts and nothing else.
func MinHash(text string, k, numPerm int) []uint64 {
	sig := make([]uint64, max(numPerm, 1))
	minHashInto(sig, shingleHashes(text, k, nil))
	return sig
}

func minHashInto(sig []uint64, shingles []uint64) {
	for i := range sig {
		sig[i] = ^uint64(0)
	}
	ps := perms(len(sig))
	ps = ps[:len(sig)]
	for _, h := range shingles {
		x := (h & mersenne61) + (h >> 61) // h mod p, up to one extra p: fine for mulmod61
		for i, p := range ps {
			if v := mulmod61(p.a, x, p.b); v < sig[i] {
				sig[i] = v
			}
		}
	}
}

// EstimateJaccard returns the share of positions where two signatures
// agree, an estimate of the Jaccard similarity of their shingle sets. It
// compares the common prefix when lengths differ and is 0 for empty input.
func EstimateJaccard(a, b []uint64) float64 {
	n := min(len(a), len(b))
	if n == 0 {
		return 0
	}
	eq := 0
	for i := range n {
		if a[i] == b[i] {
			eq++
		}
	}
	return float64(eq) / float64(n)
}

// LSHBandKeys cuts a signature into bands of len(sig)/bands rows (rows
// left over at the end are unused) and returns one key per band: the band
// index, a colon and a hex hash of the band's values, e.g. "7:1f3a…". Two
// signatures are LSH candidates when they share any key.
func LSHBandKeys(sig []uint64, bands int) []string {
	hs := lshBandHashes(sig, bands, nil)
	keys := make([]string, len(hs))
	for i, h := range hs {
		keys[i] = strconv.Itoa(i) + ":" + strconv.FormatUint(h, 16)
	}
	return keys
}

// lshBandHashes returns the band hashes (band index mixed in) of sig.
func lshBandHashes(sig []uint64, bands int, out []uint64) []uint64 {
	out = out[:0]
	if bands <= 0 || len(sig) < bands {
		return out
	}
	rows := len(sig) / bands
	buf := make([]byte, 8*(rows+1))
	for b := range bands {
		binary.LittleEndian.PutUint64(buf, uint64(b))
		for r, v := range sig[b*rows : (b+1)*rows] {
			binary.LittleEndian.PutUint64(buf[8*(r+1):], v)
		}
		out = append(out, xxh3.Hash(buf))
	}
	return out
}

package textproc

import (
	"runtime"
	"slices"
	"sync"
)

// Item is one text to deduplicate.
type Item struct {
	ID   string
	Text string
}

// Pair says that item ID is a near duplicate of item DuplicateOf, the
// earliest item (by input order) of its cluster. Similarity is the
// estimated Jaccard similarity between the two.
type Pair struct {
	ID          string
	DuplicateOf string
	Similarity  float64
}

// NearDupOptions tunes NearDuplicates. Zero fields take the defaults.
type NearDupOptions struct {
	K         int     // words per shingle
	NumPerm   int     // MinHash permutations
	Bands     int     // LSH bands; rows per band = NumPerm/Bands
	Threshold float64 // estimated Jaccard needed to confirm a candidate pair
	// MaxCompare caps, per item and LSH bucket, how many earlier items of
	// the bucket it is compared with (guards against huge buckets).
	MaxCompare int
}

// Defaults, chosen on the labelled set of loader/tools/eval-neardup: at
// threshold 0.8, 2-word shingles kept recall at 0.95-0.98 with precision 1.0,
// while 3-word shingles lost a sixth of the lightly edited copies (each
// substituted word changes k shingles). With
// 20 bands of 6 rows the LSH S-curve is at (1/20)^(1/6) ≈ 0.61: a pair with
// Jaccard 0.8 becomes a candidate with probability 0.998, one with 0.5 with
// probability 0.27, one with 0.3 with 0.015. The 8 permutations left over
// by the bands only sharpen the Jaccard estimate.
const (
	DefaultShingleK     = 2
	DefaultNumPerm      = 128
	DefaultBands        = 20
	DefaultNearDupThres = 0.8
	defaultMaxCompare   = 100
)

func (o NearDupOptions) withDefaults() NearDupOptions {
	if o.K <= 0 {
		o.K = DefaultShingleK
	}
	if o.NumPerm <= 0 {
		o.NumPerm = DefaultNumPerm
	}
	if o.Bands <= 0 || o.Bands > o.NumPerm {
		o.Bands = min(DefaultBands, o.NumPerm)
	}
	if o.Threshold <= 0 {
		o.Threshold = DefaultNearDupThres
	}
	if o.MaxCompare <= 0 {
		o.MaxCompare = defaultMaxCompare
	}
	return o
}

// NearDuplicates finds items whose texts are near duplicates: LSH band
// collisions of their MinHash signatures propose candidate pairs, a pair is
// confirmed when its estimated Jaccard similarity is at least the threshold,
// and confirmed pairs are joined into clusters (single linkage). Each item
// of a cluster but the earliest gets one Pair pointing at that earliest
// item; no item points at itself. Pairs come in input order. Items without
// words are ignored. Time and memory grow linearly with the number of items
// (about 4*NumPerm + 8*Bands bytes per item).
func NearDuplicates(items []Item, opts NearDupOptions) []Pair {
	o := opts.withDefaults()
	n := len(items)
	if n < 2 {
		return nil
	}
	np := o.NumPerm
	// Signatures are kept as the low 32 bits of each value: agreement of
	// two values is what counts, and a false agreement of the low halves
	// (1 in 2^32) does not move the estimate.
	sigs := make([]uint32, n*np)
	bandHashes := make([]uint64, n*o.Bands)
	hasWords := make([]bool, n)
	sigHash := make([]uint64, n)

	workers := max(runtime.GOMAXPROCS(0), 1)
	var wg sync.WaitGroup
	next := make(chan int, 64)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sig := make([]uint64, np)
			var sh, bh []uint64
			for i := range next {
				sh = shingleHashes(items[i].Text, o.K, sh)
				if len(sh) == 0 {
					continue
				}
				hasWords[i] = true
				minHashInto(sig, sh)
				for p, v := range sig {
					sigs[i*np+p] = uint32(v)
				}
				bh = lshBandHashes(sig, o.Bands, bh)
				copy(bandHashes[i*o.Bands:], bh)
				sigHash[i] = hashUint64s(sig)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()

	uf := newUnionFind(n)
	sim := func(i, j int) float64 {
		a, b := sigs[i*np:(i+1)*np], sigs[j*np:(j+1)*np]
		eq := 0
		for p := range a {
			if a[p] == b[p] {
				eq++
			}
		}
		return float64(eq) / float64(np)
	}

	// Identical signatures (exact and trivially edited copies) are joined
	// up front, and only the first of each takes part in LSH, so that many
	// copies of one text do not make one huge bucket.
	active := make([]bool, n)
	firstBySig := make(map[uint64]int32, n)
	for i := range n {
		if !hasWords[i] {
			continue
		}
		if f, ok := firstBySig[sigHash[i]]; ok && sim(int(f), i) == 1 {
			uf.union(int(f), i)
			continue
		}
		firstBySig[sigHash[i]] = int32(i)
		active[i] = true
	}
	firstBySig = nil

	head := make(map[uint64]int32, n)
	link := make([]int32, n)
	var heads, members []int32
	for b := range o.Bands {
		clear(head)
		heads = heads[:0]
		for i := n - 1; i >= 0; i-- {
			if !active[i] {
				continue
			}
			key := bandHashes[i*o.Bands+b]
			if h, ok := head[key]; ok {
				link[i] = h
			} else {
				link[i] = -1
			}
			head[key] = int32(i)
		}
		for _, h := range head {
			if link[h] >= 0 {
				heads = append(heads, h)
			}
		}
		slices.Sort(heads) // deterministic order of union operations
		for _, h := range heads {
			members = members[:0]
			for m := h; m >= 0; m = link[m] {
				members = append(members, m)
			}
			for x, j := range members[1:] {
				compared := 0
				for _, i := range members[:x+1] {
					if uf.find(int(i)) == uf.find(int(j)) {
						continue
					}
					if compared == o.MaxCompare {
						break
					}
					compared++
					if sim(int(i), int(j)) >= o.Threshold {
						uf.union(int(i), int(j))
					}
				}
			}
		}
	}

	var out []Pair
	for i := range n {
		if r := uf.find(i); r != i {
			out = append(out, Pair{ID: items[i].ID, DuplicateOf: items[r].ID, Similarity: sim(i, r)})
		}
	}
	return out
}

func hashUint64s(v []uint64) uint64 {
	h := uint64(1469598103934665603)
	for _, x := range v {
		h ^= x
		h *= 1099511628211
		h ^= h >> 29
	}
	return h
}

// unionFind keeps the smallest index of each set as its root, so the root
// is the earliest item of a cluster.
type unionFind struct{ parent []int32 }

func newUnionFind(n int) *unionFind {
	p := make([]int32, n)
	for i := range p {
		p[i] = int32(i)
	}
	return &unionFind{parent: p}
}

func (u *unionFind) find(i int) int {
	root := i
	for int(u.parent[root]) != root {
		root = int(u.parent[root])
	}
	for int(u.parent[i]) != root { // path compression
		i, u.parent[i] = int(u.parent[i]), int32(root)
	}
	return root
}

func (u *unionFind) union(i, j int) {
	a, b := u.find(i), u.find(j)
	switch {
	case a < b:
		u.parent[b] = int32(a)
	case b < a:
		u.parent[a] = int32(b)
	}
}

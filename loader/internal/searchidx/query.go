package searchidx

import (
	"container/heap"
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Scored is one ranked chunk: its key and score.
type Scored struct {
	Key   uint64
	Score float64
	ord   uint32
}

// QueryTerms are the distinct BM25 terms of query, as retrieval.bm25_scores
// makes them in SQL (regexp_extract_all(lower(nfc_normalize(q)),
// '[\p{L}\p{N}\p{M}]+')). ok is false for a query with non-ASCII
// characters: Unicode lower-casing and classes are DuckDB's there, and the
// SQL path answers such a query.
func QueryTerms(query string) (terms []string, ok bool) {
	for i := 0; i < len(query); i++ {
		if query[i] >= utf8.RuneSelf {
			return nil, false
		}
	}
	seen := map[string]bool{}
	start := -1
	b := []byte(query)
	for i := 0; i <= len(b); i++ {
		word := false
		if i < len(b) {
			c := b[i]
			if 'A' <= c && c <= 'Z' {
				b[i] = c + ('a' - 'A')
				c = b[i]
			}
			word = ('a' <= c && c <= 'z') || ('0' <= c && c <= '9')
		}
		if word && start < 0 {
			start = i
		} else if !word && start >= 0 {
			t := string(b[start:i])
			if !seen[t] {
				seen[t] = true
				terms = append(terms, t)
			}
			start = -1
		}
	}
	return terms, true
}

// BM25 ranks chunks for query the way retrieval.bm25_scores(query, k) does:
// the top k by score, ties by chunk_key. ok is false when the index cannot
// answer exactly (see QueryTerms); the caller then asks SQL.
func (x *Index) BM25(query string, k int) (hits []Scored, ok bool) {
	terms, ok := QueryTerms(query)
	if !ok {
		return nil, false
	}
	n := x.chunks
	if n == 0 || k < 1 {
		return nil, true
	}
	h := &x.base.h
	avg := float64(x.sumDocLength) / float64(n)
	k1p1 := decimalSum(h.K1, "1")
	omb := decimalDiff("1", h.B)
	bNum, bScale := decimalParts(h.B)
	k1 := x.k1
	// b × doc_length is a DECIMAL product in SQL (exact), converted to
	// DOUBLE before dividing by the mean length.
	bdl := func(dl uint32) float64 {
		if bNum >= 0 {
			return float64(bNum*int64(dl)) / bScale
		}
		return x.b * float64(dl)
	}
	total := int(x.nb)
	if x.delta != nil {
		total += x.delta.h.Chunks
	}
	scores := make([]float64, total)
	var touched []uint32
	// add scores the postings p of one segment, whose ordinals start at
	// first; retracted base chunks are skipped.
	add := func(p []byte, first uint32, idf float64) bool {
		ord := uint32(0)
		for i := 0; len(p) > 0; i++ {
			d, m := binary.Uvarint(p)
			p = p[m:]
			tfu, m2 := binary.Uvarint(p)
			p = p[m2:]
			if m <= 0 || m2 <= 0 {
				return false
			}
			ord += uint32(d)
			o := first + ord
			if x.dead(o) {
				continue
			}
			tf := float64(tfu)
			w := idf * tf * k1p1 / (tf + k1*(omb+bdl(x.docLen(o))/avg))
			if scores[o] == 0 {
				touched = append(touched, o)
			}
			scores[o] += w
		}
		return true
	}
	for _, t := range terms {
		ib, id := x.base.term(t), -1
		if x.delta != nil {
			id = x.delta.term(t)
		}
		var df int64
		if ib >= 0 {
			df += int64(x.base.df[ib]) - int64(x.removed(ib))
		}
		if id >= 0 {
			df += int64(x.delta.df[id])
		}
		if df <= 0 {
			continue
		}
		idf := math.Log(1 + (float64(int64(n)-df)+0.5)/(float64(df)+0.5))
		if ib >= 0 && !add(x.base.postings[x.base.postOff[ib]:x.base.postOff[ib+1]], 0, idf) {
			return nil, false
		}
		if id >= 0 && !add(x.delta.postings[x.delta.postOff[id]:x.delta.postOff[id+1]], x.nb, idf) {
			return nil, false
		}
	}
	return x.top(touched, k, func(o uint32) float64 { return scores[o] }), true
}

// decimalParts returns a decimal literal as an integer and the power of
// ten it is scaled by, or num -1 when it does not fit.
func decimalParts(s string) (num int64, scale float64) {
	var n int64
	var sc float64 = 1
	frac := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '.' && !frac:
			frac = true
		case '0' <= c && c <= '9':
			if n > (1<<40)/10 {
				return -1, 0
			}
			n = n*10 + int64(c-'0')
			if frac {
				sc *= 10
			}
		default:
			return -1, 0
		}
	}
	return n, sc
}

// scoredHeap is a min-heap on (score, then larger key first): its root is
// the worst of the best k.
type scoredHeap []Scored

func (h scoredHeap) Len() int { return len(h) }
func (h scoredHeap) Less(i, j int) bool {
	if h[i].Score != h[j].Score {
		return h[i].Score < h[j].Score
	}
	return h[i].Key > h[j].Key
}
func (h scoredHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *scoredHeap) Push(v any)   { *h = append(*h, v.(Scored)) }
func (h *scoredHeap) Pop() any {
	old := *h
	v := old[len(old)-1]
	*h = old[:len(old)-1]
	return v
}

// better orders by score descending, then chunk_key ascending.
func better(a, b Scored) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return a.Key < b.Key
}

// top returns the best k of ords by score, ties by key.
func (x *Index) top(ords []uint32, k int, score func(uint32) float64) []Scored {
	h := make(scoredHeap, 0, k+1)
	for _, o := range ords {
		s := Scored{Score: score(o), ord: o, Key: x.key(o)}
		if len(h) < k {
			heap.Push(&h, s)
		} else if better(s, h[0]) {
			h[0] = s
			heap.Fix(&h, 0)
		}
	}
	out := []Scored(h)
	sort.Slice(out, func(i, j int) bool { return better(out[i], out[j]) })
	return out
}

// Vector ranks chunks by the cosine similarity of their vector with q (of
// the index's model), as the SQL path does with array_cosine_distance: the
// top k by distance, ties by chunk_key; Score is 1 - distance. ok is false
// when the index cannot answer (no vectors of that length, or a zero query
// vector, whose distances are undefined).
func (x *Index) Vector(q []float32, k int) (hits []Scored, ok bool) {
	d := x.dims
	if x.base.h.Model == "" || len(q) != d || d == 0 {
		return nil, false
	}
	var qn2 float64
	var nz []int
	var sumAbs float64
	for i, f := range q {
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			return nil, false
		}
		if f != 0 {
			nz = append(nz, i)
			qn2 += float64(f) * float64(f)
			sumAbs += math.Abs(float64(f))
		}
	}
	if qn2 == 0 {
		return nil, false
	}
	if k < 1 {
		return nil, true
	}
	qn := math.Sqrt(qn2)
	// Each code is within half a scale step of its value; the float32 sums
	// add at most nz × 2^-23 relative per term. eps covers the difference
	// between DuckDB's float32 cosine and the exact one.
	errPerScale := sumAbs * (0.5 + 127*float64(len(nz))*0x1p-23)
	const eps = 1e-4
	type vseg struct {
		s     *segment
		acc   []float32
		first uint32   // ordinal of the segment's first chunk
		dead  []uint64 // vectors with no live chunk (base with a delta)
	}
	segs := []vseg{{s: x.base}}
	if x.delta != nil {
		segs[0].dead = x.delta.deadVec
		segs = append(segs, vseg{s: x.delta, first: x.nb})
	}
	for i := range segs {
		segs[i].acc = segs[i].s.approxDots(q, nz)
	}
	deadVec := func(g *vseg, j int) bool { return g.dead != nil && g.dead[j>>6]&(1<<(j&63)) != 0 }
	bound := func(g *vseg, j int) (lo, hi float64) {
		s := float64(g.s.scales[j])
		den := qn * g.s.norms[j]
		a := s * float64(g.acc[j])
		e := s * errPerScale
		return (a-e)/den - eps, (a+e)/den + eps
	}
	// The k best lower bounds: each live vector is at least one live
	// chunk, so the k-th best chunk's similarity is at least the k-th best
	// lower bound.
	lows := make(minFloats, 0, k+1)
	for gi := range segs {
		g := &segs[gi]
		for j := range g.acc {
			if deadVec(g, j) {
				continue
			}
			lo, _ := bound(g, j)
			if len(lows) < k {
				heap.Push(&lows, lo)
			} else if lo > lows[0] {
				lows[0] = lo
				heap.Fix(&lows, 0)
			}
		}
	}
	tau := math.Inf(-1)
	if len(lows) == k {
		tau = lows[0]
	}
	type cand struct {
		dist float32
		ord  uint32
		key  uint64
	}
	var cands []cand
	for gi := range segs {
		g := &segs[gi]
		for j := range g.acc {
			if _, hi := bound(g, j); hi < tau || deadVec(g, j) {
				continue
			}
			dist := cosineDistance(g.s.vec32[j*d:(j+1)*d], q)
			for _, o := range g.s.vecCh[g.s.vecChOff[j]:g.s.vecChOff[j+1]] {
				o += g.first
				if !x.dead(o) {
					cands = append(cands, cand{dist, o, x.key(o)})
				}
			}
		}
	}
	slices.SortFunc(cands, func(a, b cand) int {
		switch {
		case a.dist < b.dist:
			return -1
		case a.dist > b.dist:
			return 1
		case a.key < b.key:
			return -1
		case a.key > b.key:
			return 1
		}
		return 0
	})
	if len(cands) > k {
		cands = cands[:k]
	}
	out := make([]Scored, len(cands))
	for i, c := range cands {
		out[i] = Scored{Key: c.key, Score: float32Score(float32(1) - c.dist), ord: c.ord}
	}
	return out, true
}

// approxDots are the dot products of q with the segment's vectors from
// their int8 codes, dimension by dimension (only q's non-zero dimensions
// nz), split over cores; a vector's is scaled by its scale. The vectors
// go in blocks whose sums stay in the CPU cache while four dimensions at
// a time are added (in nz order, as one dimension at a time would).
func (s *segment) approxDots(q []float32, nz []int) []float32 {
	v := s.h.Vectors
	acc := make([]float32, v)
	workers := max(1, min(runtime.GOMAXPROCS(0), v/65536))
	var wg sync.WaitGroup
	step := (v + workers - 1) / workers
	const block = 4096
	for w := range workers {
		from, to := w*step, min((w+1)*step, v)
		wg.Go(func() {
			for b0 := from; b0 < to; b0 += block {
				b1 := min(b0+block, to)
				a := acc[b0:b1]
				col := func(i int) []int8 { return s.codes[i*v+b0 : i*v+b1][:len(a)] }
				k := 0
				for ; k+4 <= len(nz); k += 4 {
					q0, q1, q2, q3 := q[nz[k]], q[nz[k+1]], q[nz[k+2]], q[nz[k+3]]
					c0, c1, c2, c3 := col(nz[k]), col(nz[k+1]), col(nz[k+2]), col(nz[k+3])
					c1, c2, c3 = c1[:len(c0)], c2[:len(c0)], c3[:len(c0)]
					for j, c := range c0 {
						t := a[j]
						t += q0 * float32(c)
						t += q1 * float32(c1[j])
						t += q2 * float32(c2[j])
						t += q3 * float32(c3[j])
						a[j] = t
					}
				}
				for ; k < len(nz); k++ {
					qi := q[nz[k]]
					for j, c := range col(nz[k]) {
						a[j] += qi * float32(c)
					}
				}
			}
		})
	}
	wg.Wait()
	return acc
}

// float32Score is a FLOAT score as database/sql hands it to a float64: by
// its shortest decimal form (so both paths print the same number).
func float32Score(f float32) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(float64(f), 'g', -1, 32), 64)
	return v
}

// cosineDistance is DuckDB's array_cosine_distance on FLOAT arrays:
// float32 sums in order, 1 - dot / sqrt(|a|² |b|²), the similarity clamped
// to [-1, 1].
func cosineDistance(a, b []float32) float32 {
	b = b[:len(a)]
	var dot, na, nb float32
	for i, x := range a {
		y := b[i]
		dot += x * y
		na += x * x
		nb += y * y
	}
	sim := dot / float32(math.Sqrt(float64(na*nb)))
	sim = max(-1, min(1, sim))
	return 1 - sim
}

type minFloats []float64

func (h minFloats) Len() int           { return len(h) }
func (h minFloats) Less(i, j int) bool { return h[i] < h[j] }
func (h minFloats) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *minFloats) Push(v any)        { *h = append(*h, v.(float64)) }
func (h *minFloats) Pop() any {
	old := *h
	v := old[len(old)-1]
	*h = old[:len(old)-1]
	return v
}

// Cite is what cites one chunk.
type Cite struct {
	ChunkID, DocID, Path, URI, Title string
	DisplayPath                      string
	Page, CharOffset, CharEnd        int
	Section, Text                    string
}

func appendString(b []byte, s string) []byte {
	b = appendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func encodeCite(b []byte, c *Cite) []byte {
	for _, s := range []string{c.ChunkID, c.DocID, c.Path, c.URI, c.Title, c.DisplayPath} {
		b = appendString(b, s)
	}
	for _, n := range []int{c.Page, c.CharOffset, c.CharEnd} {
		b = binary.AppendVarint(b, int64(n))
	}
	b = appendString(b, c.Section)
	return appendString(b, c.Text)
}

// Cite returns the citation of the chunk with key, ok false when the index
// has no such chunk.
func (x *Index) Cite(key uint64) (Cite, bool, error) {
	if x.delta != nil {
		if o, ok := slices.BinarySearch(x.delta.keys, key); ok {
			return x.delta.cite(o, key)
		}
	}
	o, ok := slices.BinarySearch(x.base.keys, key)
	if !ok || x.dead(uint32(o)) {
		return Cite{}, false, nil
	}
	return x.base.cite(o, key)
}

func (s *segment) cite(o int, key uint64) (Cite, bool, error) {
	p := s.cites[s.citeOff[o]:s.citeOff[o+1]]
	bad := fmt.Errorf("search index: citation record of chunk_key %d is damaged", key)
	str := func() (string, bool) {
		n, m := binary.Uvarint(p)
		if m <= 0 || uint64(len(p)-m) < n {
			return "", false
		}
		s := string(p[m : m+int(n)])
		p = p[m+int(n):]
		return s, true
	}
	num := func() (int, bool) {
		n, m := binary.Varint(p)
		if m <= 0 {
			return 0, false
		}
		p = p[m:]
		return int(n), true
	}
	var c Cite
	ok := true
	for _, s := range []*string{&c.ChunkID, &c.DocID, &c.Path, &c.URI, &c.Title, &c.DisplayPath} {
		if ok {
			*s, ok = str()
		}
	}
	for _, n := range []*int{&c.Page, &c.CharOffset, &c.CharEnd} {
		if ok {
			*n, ok = num()
		}
	}
	for _, s := range []*string{&c.Section, &c.Text} {
		if ok {
			*s, ok = str()
		}
	}
	if !ok {
		return Cite{}, false, bad
	}
	return c, true, nil
}

// ProbeQueries are up to n queries made of the first words of chunks
// spread over the index (the last one from the delta, when there is one),
// for checking it against SQL.
func (x *Index) ProbeQueries(n int) []string {
	var out []string
	var keys []uint64
	for i := 0; i < n && x.nb > 0; i++ {
		keys = append(keys, x.base.keys[(i*int(x.nb))/n])
	}
	if x.delta != nil && x.delta.h.Chunks > 0 && n > 0 {
		keys = append(keys[:min(len(keys), n-1)], x.delta.keys[x.delta.h.Chunks/2])
	}
	for _, key := range keys {
		c, ok, err := x.Cite(key)
		if !ok || err != nil {
			continue
		}
		terms, _ := QueryTerms(strings.Map(func(r rune) rune {
			if r >= utf8.RuneSelf {
				return ' '
			}
			return r
		}, c.Text))
		if len(terms) > 4 {
			terms = terms[:4]
		}
		if len(terms) > 0 {
			out = append(out, strings.Join(terms, " "))
		}
	}
	return out
}

// ProbeVectors are up to n stored vectors spread over the index (the last
// one from the delta, when it has vectors).
func (x *Index) ProbeVectors(n int) [][]float32 {
	var out [][]float32
	d := x.dims
	b := x.base
	for i := 0; i < n && b.h.Vectors > 0; i++ {
		j := (i * b.h.Vectors) / n
		out = append(out, slices.Clone(b.vec32[j*d:(j+1)*d]))
	}
	if x.delta != nil && x.delta.h.Vectors > 0 && n > 0 {
		j := x.delta.h.Vectors / 2
		out = append(out[:min(len(out), n-1)], slices.Clone(x.delta.vec32[j*d:(j+1)*d]))
	}
	return out
}

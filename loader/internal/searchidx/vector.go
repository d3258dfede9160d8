package searchidx

import (
	"unsafe"

	"container/heap"
	"math"
	"runtime"
	"slices"
	"sync"
)

// Vector ranks chunks by the cosine similarity of their vector with q (of
// the index's model), as the SQL path does with array_cosine_distance: the
// top k by distance, ties by chunk_key; Score is 1 - distance. ok is false
// when the index cannot answer (no vectors of that length, or a zero query
// vector, whose distances are undefined).
//
// One pass over the int8 codes (in blocks that stay in the CPU cache,
// split over cores) gives every live vector a lower and an upper bound of
// its similarity; a vector whose upper bound is below the k-th best lower
// bound seen so far cannot be among the top k. The few others are scored
// with their full vectors.
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
	b := boundPass{q: q, nz: nz, k: k, qn: math.Sqrt(qn2),
		// Each code is within half a scale step of its value; the
		// float32 sums add at most nz × 2^-23 relative per term.
		errPerScale: sumAbs * (0.5 + 127*float64(len(nz))*0x1p-23)}
	var parts []*boundPart
	parts = append(parts, b.run(x.base, 0, x.deadVecs())...)
	if x.delta != nil {
		parts = append(parts, b.run(x.delta, x.nb, nil)...)
	}
	// The k best lower bounds: each live vector is at least one live
	// chunk, so the k-th best chunk's similarity is at least the k-th best
	// lower bound.
	var lows []float64
	for _, p := range parts {
		lows = append(lows, p.lows...)
	}
	tau := math.Inf(-1)
	if len(lows) >= k {
		slices.Sort(lows)
		tau = lows[len(lows)-k]
	}
	type cand struct {
		dist float32
		ord  uint32
		key  uint64
	}
	var cands []cand
	row := make([]float32, d)
	for _, p := range parts {
		g := p.seg
		for _, c := range p.cands {
			if c.hi < tau {
				continue
			}
			j := int(c.j)
			from, to := g.vecChOff[j], g.vecChOff[j+1]
			if from > to || int(to) > len(g.vecCh) {
				return nil, false // damaged: SQL answers
			}
			dist := cosineDistance(g.vecRow(j, row), q)
			for _, o := range g.vecCh[from:to] {
				if int(o) >= g.h.Chunks {
					return nil, false
				}
				o += p.first
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

// vecRow returns the full values of vector j, read from the file (one
// pread into buf) when the segment is mapped: the few rows a search scores
// lie anywhere in the vectors section, and a fresh process would fault
// in (and map around) a page of the mapping for each.
func (s *segment) vecRow(j int, buf []float32) []float32 {
	d := s.h.Dims
	if s.keep != nil && mapped && d > 0 {
		off := s.h.Sections[secVec32][0] + int64(j)*int64(d)*4
		if _, err := s.keep.ReadAt(unsafe.Slice((*byte)(unsafe.Pointer(&buf[0])), d*4), off); err == nil {
			return buf[:d]
		}
	}
	return s.vec32[j*d : (j+1)*d]
}

// deadVecs is the bitmap of base vectors with no live chunk (nil without a
// delta).
func (x *Index) deadVecs() []uint64 {
	if x.delta == nil {
		return nil
	}
	return x.delta.deadVec
}

// boundPass bounds the similarity of q with a segment's vectors.
type boundPass struct {
	q               []float32
	nz              []int // q's non-zero dimensions
	k               int
	qn, errPerScale float64
}

// boundPart is what one worker kept of its share of a segment's vectors:
// its k best lower bounds, and the vectors whose upper bound reached its
// k-th best lower bound when they were seen (a superset of those that
// reach the final one).
type boundPart struct {
	seg   *segment
	first uint32 // ordinal of the segment's first chunk
	lows  minFloats
	cands []boundCand
}

type boundCand struct {
	j  int32 // vector
	hi float64
}

// eps covers the difference between DuckDB's float32 cosine and the exact
// one.
const eps = 1e-4

// dotBlock is how many vectors' sums are kept while the query's dimensions
// are added: 64 KiB of float32, in the CPU's L2 cache.
const dotBlock = 16384

// run bounds the live vectors of s (dead: a bitmap of vectors to skip),
// split over cores.
func (b *boundPass) run(s *segment, first uint32, dead []uint64) []*boundPart {
	v := s.h.Vectors
	if v == 0 {
		return nil
	}
	workers := max(1, min(runtime.GOMAXPROCS(0), v/65536))
	step := (v + workers - 1) / workers
	step = (step + dotBlock - 1) / dotBlock * dotBlock
	parts := make([]*boundPart, 0, workers)
	var wg sync.WaitGroup
	for from := 0; from < v; from += step {
		p := &boundPart{seg: s, first: first, lows: make(minFloats, 0, b.k+1)}
		parts = append(parts, p)
		to := min(from+step, v)
		wg.Go(func() { b.bound(p, dead, from, to) })
	}
	wg.Wait()
	return parts
}

func (b *boundPass) bound(p *boundPart, dead []uint64, from, to int) {
	s := p.seg
	acc := make([]float32, dotBlock)
	lows := &p.lows
	floor := math.Inf(-1) // the k-th best lower bound so far
	var cols colReader
	if s.keep != nil && mapped {
		cols = colReader{s: s, buf: make([]int8, len(b.nz)*dotBlock),
			scales: make([]float32, dotBlock), norms: make([]float64, dotBlock)}
	}
	for b0 := from; b0 < to; b0 += dotBlock {
		acc := acc[:min(dotBlock, to-b0)]
		clear(acc)
		scales, norms := s.scales[b0:b0+len(acc)], s.norms[b0:b0+len(acc)]
		if !cols.read(b.nz, b0, len(acc)) {
			s.dots(acc, b.q, b.nz, b0)
		} else {
			dots(acc, b.q, b.nz, func(k int) []int8 { return cols.buf[k*dotBlock : k*dotBlock+len(acc)] })
			scales, norms = cols.scales[:len(acc)], cols.norms[:len(acc)]
		}
		for i, a := range acc {
			j := b0 + i
			sc := float64(scales[i])
			den := b.qn * norms[i]
			e := sc * b.errPerScale
			// hi < floor, without a division: the upper bound's
			// numerator against (floor - eps) × den, with a margin far
			// above the rounding of either side.
			num, lim := sc*float64(a)+e, (floor-eps)*den
			if num < lim-1e-9*math.Abs(lim) || (dead != nil && dead[j>>6]&(1<<(j&63)) != 0) {
				continue
			}
			inv := 1 / den
			hi := num*inv + eps
			lo := (sc*float64(a)-e)*inv - eps
			if len(*lows) < b.k {
				heap.Push(lows, lo)
				if len(*lows) == b.k {
					floor = (*lows)[0]
				}
			} else if lo > (*lows)[0] {
				(*lows)[0] = lo
				heap.Fix(lows, 0)
				floor = (*lows)[0]
			}
			p.cands = append(p.cands, boundCand{int32(j), hi})
		}
	}
}

// colReader reads the int8 codes of a block of vectors in the query's
// dimensions from the file into buf (one pread per dimension) instead of
// through the mapping: a fresh process pays for every page it maps in (a
// fault, and on virtual machines with shadow page tables a costly first
// touch), while a pread copies from the page cache into a buffer that is
// mapped in once. At 1.15M vectors and 57 query dimensions that is 65 MB
// a search; measured here 37-57 ms of CPU read, 64-95 ms mapped.
type colReader struct {
	s      *segment
	buf    []int8
	scales []float32
	norms  []float64
}

// read reads the codes of vectors b0 … b0+n-1 in dimensions nz, and
// their scales and norms; false when it cannot (the caller reads the
// mapping).
func (c *colReader) read(nz []int, b0, n int) bool {
	if c.s == nil {
		return false
	}
	f := c.s.keep
	if _, err := f.ReadAt(unsafe.Slice((*byte)(unsafe.Pointer(&c.scales[0])), 4*n), c.s.h.Sections[secVecScale][0]+4*int64(b0)); err != nil {
		return false
	}
	if _, err := f.ReadAt(unsafe.Slice((*byte)(unsafe.Pointer(&c.norms[0])), 8*n), c.s.h.Sections[secVecNorm][0]+8*int64(b0)); err != nil {
		return false
	}
	v := int64(c.s.h.Vectors)
	off := c.s.h.Sections[secVecCodes][0]
	for k, i := range nz {
		b := unsafe.Slice((*byte)(unsafe.Pointer(&c.buf[k*dotBlock])), n)
		if _, err := f.ReadAt(b, off+int64(i)*v+int64(b0)); err != nil {
			return false
		}
	}
	return true
}

// dots adds to acc the dot products of q with the int8 codes of vectors
// b0 … b0+len(acc)-1 of s.
func (s *segment) dots(acc []float32, q []float32, nz []int, b0 int) {
	v := s.h.Vectors
	dots(acc, q, nz, func(k int) []int8 { i := nz[k]; return s.codes[i*v+b0 : i*v+b0+len(acc)] })
}

// dots adds to acc the dot products of q with the codes col(k) of
// dimension nz[k] (len(acc) long), dimension by dimension in nz order
// (four dimensions at a time: one pass over acc per four).
func dots(acc []float32, q []float32, nz []int, col func(k int) []int8) {
	k := 0
	for ; k+4 <= len(nz); k += 4 {
		addCodes4(acc, col(k), col(k+1), col(k+2), col(k+3), q[nz[k]], q[nz[k+1]], q[nz[k+2]], q[nz[k+3]])
	}
	for ; k < len(nz); k++ {
		addCodes1(acc, col(k), q[nz[k]])
	}
}

// addCodes4Go is acc[j] += q0·c0[j] + q1·c1[j] + q2·c2[j] + q3·c3[j],
// added left to right in float32, each product rounded (the conversions
// keep the compiler from fusing a multiply-add): the order and rounding
// of one dimension at a time.
func addCodes4Go(acc []float32, c0, c1, c2, c3 []int8, q0, q1, q2, q3 float32) {
	c0, c1, c2, c3 = c0[:len(acc)], c1[:len(acc)], c2[:len(acc)], c3[:len(acc)]
	for j, c := range c0 {
		t := acc[j]
		t += float32(q0 * float32(c))
		t += float32(q1 * float32(c1[j]))
		t += float32(q2 * float32(c2[j]))
		t += float32(q3 * float32(c3[j]))
		acc[j] = t
	}
}

// addCodes1Go is acc[j] += q0·c0[j].
func addCodes1Go(acc []float32, c0 []int8, q0 float32) {
	c0 = c0[:len(acc)]
	for j, c := range c0 {
		acc[j] += float32(q0 * float32(c))
	}
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

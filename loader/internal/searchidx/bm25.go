package searchidx

import (
	"encoding/binary"
	"math"
)

// BM25 ranks chunks for query the way retrieval.bm25_scores(query, k) does:
// the top k by score, ties by chunk_key. ok is false when the index cannot
// answer exactly (see QueryTerms); the caller then asks SQL.
//
// The query terms' postings lists (each in ordinal order, the base's then
// the delta's) are merged: every chunk's score is complete when the merge
// passes its ordinal, and only the best k are kept, so a query costs its
// postings and no array over every chunk. A chunk's term weights are added
// in query-term order.
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
	w := bm25Weight{x: x, avg: float64(x.sumDocLength) / float64(n), k1: x.k1,
		k1p1: decimalSum(h.K1, "1"), omb: decimalDiff("1", h.B)}
	w.bNum, w.bScale = decimalParts(h.B)
	var cur []postCursor
	for ti, t := range terms {
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
		c := postCursor{ti: ti, idf: math.Log(1 + (float64(int64(n)-df)+0.5)/(float64(df)+0.5))}
		if ib >= 0 {
			c.p = x.base.postings[x.base.postOff[ib]:x.base.postOff[ib+1]]
		}
		if id >= 0 {
			c.next, c.nextFirst = x.delta.postings[x.delta.postOff[id]:x.delta.postOff[id+1]], x.nb
			if ib < 0 {
				c.p, c.next, c.first = c.next, nil, x.nb
			}
		}
		switch more, good := c.advance(x); {
		case !good:
			return nil, false
		case more:
			cur = append(cur, c)
		}
	}
	// A heap of the cursors by (ordinal, query term): equal ordinals come
	// out in query-term order.
	m := make(cursorHeap, len(cur))
	for i := range cur {
		m[i] = &cur[i]
	}
	m.init()
	top := topK{x: x, k: k}
	for len(m) > 0 {
		o := m[0].o
		score := 0.0
		for len(m) > 0 && m[0].o == o {
			c := m[0]
			score += w.of(c.tf, c.idf, o)
			more, good := c.advance(x)
			if !good {
				return nil, false
			}
			if more {
				m.down(0)
			} else {
				m.pop()
			}
		}
		if len(top.h) < k || score >= top.h[0].Score {
			top.offer(o, score)
		}
	}
	return top.best(), true
}

// bm25Weight is retrieval.bm25_weight's formula with the index's
// parameters and corpus figures.
type bm25Weight struct {
	x                  *Index
	avg, k1, k1p1, omb float64
	bNum               int64
	bScale             float64
}

func (w *bm25Weight) of(tf, idf float64, o uint32) float64 {
	dl := w.x.docLen(o)
	// b × doc_length is a DECIMAL product in SQL (exact), converted to
	// DOUBLE before dividing by the mean length.
	var bdl float64
	if w.bNum >= 0 {
		bdl = float64(w.bNum*int64(dl)) / w.bScale
	} else {
		bdl = w.x.b * float64(dl)
	}
	return idf * tf * w.k1p1 / (tf + w.k1*(w.omb+bdl/w.avg))
}

// postCursor walks one query term's postings: the base segment's, then
// the delta's (whose ordinals follow the base's), skipping retracted base
// chunks.
type postCursor struct {
	p, next          []byte
	first, nextFirst uint32 // ordinal of the first chunk of p's / next's segment
	rel              uint32 // the last ordinal decoded in p's segment
	o                uint32 // the current posting's ordinal
	tf, idf          float64
	ti               int // the term's place in the query
}

// advance moves to the next live posting: more is false at the end, good
// false when the postings are damaged.
func (c *postCursor) advance(x *Index) (more, good bool) {
	for {
		if len(c.p) == 0 {
			if c.next == nil {
				return false, true
			}
			c.p, c.next, c.first, c.rel = c.next, nil, c.nextFirst, 0
			continue
		}
		d, m := binary.Uvarint(c.p)
		if m <= 0 || m >= len(c.p) {
			return false, false
		}
		tf, m2 := binary.Uvarint(c.p[m:])
		if m2 <= 0 {
			return false, false
		}
		c.p = c.p[m+m2:]
		c.rel += uint32(d)
		c.o = c.first + c.rel
		if x.dead(c.o) {
			continue
		}
		c.tf = float64(tf)
		return true, true
	}
}

// cursorHeap is a min-heap of cursors by (ordinal, query term).
type cursorHeap []*postCursor

func (h cursorHeap) less(i, j int) bool {
	return h[i].o < h[j].o || (h[i].o == h[j].o && h[i].ti < h[j].ti)
}

func (h cursorHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h cursorHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		j := l
		if r := l + 1; r < len(h) && h.less(r, l) {
			j = r
		}
		if !h.less(j, i) {
			return
		}
		h[i], h[j] = h[j], h[i]
		i = j
	}
}

func (h *cursorHeap) pop() {
	n := len(*h) - 1
	(*h)[0] = (*h)[n]
	*h = (*h)[:n]
	h.down(0)
}

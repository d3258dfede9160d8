package searchidx

import (
	"container/heap"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
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

// topK keeps the best k of the chunks offered, by score and then key;
// a chunk's key is read only when its score may enter.
type topK struct {
	x *Index
	k int
	h scoredHeap
}

func (t *topK) offer(o uint32, score float64) {
	if len(t.h) < t.k {
		heap.Push(&t.h, Scored{Score: score, ord: o, Key: t.x.key(o)})
		return
	}
	if score < t.h[0].Score {
		return
	}
	if s := (Scored{Score: score, ord: o, Key: t.x.key(o)}); better(s, t.h[0]) {
		t.h[0] = s
		heap.Fix(&t.h, 0)
	}
}

// best returns the chunks kept, best first.
func (t *topK) best() []Scored {
	out := []Scored(t.h)
	sort.Slice(out, func(i, j int) bool { return better(out[i], out[j]) })
	return out
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

// Cite is what cites one chunk.
type Cite struct {
	ChunkID, DocID, Path, URI, Title string
	DisplayPath                      string
	Page, CharOffset, CharEnd        int
	Section, Text                    string
	Table                            bool // a chunk of a table's rows
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
	b = appendString(b, c.Text)
	if c.Table { // a flags byte after the text; absent (an index written before it) is 0
		b = append(b, 1)
	}
	return b
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
	c.Table = len(p) > 0 && p[0]&1 != 0
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

package searchidx

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"slices"
	"unsafe"
)

// segment is one mapped index file: a whole index (the base), or a delta
// of the chunks added or changed since the base was built.
type segment struct {
	h    header
	data []byte
	keep *os.File

	keys     []uint64
	docLen   []uint32
	rowHash  []uint64
	citeOff  []uint64
	cites    []byte
	termOff  []uint64
	terms    []byte
	postOff  []uint64
	postings []byte
	df       []uint32
	vecChOff []uint32
	vecCh    []uint32
	vec32    []float32
	codes    []int8
	scales   []float32
	norms    []float64

	// delta only: retractions from the base
	dead, deadVec   []uint64
	rmTerm, rmCount []uint32
}

// Index is an open, memory-mapped search index: a base segment and
// optionally a delta segment (see Update). Its methods only read, so one
// Index may serve many goroutines.
type Index struct {
	base  *segment
	delta *segment // nil: the base alone
	nb    uint32   // base chunks; the delta's ordinals follow them
	dims  int

	chunks, withoutVector int // live totals
	sumDocLength          int64

	k1, b float64 // parsed decimals
}

// Open maps the index at path if it was built from the file whose identity
// is source; otherwise (another file, another format, missing) it returns
// an error, ErrStale when the index exists but does not match.
func Open(path string, source FileID) (*Index, error) {
	bb, err := os.ReadFile(bindingPath(path))
	if err != nil {
		return nil, err
	}
	var bind binding
	if err := json.Unmarshal(bb, &bind); err != nil || bind.Format != Format {
		return nil, fmt.Errorf("%w: %s: not a binding of this docket's format", ErrStale, bindingPath(path))
	}
	if bind.Source != source {
		return nil, fmt.Errorf("%w: built for another published copy", ErrStale)
	}
	return OpenUnbound(path, bind.Content)
}

// OpenUnbound maps the index data at path whatever published file it is
// bound to, if its content fingerprint is content (to check an index
// before binding it).
func OpenUnbound(path, content string) (*Index, error) {
	base, err := openSegment(path)
	if err != nil {
		return nil, err
	}
	x := &Index{base: base, nb: uint32(base.h.Chunks), dims: base.h.Dims,
		chunks: base.h.Chunks, withoutVector: base.h.ChunksWithoutVector, sumDocLength: base.h.SumDocLength}
	if base.h.Content != content {
		d, err := openSegment(deltaPath(path))
		if err != nil || d.h.Base != base.h.Content || d.h.Content != content {
			if err == nil {
				d.close()
			}
			base.close()
			return nil, fmt.Errorf("%w: the index was rebuilt since it was bound", ErrStale)
		}
		if err := d.checkDelta(base); err != nil {
			d.close()
			base.close()
			return nil, fmt.Errorf("%w: %s: %v", ErrStale, deltaPath(path), err)
		}
		x.delta = d
		x.chunks, x.withoutVector, x.sumDocLength = d.h.LiveChunks, d.h.LiveWithoutVector, d.h.LiveSumDocLength
		if x.dims == 0 {
			x.dims = d.h.Dims
		}
	}
	if x.k1, err = decimal(base.h.K1); err == nil {
		x.b, err = decimal(base.h.B)
	}
	if err != nil {
		x.Close()
		return nil, err
	}
	return x, nil
}

func openSegment(path string) (*segment, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	s := &segment{keep: f}
	if s.h, err = headerOf(f, path); err != nil {
		f.Close()
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if s.data, err = mapFile(f, st.Size()); err != nil {
		f.Close()
		return nil, err
	}
	if err := s.slices(); err != nil {
		s.close()
		return nil, fmt.Errorf("%w: %s: %v", ErrStale, path, err)
	}
	return s, nil
}

// checkDelta checks that the delta segment d fits base.
func (d *segment) checkDelta(base *segment) error {
	if d.h.Model != base.h.Model || d.h.K1 != base.h.K1 || d.h.B != base.h.B {
		return errors.New("delta of another model or BM25 parameters")
	}
	if base.h.Vectors > 0 && d.h.Vectors > 0 && base.h.Dims != d.h.Dims {
		return errors.New("delta vectors of another length")
	}
	words := func(n int) int { return (n + 63) / 64 }
	if len(d.dead) != words(base.h.Chunks) || len(d.deadVec) != words(base.h.Vectors) || len(d.rmTerm) != len(d.rmCount) {
		return errors.New("retractions do not fit the base")
	}
	for _, t := range d.rmTerm {
		if int(t) >= base.h.Terms {
			return errors.New("retracted term out of range")
		}
	}
	return nil
}

// Close unmaps the index.
func (x *Index) Close() error {
	err := x.base.close()
	if x.delta != nil {
		if e := x.delta.close(); err == nil {
			err = e
		}
	}
	return err
}

func (s *segment) close() error {
	var err error
	if s.data != nil {
		err = unmapFile(s.data)
		s.data = nil
	}
	if s.keep != nil {
		s.keep.Close()
	}
	return err
}

func (s *segment) section(name string, elem, count int) ([]byte, error) {
	sec, ok := s.h.Sections[name]
	if !ok {
		if count == 0 {
			return nil, nil
		}
		return nil, fmt.Errorf("section %s missing", name)
	}
	off, n := sec[0], sec[1]
	if off < headerSpace || n < 0 || off+n > int64(len(s.data)) || off%8 != 0 {
		return nil, fmt.Errorf("section %s out of the file", name)
	}
	if count >= 0 && int64(elem*count) != n {
		return nil, fmt.Errorf("section %s: %d bytes, %d expected", name, n, elem*count)
	}
	return s.data[off : off+n : off+n], nil
}

func view[T any](b []byte) []T {
	var z T
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), len(b)/int(unsafe.Sizeof(z)))
}

func (s *segment) slices() error {
	if !littleEndian() {
		return errors.New("search index: big-endian machine")
	}
	h := &s.h
	var err error
	get := func(name string, elem, count int) []byte {
		if err != nil {
			return nil
		}
		var b []byte
		b, err = s.section(name, elem, count)
		return b
	}
	s.keys = view[uint64](get(secKeys, 8, h.Chunks))
	s.docLen = view[uint32](get(secDocLen, 4, h.Chunks))
	s.rowHash = view[uint64](get(secRowHash, 8, h.Chunks))
	s.citeOff = view[uint64](get(secCiteOff, 8, h.Chunks+1))
	s.cites = get(secCites, 1, -1)
	s.termOff = view[uint64](get(secTermOff, 8, h.Terms+1))
	s.terms = get(secTerms, 1, -1)
	s.postOff = view[uint64](get(secPostOff, 8, h.Terms+1))
	s.postings = get(secPostings, 1, -1)
	s.df = view[uint32](get(secDF, 4, h.Terms))
	if h.Model != "" {
		s.vec32 = view[float32](get(secVec32, 4, h.Vectors*h.Dims))
		s.codes = view[int8](get(secVecCodes, 1, h.Vectors*h.Dims))
		s.scales = view[float32](get(secVecScale, 4, h.Vectors))
		s.norms = view[float64](get(secVecNorm, 8, h.Vectors))
		s.vecChOff = view[uint32](get(secVecChOff, 4, h.Vectors+1))
		s.vecCh = view[uint32](get(secVecChunks, 4, -1))
	}
	if h.Base != "" {
		s.dead = view[uint64](get(secDead, 8, -1))
		s.deadVec = view[uint64](get(secDeadVec, 8, -1))
		s.rmTerm = view[uint32](get(secRmTerm, 4, -1))
		s.rmCount = view[uint32](get(secRmCount, 4, -1))
	}
	if err != nil {
		return err
	}
	if uint64(len(s.cites)) != s.citeOff[h.Chunks] || uint64(len(s.terms)) != s.termOff[h.Terms] || uint64(len(s.postings)) != s.postOff[h.Terms] {
		return errors.New("section lengths disagree")
	}
	if h.Model != "" && int(s.vecChOff[h.Vectors]) != len(s.vecCh) {
		return errors.New("vector chunk lists disagree")
	}
	if _, err := decimal(h.K1); err != nil {
		return err
	}
	if _, err := decimal(h.B); err != nil {
		return err
	}
	return nil
}

func littleEndian() bool {
	v := uint16(1)
	return *(*byte)(unsafe.Pointer(&v)) == 1
}

// decimal parses a decimal literal exactly and rounds it to the nearest
// float64, as DuckDB converts a DECIMAL to DOUBLE.
func decimal(s string) (float64, error) {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return 0, fmt.Errorf("%q is not a decimal number", s)
	}
	f, _ := r.Float64()
	return f, nil
}

// decimalSum is a+b computed exactly, then rounded (DECIMAL + DECIMAL).
func decimalSum(a, b string) float64 {
	x, _ := new(big.Rat).SetString(a)
	y, _ := new(big.Rat).SetString(b)
	f, _ := new(big.Rat).Add(x, y).Float64()
	return f
}

// decimalDiff is a-b computed exactly, then rounded.
func decimalDiff(a, b string) float64 {
	x, _ := new(big.Rat).SetString(a)
	y, _ := new(big.Rat).SetString(b)
	f, _ := new(big.Rat).Sub(x, y).Float64()
	return f
}

// Model is the embedding model whose vectors the index holds ("" = none),
// Dims their length.
func (x *Index) Model() string { return x.base.h.Model }

// Dims is the length of the indexed vectors.
func (x *Index) Dims() int { return x.dims }

// Chunks is the number of searchable chunks.
func (x *Index) Chunks() int { return x.chunks }

// ChunksWithoutVector counts searchable chunks with no (non-zero) vector
// of the model: BM25 alone finds them.
func (x *Index) ChunksWithoutVector() int { return x.withoutVector }

// BM25Params are the index's k1 and b as decimal literals.
func (x *Index) BM25Params() (k1, b string) { return x.base.h.K1, x.base.h.B }

// DeltaChunks is the number of chunks in the delta segment (0 without one).
func (x *Index) DeltaChunks() int {
	if x.delta == nil {
		return 0
	}
	return x.delta.h.Chunks
}

// term returns the id of term in s, or -1.
func (s *segment) term(t string) int {
	lo, hi := 0, s.h.Terms
	tb := []byte(t)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if bytes.Compare(s.terms[s.termOff[m]:s.termOff[m+1]], tb) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < s.h.Terms && bytes.Equal(s.terms[s.termOff[lo]:s.termOff[lo+1]], tb) {
		return lo
	}
	return -1
}

// dead reports whether base ordinal o was retracted by the delta.
func (x *Index) dead(o uint32) bool {
	return x.delta != nil && o < x.nb && x.delta.dead[o>>6]&(1<<(o&63)) != 0
}

// key is the chunk_key of ordinal o (the delta's ordinals follow the base's).
func (x *Index) key(o uint32) uint64 {
	if o < x.nb {
		return x.base.keys[o]
	}
	return x.delta.keys[o-x.nb]
}

func (x *Index) docLen(o uint32) uint32 {
	if o < x.nb {
		return x.base.docLen[o]
	}
	return x.delta.docLen[o-x.nb]
}

// removed is the number of base term id's postings the delta retracted.
func (x *Index) removed(id int) uint32 {
	if x.delta == nil {
		return 0
	}
	if i, ok := slices.BinarySearch(x.delta.rmTerm, uint32(id)); ok {
		return x.delta.rmCount[i]
	}
	return 0
}

// headerOf reads and checks the header at the start of f.
func headerOf(f *os.File, path string) (header, error) {
	var h header
	head := make([]byte, 12)
	if _, err := f.ReadAt(head, 0); err != nil || string(head[:8]) != magic {
		return h, fmt.Errorf("%w: %s is not a search index of this docket", ErrStale, path)
	}
	hb := make([]byte, binary.LittleEndian.Uint32(head[8:]))
	if len(hb)+12 > headerSpace {
		return h, fmt.Errorf("%w: %s: bad header", ErrStale, path)
	}
	if _, err := f.ReadAt(hb, 12); err != nil {
		return h, fmt.Errorf("%w: %s: %v", ErrStale, path, err)
	}
	if err := json.Unmarshal(hb, &h); err != nil {
		return h, fmt.Errorf("%w: %s: %v", ErrStale, path, err)
	}
	if h.Format != Format {
		return h, fmt.Errorf("%w: format %d, this docket reads %d", ErrStale, h.Format, Format)
	}
	return h, nil
}

func readHeader(path string) (header, error) {
	f, err := os.Open(path)
	if err != nil {
		return header{}, err
	}
	defer f.Close()
	return headerOf(f, path)
}

// Content is the content fingerprint of the index data at path ("" when
// there is none of this format): the delta's when a delta of the base is
// beside it.
func Content(path string) string {
	h, err := readHeader(path)
	if err != nil {
		return ""
	}
	if d, err := readHeader(deltaPath(path)); err == nil && d.Base == h.Content {
		return d.Content
	}
	return h.Content
}

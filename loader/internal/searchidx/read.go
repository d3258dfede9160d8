package searchidx

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"unsafe"
)

// Index is an open, memory-mapped search index. Its methods only read, so
// one Index may serve many goroutines.
type Index struct {
	h    header
	data []byte
	keep *os.File

	keys     []uint64
	docLen   []uint32
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
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			f.Close()
		}
	}()
	x := &Index{keep: f}
	if x.h, err = headerOf(f, path); err != nil {
		return nil, err
	}
	if x.h.Content != content {
		return nil, fmt.Errorf("%w: the index was rebuilt since it was bound", ErrStale)
	}
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if x.data, err = mapFile(f, st.Size()); err != nil {
		return nil, err
	}
	if err := x.slices(); err != nil {
		x.Close()
		return nil, fmt.Errorf("%w: %s: %v", ErrStale, path, err)
	}
	ok = true
	return x, nil
}

// Close unmaps the index.
func (x *Index) Close() error {
	var err error
	if x.data != nil {
		err = unmapFile(x.data)
		x.data = nil
	}
	if x.keep != nil {
		x.keep.Close()
	}
	return err
}

func (x *Index) section(name string, elem, count int) ([]byte, error) {
	s, ok := x.h.Sections[name]
	if !ok {
		if count == 0 {
			return nil, nil
		}
		return nil, fmt.Errorf("section %s missing", name)
	}
	off, n := s[0], s[1]
	if off < headerSpace || n < 0 || off+n > int64(len(x.data)) || off%8 != 0 {
		return nil, fmt.Errorf("section %s out of the file", name)
	}
	if count >= 0 && int64(elem*count) != n {
		return nil, fmt.Errorf("section %s: %d bytes, %d expected", name, n, elem*count)
	}
	return x.data[off : off+n : off+n], nil
}

func view[T any](b []byte) []T {
	var z T
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), len(b)/int(unsafe.Sizeof(z)))
}

func (x *Index) slices() error {
	if !littleEndian() {
		return errors.New("search index: big-endian machine")
	}
	h := &x.h
	var err error
	get := func(name string, elem, count int) []byte {
		if err != nil {
			return nil
		}
		var b []byte
		b, err = x.section(name, elem, count)
		return b
	}
	x.keys = view[uint64](get(secKeys, 8, h.Chunks))
	x.docLen = view[uint32](get(secDocLen, 4, h.Chunks))
	x.citeOff = view[uint64](get(secCiteOff, 8, h.Chunks+1))
	x.cites = get(secCites, 1, -1)
	x.termOff = view[uint64](get(secTermOff, 8, h.Terms+1))
	x.terms = get(secTerms, 1, -1)
	x.postOff = view[uint64](get(secPostOff, 8, h.Terms+1))
	x.postings = get(secPostings, 1, -1)
	x.df = view[uint32](get(secDF, 4, h.Terms))
	if h.Model != "" {
		x.vec32 = view[float32](get(secVec32, 4, h.Vectors*h.Dims))
		x.codes = view[int8](get(secVecCodes, 1, h.Vectors*h.Dims))
		x.scales = view[float32](get(secVecScale, 4, h.Vectors))
		x.norms = view[float64](get(secVecNorm, 8, h.Vectors))
		x.vecChOff = view[uint32](get(secVecChOff, 4, h.Vectors+1))
		x.vecCh = view[uint32](get(secVecChunks, 4, -1))
	}
	if err != nil {
		return err
	}
	if uint64(len(x.cites)) != x.citeOff[h.Chunks] || uint64(len(x.terms)) != x.termOff[h.Terms] || uint64(len(x.postings)) != x.postOff[h.Terms] {
		return errors.New("section lengths disagree")
	}
	if h.Model != "" && int(x.vecChOff[h.Vectors]) != len(x.vecCh) {
		return errors.New("vector chunk lists disagree")
	}
	for _, o := range x.vecCh {
		if int(o) >= h.Chunks {
			return errors.New("vector chunk out of range")
		}
	}
	if x.k1, err = decimal(h.K1); err != nil {
		return err
	}
	if x.b, err = decimal(h.B); err != nil {
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
func (x *Index) Model() string { return x.h.Model }

// Dims is the length of the indexed vectors.
func (x *Index) Dims() int { return x.h.Dims }

// Chunks is the number of searchable chunks.
func (x *Index) Chunks() int { return x.h.Chunks }

// ChunksWithoutVector counts searchable chunks with no (non-zero) vector
// of the model: BM25 alone finds them.
func (x *Index) ChunksWithoutVector() int { return x.h.ChunksWithoutVector }

// BM25Params are the index's k1 and b as decimal literals.
func (x *Index) BM25Params() (k1, b string) { return x.h.K1, x.h.B }

// term returns the id of term, or -1.
func (x *Index) term(t string) int {
	lo, hi := 0, x.h.Terms
	tb := []byte(t)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if bytes.Compare(x.terms[x.termOff[m]:x.termOff[m+1]], tb) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < x.h.Terms && bytes.Equal(x.terms[x.termOff[lo]:x.termOff[lo+1]], tb) {
		return lo
	}
	return -1
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
// there is none of this format).
func Content(path string) string {
	h, err := readHeader(path)
	if err != nil {
		return ""
	}
	return h.Content
}

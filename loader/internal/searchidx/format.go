// Package searchidx is a derived, read-only search index of a published
// warehouse: a file written next to the published copy
// (warehouse.read.duckdb.search) that `docket search` memory-maps, so a
// search answers without opening DuckDB. It holds what a search reads and
// nothing else: the searchable chunks' keys, lengths and citations
// (retrieval.search_chunks), the BM25 postings (retrieval.chunk_terms) by
// term, and the configured model's vectors of those chunks
// (embeddings.chunk_vectors) in full and as int8 codes stored dimension by
// dimension.
//
// Why a file beside DuckDB: every `docket search` is a new process, and
// DuckDB reads a table's blocks into fresh buffers in every process (at
// 287k chunks a vector scan read ~290 MB and cost ~1.7 s of CPU, citations
// ~25 ms per hit), while the operating system's page cache keeps a mapped
// file's pages between processes.
//
// Exactness: the index answers with the same hits as the SQL path. BM25
// applies the retrieval.bm25_scores formula to the same postings. Vector
// search is exact too: the int8 codes give each vector a lower and an upper
// bound of its cosine similarity (the rounding error of a code is at most
// half its vector's scale), the k-th best lower bound is a threshold, and
// every vector whose upper bound reaches it is scored with its full
// FLOAT vector as DuckDB's array_cosine_distance does (float32 sums; DuckDB
// may compile its loop with reassociation, so a score can differ from the
// SQL path's in the last bits, and chunks whose scores tie that closely
// may come in the other order).
//
// Freshness: a small binding file beside the index records the identity
// (size, modification time, inode) of the published file it answers for,
// and the content fingerprint of the index data; Open refuses an index
// bound to another file, and search then runs the SQL path. Every publish
// binds the index to the new copy: by rebuilding it, or, when the
// retrieval tables' fingerprint is the one the data was built from, by
// writing a new binding only.
//
// The DuckDB file stays the source of truth: nothing here is needed to read
// it, and the index can be deleted at any time.
package searchidx

import (
	"encoding/binary"
	"errors"
	"os"
)

// Format is the index layout version; Open refuses other versions.
const Format = 3

const magic = "DKTSIDX1"

// headerSpace is the fixed space for the header (magic, length, JSON) at the
// start of the file; sections follow, 64-byte aligned.
const headerSpace = 1 << 16

// Path is the index file of the published copy at readPath. Beside it,
// Path + ".json" binds it to one published file (see binding).
func Path(readPath string) string { return readPath + ".search" }

// binding ties the index data to the published file it answers for: the
// data is rewritten only when what it was built from changed; a new
// published copy of the same retrieval tables only gets a new binding.
type binding struct {
	Format  int    `json:"format"`
	Source  FileID `json:"source"`  // the published file
	Content string `json:"content"` // the index data's Content
}

func bindingPath(path string) string { return path + ".json" }

// deltaPath is the delta segment of the index at path (see Update).
func deltaPath(path string) string { return path + ".delta" }

// FileID identifies one content of the published file cheaply: docket
// replaces it by rename (a new inode) and never writes it in place, and any
// write changes its size or modification time.
type FileID struct {
	Size    int64  `json:"size"`
	ModNano int64  `json:"mtime_ns"`
	Inode   uint64 `json:"inode"`
}

// IDOf returns the identity of the file at path.
func IDOf(path string) (FileID, error) {
	st, err := os.Stat(path)
	if err != nil {
		return FileID{}, err
	}
	return FileID{Size: st.Size(), ModNano: st.ModTime().UnixNano(), Inode: inode(st)}, nil
}

// header is the JSON at the start of the file.
type header struct {
	Format  int    `json:"format"`
	Content string `json:"content"` // fingerprint of what it was built from (see BuildOptions)

	// BM25 (the bm25_weight macro's k1 and b, the corpus figures of
	// retrieval.bm25_scores).
	K1           string `json:"k1"` // decimal literals, as the SQL macro has them
	B            string `json:"b"`
	Chunks       int    `json:"chunks"`
	SumDocLength int64  `json:"sum_doc_length"`
	Terms        int    `json:"terms"`
	Postings     int64  `json:"postings"`

	// Vectors of Model (Dims long); chunks without one are only found by BM25.
	Model               string `json:"model"`
	Dims                int    `json:"dims"`
	Vectors             int    `json:"vectors"`
	ChunksWithoutVector int    `json:"chunks_without_vector"`

	Sections map[string][2]int64 `json:"sections"` // name -> offset, length in bytes

	// A delta segment (see Update) names the Content of the base it
	// applies to and the totals of base and delta together.
	Base              string `json:"base,omitempty"`
	LiveChunks        int    `json:"live_chunks,omitempty"`
	LiveSumDocLength  int64  `json:"live_sum_doc_length,omitempty"`
	LivePostings      int64  `json:"live_postings,omitempty"`
	LiveWithoutVector int    `json:"live_chunks_without_vector,omitempty"`
}

// Section names.
const (
	secKeys      = "keys"      // Chunks × uint64 chunk_key, ascending (a chunk's ordinal is its rank)
	secDocLen    = "doclen"    // Chunks × uint32 doc_length
	secCiteOff   = "citeoff"   // (Chunks+1) × uint64 offsets into cites
	secCites     = "cites"     // citation records (see encodeCite)
	secTermOff   = "termoff"   // (Terms+1) × uint64 offsets into terms
	secTerms     = "terms"     // terms, ascending bytewise, concatenated
	secPostOff   = "postoff"   // (Terms+1) × uint64 offsets into postings
	secPostings  = "postings"  // per term: uvarint (ordinal delta, tf) pairs, ordinals ascending
	secDF        = "df"        // Terms × uint32 postings per term
	secVecChunks = "vecchunks" // chunk ordinals of each vector, grouped by vector
	secVecChOff  = "vecchoff"  // (Vectors+1) × uint32 offsets into vecchunks
	secVec32     = "vec32"     // Vectors × Dims float32, row-major
	secVecCodes  = "veccodes"  // Dims × Vectors int8, dimension-major
	secVecScale  = "vecscale"  // Vectors × float32: value ≈ scale × code
	secVecNorm   = "vecnorm"   // Vectors × float64: L2 norm
	secRowHash   = "rowhash"   // Chunks × uint64: what a search shows of the chunk (rowHash)

	// A delta segment's retractions from its base.
	secDead    = "dead"    // bitmap (uint64 words) of base chunk ordinals retracted
	secDeadVec = "deadvec" // bitmap of base vectors none of whose chunks is live
	secRmTerm  = "rmterm"  // uint32 base term ids with retracted postings, ascending
	secRmCount = "rmcount" // uint32 retracted postings of each of those terms
)

var le = binary.LittleEndian

// ErrStale is returned by Open when the index was built from another file
// than the published copy now at its path (or in another format).
var ErrStale = errors.New("search index is stale")

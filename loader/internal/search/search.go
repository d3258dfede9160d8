// Package search answers queries over the retrieval layer: BM25 through
// the retrieval.bm25 table macro, exact vector search with
// array_cosine_distance over embeddings.chunk_vectors, and hybrid ranking
// by reciprocal-rank fusion. It takes a warehouse and an embedding
// provider and returns ranked, citable hits; it never prints.
package search

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/docket-dev/docket/loader/internal/embed"
	"github.com/docket-dev/docket/loader/internal/searchidx"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// Modes.
const (
	ModeHybrid = "hybrid"
	ModeVector = "vector"
	ModeBM25   = "bm25"
)

// Hit is one ranked chunk with what is needed to cite it.
type Hit struct {
	Rank    int     `json:"rank"`
	Score   float64 `json:"score"`
	ChunkID string  `json:"chunk_id"`
	DocID   string  `json:"doc_id"`
	Path    string  `json:"path"` // rel_path as stored
	// DisplayPath is Path as a person reads it: an attachment as
	// "parent.eml › attachment.pdf" (document.DisplayPath).
	DisplayPath string  `json:"display_path"`
	URI         string  `json:"source_uri"`
	Title       string  `json:"title,omitempty"`
	Page        int     `json:"page"`
	CharOffset  int     `json:"char_offset"`
	CharEnd     int     `json:"char_end"`
	Section     string  `json:"section,omitempty"`
	Table       bool    `json:"table,omitempty"` // the chunk is a table's rows
	Text        string  `json:"text"`
	BM25Rank    int     `json:"bm25_rank,omitempty"`
	VectorRank  int     `json:"vector_rank,omitempty"`
	VectorScore float64 `json:"vector_similarity,omitempty"`

	key uint64 // retrieval.search_chunks.chunk_key
}

// Options for one query.
type Options struct {
	K           int
	Mode        string
	Candidates  int    // per-retriever depth for hybrid fusion (default 50)
	VectorIndex string // exact | hnsw | auto
}

// Searcher runs queries; it is cheap to create per command.
type Searcher struct {
	conn     *sql.Conn
	db       *warehouse.DB                                // opened by open, closed by Close
	open     func(context.Context) (*warehouse.DB, error) // opens the warehouse when the index cannot answer
	idx      *searchidx.Index                             // nil: every query is SQL
	provider embed.Provider
	notices  []string
	hnsw     bool
	indexed  bool

	dims         int // stored vector length, once known
	coverageDone bool
	// Missing of Searchable chunks have no vector for the configured
	// model (known after a hybrid or vector search; 0 when all have one).
	Missing, Searchable int64
	// FellBack is set when a hybrid search answered from BM25 alone
	// because vector search failed; the reason is in Notices.
	FellBack bool
}

// New prepares a searcher on a connection. With vectorIndex hnsw it tries
// DuckDB's vss extension and otherwise searches exactly; the reason is in
// Notices. auto searches exactly: a Searcher answers one command's query
// (docket search, one request of docs serve), and an HNSW index built for
// one query over a temporary copy of every vector costs far more than the
// exact scan it would replace.
func New(ctx context.Context, db *warehouse.DB, provider embed.Provider, vectorIndex string) (*Searcher, error) {
	c, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	s := &Searcher{conn: c, provider: provider}
	if vectorIndex == "hnsw" {
		if _, err := c.ExecContext(ctx, "load vss"); err != nil {
			reason := firstLine(err.Error())
			if strings.Contains(reason, "not found") {
				reason = "it is not installed, and installing needs internet"
			}
			s.notices = append(s.notices, "vector index: DuckDB's vss extension cannot be loaded ("+reason+"); searching exactly")
		} else {
			s.hnsw = true
		}
	}
	return s, nil
}

// NewIndexed prepares a searcher that answers from the search index idx
// (see package searchidx) and opens the warehouse with open only for what
// the index cannot answer exactly (a query with non-ASCII characters,
// another embedding model or vector size than the index's): then it runs
// the SQL path. The index must be the published copy's that open opens.
// It does not use an HNSW index.
func NewIndexed(idx *searchidx.Index, open func(context.Context) (*warehouse.DB, error), provider embed.Provider) *Searcher {
	return &Searcher{idx: idx, open: open, provider: provider}
}

// IndexOnly reports whether every answer so far came from the search
// index alone (the warehouse was not opened).
func (s *Searcher) IndexOnly() bool { return s.idx != nil && s.conn == nil }

// OwnDB makes Close close db too (the warehouse New's connection is of).
func (s *Searcher) OwnDB(db *warehouse.DB) { s.db = db }

// sql returns the connection, opening the warehouse if needed.
func (s *Searcher) sql(ctx context.Context) (*sql.Conn, error) {
	if s.conn != nil {
		return s.conn, nil
	}
	if s.open == nil {
		return nil, errors.New("search: no warehouse")
	}
	db, err := s.open(ctx)
	if err != nil {
		return nil, err
	}
	c, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, err
	}
	s.db, s.conn = db, c
	return c, nil
}

// Notices are one-time messages for the user (e.g. no HNSW).
func (s *Searcher) Notices() []string { return s.notices }

// Close releases the connection (and the warehouse when the searcher
// opened it).
func (s *Searcher) Close() error {
	var err error
	if s.conn != nil {
		err = s.conn.Close()
	}
	if s.db != nil {
		if e := s.db.Close(); err == nil {
			err = e
		}
	}
	return err
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Search ranks chunks for query. A hybrid search whose vector half fails
// because of the embedding provider answers from BM25 alone and says so in
// Notices (FellBack); chunks without a vector are counted in Notices too.
func (s *Searcher) Search(ctx context.Context, query string, o Options) ([]Hit, error) {
	if o.K < 1 {
		return nil, fmt.Errorf("search: k must be at least 1, got %d", o.K)
	}
	if strings.TrimSpace(query) == "" {
		return nil, fmt.Errorf("search: the query is empty")
	}
	if o.Candidates < o.K {
		o.Candidates = max(50, o.K)
	}
	switch o.Mode {
	case ModeBM25:
		return s.BM25(ctx, query, o.K)
	case ModeVector:
		s.coverage(ctx)
		return s.Vector(ctx, query, o.K)
	case ModeHybrid, "":
		// Both rankings are keys and scores; only the fused top k are
		// read with their citations.
		// From the index, BM25 ranks on another core while the query is
		// embedded and the vectors ranked (it touches no connection).
		var b []Hit
		var bOK bool
		var wg sync.WaitGroup
		if s.idx != nil {
			wg.Go(func() { b, bOK = s.bm25Indexed(query, o.Candidates) })
		}
		s.coverage(ctx)
		v, err := s.vectorRanks(ctx, query, o.Candidates)
		wg.Wait()
		if !bOK {
			var bErr error
			if b, bErr = s.bm25Ranks(ctx, query, o.Candidates); bErr != nil {
				return nil, bErr
			}
		}
		if err != nil {
			if !providerFailed(err) && !errors.Is(err, ErrStaleVectors) {
				return nil, err
			}
			s.FellBack = true
			s.notices = append(s.notices, "answering from BM25 only: "+firstLine(err.Error()))
			v = nil
		}
		return s.cite(ctx, Fuse(b, v, o.K))
	}
	return nil, fmt.Errorf("search: unknown mode %q (hybrid, vector or bm25)", o.Mode)
}

// buildIndex copies the model's vectors into a temporary table with an
// HNSW index (vss). Temporary objects are never persisted, so the file
// stays readable by a DuckDB client without the extension.
func (s *Searcher) buildIndex(ctx context.Context) error {
	if s.indexed {
		return nil
	}
	conn, err := s.sql(ctx)
	if err != nil {
		return err
	}
	for _, q := range []string{
		`create or replace temp table search_vectors as select text_hash, model, embedding from embeddings.chunk_vectors where model = '` + strings.ReplaceAll(s.provider.ModelID(), "'", "''") + `'`,
		`create index search_vectors_hnsw on search_vectors using hnsw (embedding) with (metric = 'cosine')`,
	} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	s.indexed = true
	return nil
}

func vectorLiteral(v []float32) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, f := range v {
		if i > 0 {
			b.WriteByte(',')
		}
		// 9 significant digits: DuckDB's DECIMAL-to-FLOAT cast of the
		// shortest form is not always the float it came from.
		b.WriteString(strconv.FormatFloat(float64(f), 'g', 9, 32))
	}
	b.WriteByte(']')
	return b.String()
}

// rrfK is the reciprocal-rank-fusion constant (Cormack et al. use 60).
const rrfK = 60

// Fuse merges two rankings by reciprocal-rank fusion. Hits are the same
// chunk when their keys are; ties rank by key, which orders as chunk_id.
func Fuse(bm25, vector []Hit, k int) []Hit {
	byKey := map[uint64]*Hit{}
	var order []uint64
	add := func(hits []Hit, isBM25 bool) {
		for i, h := range hits {
			e, ok := byKey[h.key]
			if !ok {
				c := h
				c.Score = 0
				e = &c
				byKey[h.key] = e
				order = append(order, h.key)
			}
			e.Score += 1.0 / float64(rrfK+i+1)
			if isBM25 {
				e.BM25Rank = i + 1
			} else {
				e.VectorRank, e.VectorScore = i+1, h.Score
			}
		}
	}
	add(bm25, true)
	add(vector, false)
	out := make([]Hit, 0, len(order))
	for _, key := range order {
		out = append(out, *byKey[key])
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].key < out[j].key
	})
	if len(out) > k {
		out = out[:k]
	}
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}

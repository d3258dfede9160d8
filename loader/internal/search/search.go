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
	"strings"

	"github.com/docket-dev/docket/loader/internal/embed"
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
	Rank        int     `json:"rank"`
	Score       float64 `json:"score"`
	ChunkID     string  `json:"chunk_id"`
	DocID       string  `json:"doc_id"`
	Path        string  `json:"path"`
	URI         string  `json:"source_uri"`
	Title       string  `json:"title,omitempty"`
	Page        int     `json:"page"`
	CharOffset  int     `json:"char_offset"`
	CharEnd     int     `json:"char_end"`
	Section     string  `json:"section,omitempty"`
	Text        string  `json:"text"`
	BM25Rank    int     `json:"bm25_rank,omitempty"`
	VectorRank  int     `json:"vector_rank,omitempty"`
	VectorScore float64 `json:"vector_similarity,omitempty"`
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

// New prepares a searcher on a connection. With vectorIndex hnsw or auto
// it tries DuckDB's vss extension and otherwise searches exactly; the
// reason is in Notices.
func New(ctx context.Context, db *warehouse.DB, provider embed.Provider, vectorIndex string) (*Searcher, error) {
	c, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	s := &Searcher{conn: c, provider: provider}
	if vectorIndex == "hnsw" || vectorIndex == "auto" {
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

// Notices are one-time messages for the user (e.g. no HNSW).
func (s *Searcher) Notices() []string { return s.notices }

// Close releases the connection.
func (s *Searcher) Close() error { return s.conn.Close() }

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
		b, err := s.BM25(ctx, query, o.Candidates)
		if err != nil {
			return nil, err
		}
		s.coverage(ctx)
		v, err := s.Vector(ctx, query, o.Candidates)
		if err != nil {
			if !providerFailed(err) && !errors.Is(err, ErrStaleVectors) {
				return nil, err
			}
			s.FellBack = true
			s.notices = append(s.notices, "answering from BM25 only: "+firstLine(err.Error()))
			return Fuse(b, nil, o.K), nil
		}
		return Fuse(b, v, o.K), nil
	}
	return nil, fmt.Errorf("search: unknown mode %q (hybrid, vector or bm25)", o.Mode)
}

const citeCols = `chunk_id, doc_id, rel_path, source_uri, coalesce(title, ''), page_number, char_offset, char_end, coalesce(section_title, ''), text`

func scanHits(rows *sql.Rows) ([]Hit, error) {
	defer rows.Close()
	var hits []Hit
	for rows.Next() {
		var h Hit
		if err := rows.Scan(&h.Score, &h.ChunkID, &h.DocID, &h.Path, &h.URI, &h.Title, &h.Page, &h.CharOffset, &h.CharEnd, &h.Section, &h.Text); err != nil {
			return nil, err
		}
		h.Rank = len(hits) + 1
		hits = append(hits, h)
	}
	return hits, rows.Err()
}

// buildIndex copies the model's vectors into a temporary table with an
// HNSW index (vss). Temporary objects are never persisted, so the file
// stays readable by a DuckDB client without the extension.
func (s *Searcher) buildIndex(ctx context.Context) error {
	if s.indexed {
		return nil
	}
	for _, q := range []string{
		`create or replace temp table search_vectors as select text_hash, model, embedding from embeddings.chunk_vectors where model = '` + strings.ReplaceAll(s.provider.ModelID(), "'", "''") + `'`,
		`create index search_vectors_hnsw on search_vectors using hnsw (embedding) with (metric = 'cosine')`,
	} {
		if _, err := s.conn.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	s.indexed = true
	return nil
}

// BM25 calls the retrieval.bm25 macro, exactly as a notebook would.
func (s *Searcher) BM25(ctx context.Context, query string, k int) ([]Hit, error) {
	rows, err := s.conn.QueryContext(ctx, `select score, `+citeCols+` from retrieval.bm25(?, k := ?)`, query, k)
	if err != nil {
		return nil, fmt.Errorf("search: bm25 (has `docket build` built the retrieval layer?): %w", err)
	}
	hits, err := scanHits(rows)
	for i := range hits {
		hits[i].BM25Rank = i + 1
	}
	return hits, err
}

// Vector embeds the query with the configured provider and ranks chunk
// vectors by cosine distance (exact).
func (s *Searcher) Vector(ctx context.Context, query string, k int) ([]Hit, error) {
	if s.provider == nil {
		return nil, fmt.Errorf("search: %w: no embedding provider", ErrVectorsUnavailable)
	}
	vecs, err := s.provider.Embed(ctx, []string{query})
	if err != nil {
		return nil, fmt.Errorf("search: %w: %w", ErrVectorsUnavailable, err)
	}
	if err := s.checkDims(ctx, len(vecs[0])); err != nil {
		return nil, err
	}
	lit := vectorLiteral(vecs[0])
	source := "embeddings.chunk_vectors"
	if s.hnsw {
		if err := s.buildIndex(ctx); err != nil {
			s.notices = append(s.notices, "vector index: HNSW index not built ("+firstLine(err.Error())+"); searching exactly")
			s.hnsw = false
		} else {
			source = "search_vectors"
		}
	}
	// Top candidates on the vectors alone, then join what a reader needs to
	// cite. chunk_vectors is append-only (vectors of texts that left stay
	// as a cache), so a few candidates may not join: over-fetch, and in the
	// rare case that leaves fewer than k hits, filter before ranking.
	topK := func(filter string, fetch int) (*sql.Rows, error) {
		q := fmt.Sprintf(`with query as materialized (select %[1]s::FLOAT[%[2]d] as v),
			top as (
				select text_hash, array_cosine_distance(embedding, query.v) as distance
				from %[4]s, query
				where model = ? %[5]s
				order by distance
				limit ?)
			select 1 - top.distance as score, %[3]s
			from top
			join retrieval.search_chunks as sc using (text_hash)
			order by top.distance, sc.chunk_id
			limit ?`, lit, len(vecs[0]), prefixCols("sc"), source, filter)
		return s.conn.QueryContext(ctx, q, s.provider.ModelID(), fetch, k)
	}
	rows, err := topK("", 4*k)
	if err != nil {
		return nil, fmt.Errorf("search: vector (has `docket build` built the embeddings layer?): %w", err)
	}
	hits, err := scanHits(rows)
	if err == nil && len(hits) < k {
		if rows, err = topK("and text_hash in (select text_hash from retrieval.search_chunks)", k); err != nil {
			return nil, fmt.Errorf("search: vector: %w", err)
		}
		hits, err = scanHits(rows)
	}
	for i := range hits {
		hits[i].VectorRank = i + 1
		hits[i].VectorScore = hits[i].Score
	}
	return hits, err
}

func prefixCols(a string) string {
	return strings.NewReplacer("$", a+".").Replace(`$chunk_id, $doc_id, $rel_path, $source_uri, coalesce($title, ''), $page_number, $char_offset, $char_end, coalesce($section_title, ''), $text`)
}

func vectorLiteral(v []float32) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, f := range v {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%g", f)
	}
	b.WriteByte(']')
	return b.String()
}

// rrfK is the reciprocal-rank-fusion constant (Cormack et al. use 60).
const rrfK = 60

// Fuse merges two rankings by reciprocal-rank fusion.
func Fuse(bm25, vector []Hit, k int) []Hit {
	byID := map[string]*Hit{}
	var order []string
	add := func(hits []Hit, isBM25 bool) {
		for i, h := range hits {
			e, ok := byID[h.ChunkID]
			if !ok {
				c := h
				c.Score = 0
				e = &c
				byID[h.ChunkID] = e
				order = append(order, h.ChunkID)
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
	for _, id := range order {
		out = append(out, *byID[id])
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].ChunkID < out[j].ChunkID
	})
	if len(out) > k {
		out = out[:k]
	}
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}

package search

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/docket-dev/docket/loader/internal/searchidx"
)

// A search ranks chunks by key first (retrieval.search_chunks.chunk_key
// and a score) and reads citations only for the hits it returns: one
// equality lookup per hit. A join of the top hits with search_chunks reads
// and decompresses every chunk's text in DuckDB 1.5 (its join filters only
// skip row groups), which at a few hundred thousand chunks is most of a
// search's time; an equality filter is applied in the scan, so a lookup
// reads the blocks of its own row.

// BM25 ranks chunks with the retrieval.bm25_scores macro (the ranking half
// of retrieval.bm25, which a notebook calls the same way) and returns the
// top k with their citations.
func (s *Searcher) BM25(ctx context.Context, query string, k int) ([]Hit, error) {
	hits, err := s.bm25Ranks(ctx, query, k)
	if err != nil {
		return nil, err
	}
	return s.cite(ctx, hits)
}

// bm25Indexed ranks from the index alone; ok false when it cannot.
func (s *Searcher) bm25Indexed(query string, k int) ([]Hit, bool) {
	if s.idx == nil {
		return nil, false
	}
	ranked, ok := s.idx.BM25(query, k)
	if !ok {
		return nil, false
	}
	hits := make([]Hit, len(ranked))
	for i, r := range ranked {
		hits[i] = Hit{Rank: i + 1, BM25Rank: i + 1, Score: r.Score, key: r.Key}
	}
	return hits, true
}

func (s *Searcher) bm25Ranks(ctx context.Context, query string, k int) ([]Hit, error) {
	if hits, ok := s.bm25Indexed(query, k); ok {
		return hits, nil
	}
	conn, err := s.sql(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := conn.QueryContext(ctx, `select chunk_key, score from retrieval.bm25_scores(?, k := ?)`, query, k)
	if err != nil {
		return nil, fmt.Errorf("search: bm25 (has `docket build` built the retrieval layer?): %w", err)
	}
	defer rows.Close()
	var hits []Hit
	for rows.Next() {
		var h Hit
		if err := rows.Scan(&h.key, &h.Score); err != nil {
			return nil, err
		}
		h.Rank = len(hits) + 1
		h.BM25Rank = h.Rank
		hits = append(hits, h)
	}
	return hits, rows.Err()
}

// Vector embeds the query with the configured provider, ranks chunk
// vectors by cosine distance (exact) and returns the top k with their
// citations.
func (s *Searcher) Vector(ctx context.Context, query string, k int) ([]Hit, error) {
	hits, err := s.vectorRanks(ctx, query, k)
	if err != nil {
		return nil, err
	}
	return s.cite(ctx, hits)
}

func (s *Searcher) vectorRanks(ctx context.Context, query string, k int) ([]Hit, error) {
	if s.provider == nil {
		return nil, fmt.Errorf("search: %w: no embedding provider", ErrVectorsUnavailable)
	}
	vecs, err := s.provider.Embed(ctx, []string{query})
	if err != nil {
		return nil, fmt.Errorf("search: %w: %w", ErrVectorsUnavailable, err)
	}
	return s.rankVector(ctx, vecs[0], k)
}

// rankVector ranks chunks by their vectors' cosine distance to q.
func (s *Searcher) rankVector(ctx context.Context, q []float32, k int) ([]Hit, error) {
	if s.idx != nil && s.idx.Model() == s.provider.ModelID() {
		if ranked, ok := s.idx.Vector(q, k); ok {
			hits := make([]Hit, len(ranked))
			for i, r := range ranked {
				hits[i] = Hit{Rank: i + 1, VectorRank: i + 1, Score: r.Score, VectorScore: r.Score, key: r.Key}
			}
			return hits, nil
		}
	}
	conn, err := s.sql(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.checkDims(ctx, len(q)); err != nil {
		return nil, err
	}
	lit := vectorLiteral(q)
	source := "embeddings.chunk_vectors"
	if s.hnsw {
		if err := s.buildIndex(ctx); err != nil {
			s.notices = append(s.notices, "vector index: HNSW index not built ("+firstLine(err.Error())+"); searching exactly")
			s.hnsw = false
		} else {
			source = "search_vectors"
		}
	}
	// Top candidates on the vectors alone, then the searchable chunks with
	// those texts (their keys only). chunk_vectors is append-only (vectors
	// of texts that left stay as a cache), so a few candidates may not
	// join: over-fetch, and in the rare case that leaves fewer than k
	// hits, filter before ranking. Ties rank by chunk_key, which orders as
	// chunk_id.
	topK := func(filter string, fetch int) ([]Hit, error) {
		q := fmt.Sprintf(`with query as materialized (select %[1]s::FLOAT[%[2]d] as v),
			top as (
				select text_hash, array_cosine_distance(embedding, query.v) as distance
				from %[3]s, query
				where model = ? %[4]s
				order by distance
				limit ?)
			select 1 - top.distance as score, sc.chunk_key
			from top
			join retrieval.search_chunks as sc using (text_hash)
			order by top.distance, sc.chunk_key
			limit ?`, lit, len(q), source, filter)
		rows, err := conn.QueryContext(ctx, q, s.provider.ModelID(), fetch, k)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var hits []Hit
		for rows.Next() {
			var h Hit
			if err := rows.Scan(&h.Score, &h.key); err != nil {
				return nil, err
			}
			h.Rank = len(hits) + 1
			h.VectorRank, h.VectorScore = h.Rank, h.Score
			hits = append(hits, h)
		}
		return hits, rows.Err()
	}
	hits, err := topK("", 4*k)
	if err != nil {
		return nil, fmt.Errorf("search: vector (has `docket build` built the embeddings layer?): %w", err)
	}
	if len(hits) < k {
		if hits, err = topK("and text_hash in (select text_hash from retrieval.search_chunks)", k); err != nil {
			return nil, fmt.Errorf("search: vector: %w", err)
		}
	}
	return hits, nil
}

// cite fills in what cites each hit (document, path, page, offsets,
// section, text), one equality lookup on chunk_key per hit in one query.
// A hit whose chunk is not found is dropped.
func (s *Searcher) cite(ctx context.Context, hits []Hit) ([]Hit, error) {
	if len(hits) == 0 {
		return hits, nil
	}
	if s.idx != nil {
		if out, ok, err := s.citeIndexed(hits); ok || err != nil {
			return out, err
		}
	}
	conn, err := s.sql(ctx)
	if err != nil {
		return nil, err
	}
	isTable, err := searchidx.IsTableSQL(ctx, conn)
	if err != nil {
		return nil, err
	}
	// Keys are written as literals: database/sql refuses uint64
	// parameters with the high bit set.
	parts := make([]string, len(hits))
	for i, h := range hits {
		parts[i] = `select chunk_key, chunk_id, doc_id, rel_path, source_uri, coalesce(title, ''), page_number,
			char_offset, char_end, coalesce(section_title, ''), text, ` + isTable + `
			from retrieval.search_chunks where chunk_key = ` + strconv.FormatUint(h.key, 10) + `::UBIGINT`
	}
	rows, err := conn.QueryContext(ctx, strings.Join(parts, "\nunion all\n"))
	if err != nil {
		return nil, fmt.Errorf("search: reading the hits' citations: %w", err)
	}
	defer rows.Close()
	byKey := make(map[uint64]Hit, len(hits))
	for rows.Next() {
		var h Hit
		if err := rows.Scan(&h.key, &h.ChunkID, &h.DocID, &h.Path, &h.URI, &h.Title, &h.Page, &h.CharOffset, &h.CharEnd, &h.Section, &h.Text, &h.Table); err != nil {
			return nil, err
		}
		byKey[h.key] = h
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := hits[:0]
	for _, h := range hits {
		c, ok := byKey[h.key]
		if !ok {
			continue
		}
		h.ChunkID, h.DocID, h.Path, h.URI, h.Title = c.ChunkID, c.DocID, c.Path, c.URI, c.Title
		h.Page, h.CharOffset, h.CharEnd, h.Section, h.Text = c.Page, c.CharOffset, c.CharEnd, c.Section, c.Text
		h.Table = c.Table
		h.Rank = len(out) + 1
		out = append(out, h)
	}
	return s.displayPaths(ctx, out), nil
}

// citeIndexed reads the hits' citations from the index; ok is false when
// one is missing there (then SQL is asked for all).
func (s *Searcher) citeIndexed(hits []Hit) ([]Hit, bool, error) {
	out := make([]Hit, 0, len(hits))
	for _, h := range hits {
		c, ok, err := s.idx.Cite(h.key)
		if err != nil || !ok {
			return nil, false, err
		}
		h.ChunkID, h.DocID, h.Path, h.URI, h.Title = c.ChunkID, c.DocID, c.Path, c.URI, c.Title
		h.Page, h.CharOffset, h.CharEnd, h.Section, h.Text = c.Page, c.CharOffset, c.CharEnd, c.Section, c.Text
		h.Table = c.Table
		h.DisplayPath = c.DisplayPath
		h.Rank = len(out) + 1
		out = append(out, h)
	}
	return out, true, nil
}

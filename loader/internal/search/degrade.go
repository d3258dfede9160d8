package search

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"strconv"

	"github.com/docket-dev/docket/loader/internal/embed"
)

// ErrStaleVectors is wrapped when the stored vectors cannot be compared
// with the query's: another length than the provider now returns.
var ErrStaleVectors = errors.New("stored vectors do not match the embedding provider")

// ErrVectorsUnavailable is wrapped when vector search cannot answer
// because the embedding provider failed (down, hung, misbehaving).
var ErrVectorsUnavailable = errors.New("vector search unavailable")

// rebuildHint is what fixes vectors of another model or size.
const rebuildHint = "run `docket build --full-refresh -s embeddings` to embed every chunk again with the configured provider"

var floatArrayRe = regexp.MustCompile(`^FLOAT\[(\d+)\]$`)

// storedDims is the length of embeddings.chunk_vectors.embedding (0 when
// the table or column is missing or not a fixed-size array).
func (s *Searcher) storedDims(ctx context.Context) int {
	var typ string
	conn, err := s.sql(ctx)
	if err != nil {
		return 0
	}
	err = conn.QueryRowContext(ctx, `select data_type from information_schema.columns
		where table_schema = 'embeddings' and table_name = 'chunk_vectors' and column_name = 'embedding'`).Scan(&typ)
	if err != nil {
		return 0
	}
	m := floatArrayRe.FindStringSubmatch(typ)
	if m == nil {
		return 0
	}
	d, _ := strconv.Atoi(m[1])
	return d
}

// checkDims fails with ErrStaleVectors when the query vector cannot be
// compared with the stored ones.
func (s *Searcher) checkDims(ctx context.Context, got int) error {
	if s.dims == 0 {
		s.dims = s.storedDims(ctx)
	}
	if s.dims != 0 && s.dims != got {
		return fmt.Errorf("search: %w: embeddings.chunk_vectors holds %d-dimensional vectors, provider %s (%s) gives %d: the embedding size changed since the last build; %s",
			ErrStaleVectors, s.dims, s.provider.Name(), s.provider.ModelID(), got, rebuildHint)
	}
	return nil
}

// coverage counts searchable chunks and those without a vector for the
// configured model, once per Searcher. Such chunks can only be found by
// BM25; a notice says how many. The build counts them in
// embeddings.vector_coverage; that row is used while the tables still
// have the counts it was made from (cheap: row counts and one integer
// column), and otherwise every chunk is looked up among the vectors.
func (s *Searcher) coverage(ctx context.Context) {
	if s.coverageDone || s.provider == nil {
		return
	}
	s.coverageDone = true
	model := s.provider.ModelID()
	var total, missing int64
	var err error
	if s.idx != nil && s.idx.Model() == model {
		total, missing = int64(s.idx.Chunks()), int64(s.idx.ChunksWithoutVector())
	} else {
		var conn *sql.Conn
		if conn, err = s.sql(ctx); err != nil {
			return
		}
		err = s.coverageSQL(ctx, conn, model, &total, &missing)
	}
	if err != nil || missing == 0 {
		return
	}
	s.Missing, s.Searchable = missing, total
	s.notices = append(s.notices, fmt.Sprintf("%d of %d chunks have no vector for %s (the embedding step failed or has not run since they arrived): they are found by BM25 only; run `docket build` to embed them",
		missing, total, model))
}

func (s *Searcher) coverageSQL(ctx context.Context, conn *sql.Conn, model string, total, missing *int64) error {
	err := conn.QueryRowContext(ctx, `select searchable_chunks, chunks_without_vector
		from embeddings.vector_coverage
		where model = ?
		  and searchable_chunks = (select count(*) from retrieval.search_chunks)
		  and searchable_terms = (select coalesce(sum(doc_length), 0) from retrieval.search_chunks)
		  and model_vectors = (select count(*) from embeddings.chunk_vectors where model = ?)`, model, model).Scan(total, missing)
	if err != nil {
		err = conn.QueryRowContext(ctx, `select count(*), count(*) filter (where text_hash not in (
				select text_hash from embeddings.chunk_vectors where model = ?))
			from retrieval.search_chunks`, model).Scan(total, missing)
	}
	return err
}

// providerFailed reports whether err came from the embedding provider
// rather than from the warehouse.
func providerFailed(err error) bool {
	var e *embed.Error
	return errors.As(err, &e) || errors.Is(err, ErrVectorsUnavailable) || errors.Is(err, context.DeadlineExceeded)
}

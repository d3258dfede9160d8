package searchidx

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// MemoryLimit is DuckDB's memory_limit on the connection an index is built
// from (the published copy, opened read-only by the command that
// published it). Its statements read a batch of chunks each (see
// BuildOptions.BatchChunks), a range of terms (BatchPostings) or a range
// of chunk_vectors rows: at 20k documents a build's peak RSS was 461 /
// 711 / 599 MiB (chunks / postings / vectors) at 512MB and 356 / 497 /
// 367 MiB at 256MB with the postings one statement; at 200k, 477 / 474 /
// 586 MiB with postings and vectors in ranges (474 / 2,014 / 1,808
// before).
const MemoryLimit = "256MB"

// LimitMemory gives the connection conn reads the index from DuckDB's
// memory_limit limit and has DuckDB's allocator hand freed memory back
// (as the build's connection does): the index's statements sort and join
// every posting and vector, and what DuckDB freed between them stayed
// cached per thread.
func LimitMemory(ctx context.Context, conn *sql.Conn, limit string) error {
	if err := warehouse.LimitMemory(ctx, conn, limit); err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	return nil
}

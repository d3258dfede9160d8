package searchidx

import (
	"context"
	"database/sql"
	"fmt"
)

// MemoryLimit is DuckDB's memory_limit on the connection an index is built
// from (the published copy, opened read-only by the command that
// published it). Its statements read a batch of chunks each (see
// BuildOptions.BatchChunks) or sort and spill (the postings): at 20k
// documents a build's peak RSS was 461 / 711 / 599 MiB (chunks / postings
// / vectors) at 512MB and 356 / 497 / 367 MiB at 256MB.
const MemoryLimit = "256MB"

// LimitMemory gives the connection conn reads the index from DuckDB's
// memory_limit limit and has DuckDB's allocator hand freed memory back
// (as the build's connection does): the index's statements sort and join
// every posting and vector, and what DuckDB freed between them stayed
// cached per thread.
func LimitMemory(ctx context.Context, conn *sql.Conn, limit string) error {
	for _, q := range []string{
		fmt.Sprintf(`set memory_limit = '%s'`, limit),
		`set allocator_background_threads = true`,
		`set allocator_flush_threshold = '32MB'`,
	} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("search index: DuckDB settings (%s): %w", q, err)
		}
	}
	return nil
}

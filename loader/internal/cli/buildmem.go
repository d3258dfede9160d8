package cli

import (
	"context"
	"fmt"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// limitBuildMemory sets DuckDB's memory_limit for every command that opens
// the warehouse (load, build/run/test/seed/snapshot, sql, search, docs,
// publish) from project.yaml build.memory_limit (default: 768MB or DuckDB's own default,
// whichever is smaller), so one huge document makes DuckDB spill instead of
// taking the machine; the spill files go under build.temp_directory, given
// to DuckDB when the warehouse opens (warehouse.Options.SpillDir).
// Go UDFs allocate outside this budget; the models keep their inputs
// bounded (see var max_page_chars in models/curated).
func limitBuildMemory(ctx context.Context, p *project.Project, db *warehouse.DB) (string, error) {
	limit := p.Build.MemoryLimit
	if limit == 0 {
		limit = project.DefaultBuildMemory
		var cur string
		if err := db.SQL().QueryRowContext(ctx, `select current_setting('memory_limit')`).Scan(&cur); err == nil {
			if d, err := project.ParseSize(cur); err == nil && d > 0 && d < limit {
				limit = d
			}
		}
	}
	setting := fmt.Sprintf("%dMiB", max(int64(limit)>>20, 64))
	if err := warehouse.LimitMemory(ctx, db.SQL(), setting); err != nil {
		return "", err
	}
	return setting, nil
}

// loadMemory gives DuckDB the settings of `docket load` and `docket
// land` beside loader.memory_limit (project.Loader.DuckDBMemory), which
// is set when the warehouse opens (openLoadWarehouse) so that a
// write-ahead log replay runs under it too, and only set here again when
// that replay had to run under DuckDB's default (fallback): the load only
// appends batches and merges them by key, and under the build's larger
// limit DuckDB's buffer pool kept what the load wrote cached, growing
// with the corpus.
//
// The other settings bound what DuckDB holds beyond that limit (50k small
// documents, 2 cores; peak RSS of the load was 683-692 MB): a checkpoint
// rewrites the last row group of every table appended to (up to 122,880
// rows, the whole of staging.pages at 50k documents), and at the default
// 16 MB WAL threshold that happened every few batches, each time
// +100-200 MB of RSS for ~10 s and a larger file (545 MB against 331 MB
// checkpointing at 1 GB of WAL); DuckDB's allocator keeps freed memory
// cached per thread unless told to flush it.
//
// A load does not checkpoint until its closing checkpoint
// (checkpointLoad), whatever its size: loadCheckpointWAL is a bound on
// the write-ahead log's disk, not a batch size. A second checkpoint in one
// run ramped the main process's memory at its end with or without key
// indexes (a first 200k load checkpointing at 1 GB of WAL and again when
// closing: 573 MiB; one closing checkpoint only: 382 MiB; keys25), as a
// 50k load checkpointing at 256 MB did (371 against 300 MiB; ckpt24).
// The price is disk: the WAL holds the whole load (~2 GB at 200k small
// documents) and DuckDB spills the appended rows it cannot keep under the
// limit to temp_directory until the closing checkpoint writes them.
func loadMemory(ctx context.Context, db *warehouse.DB, limit project.Size, fallback bool) error {
	setting := ""
	if fallback {
		setting = fmt.Sprintf("%dMiB", int64(limit)>>20)
	}
	return warehouse.LimitMemory(ctx, db.SQL(), setting, `set checkpoint_threshold = '`+loadCheckpointWAL+`'`)
}

// loadCheckpointWAL is the write-ahead log's size at which DuckDB
// checkpoints in the middle of a load (~16x what a 200k-document first
// load writes).
const loadCheckpointWAL = "32GB"

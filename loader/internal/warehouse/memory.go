package warehouse

import (
	"context"
	"database/sql"
	"fmt"
)

// LimitMemory sets DuckDB's memory_limit on ex (a connection, or the
// pool where every connection shares the database's settings), has
// DuckDB's allocator hand freed memory back, then applies the settings in
// more (last, so that they may change the allocator's too):
// it keeps freed memory cached per thread unless told to flush it (at 50k
// documents a full build's heavy phases held 90-300 MB less with these,
// peak 1,317 -> 1,112 MiB, same CPU). The load, the build and the search
// index's build each call it with their own limit. limit "" leaves
// memory_limit as it is (a load's, set when the warehouse opened:
// Options.MemoryLimit).
func LimitMemory(ctx context.Context, ex interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}, limit string, more ...string) error {
	var qs []string
	if limit != "" {
		qs = append(qs, fmt.Sprintf(`set memory_limit = '%s'`, limit))
	}
	qs = append(qs, `set allocator_background_threads = true`, `set allocator_flush_threshold = '32MB'`)
	qs = append(qs, more...)
	for _, q := range qs {
		if _, err := ex.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("DuckDB settings (%s): %w", q, err)
		}
	}
	return nil
}

// CheckpointLean writes the WAL into the file under a lower memory_limit
// than the load's (restore, bytes); `docket load` and `docket land` call
// it right before Close, whose own checkpoint then has nothing left to
// write. After a checkpoint that succeeded the lower limit stays: every
// `set memory_limit` makes DuckDB purge its allocator (Allocator::FlushAll),
// and raising the limit again only for Close cost ~65M instructions, 1.8 %
// of the main process of a load of the 149 bench-load PDFs (cachegrind,
// 3.62-3.65 -> 3.58 G). When the checkpoint failed, the load's limit is
// set again, so that Close's checkpoint runs under it. At the load's limit the closing checkpoint
// took DuckDB ~70-180 MB over it (first 50k load: 250 -> 324 MiB; 200k:
// 487-498 MiB). Under the lower limit DuckDB first evicts what its pool
// caches (the appended row groups spill to temp_directory): the closing
// checkpoint of a 50k load stayed <= 236 MiB.
//
// The lower limit is the key indexes' (ART) memory plus leanHeadroom, at
// least leanFloor: an ART DuckDB has not yet persisted cannot be evicted,
// and a limit DuckDB cannot free memory down to is refused (at 200k
// documents, 64MB was: "could not free up enough memory for the new
// limit"; the ART is ~110 MiB there, 30 at 50k). It does nothing when
// that limit would not be lower than restore, or when DuckDB refuses it.
//
// A checkpoint DuckDB cannot finish under the lowered limit is fatal to
// the open database, not an error to recover from: "failed to pin block
// of size 256.0 KiB (67.7 MiB/68.0 MiB used)", then every statement fails
// with "database has been invalidated" (DuckDB 1.5; seen with a 16 MiB
// headroom, ART 52 MiB, mid-way through a 200k load: the load ended with
// exit 1). Committed rows stay in the WAL, which the next open replays
// (85,493 documents there), and Close cannot checkpoint. So the headroom
// stays at 48 MiB: none of the 50k and 200k loads failed with it.
//
// It first turns DuckDB's dictionary compression off (leanCompression),
// for this checkpoint and for Close's when this one does not run.
func (w *DB) CheckpointLean(ctx context.Context, restore int64) error {
	if err := w.refuse(); err != nil {
		return err
	}
	if _, err := w.sql.ExecContext(ctx, leanCompression); err != nil {
		return fmt.Errorf("warehouse: checkpoint: %w", err)
	}
	var art int64
	if err := w.sql.QueryRowContext(ctx, `select coalesce(sum(memory_usage_bytes), 0)::bigint from duckdb_memory() where tag = 'ART_INDEX'`).Scan(&art); err != nil {
		return fmt.Errorf("warehouse: checkpoint: %w", err)
	}
	lean := max(int64(leanFloor), art+leanHeadroom)
	if lean >= restore {
		return nil
	}
	if _, err := w.sql.ExecContext(ctx, fmt.Sprintf(`set memory_limit = '%dMiB'`, lean>>20)); err != nil {
		return nil // DuckDB could not free enough: Close checkpoints at the load's limit
	}
	_, err := w.sql.ExecContext(ctx, `checkpoint`)
	if err == nil {
		return nil
	}
	w.sql.ExecContext(context.Background(), fmt.Sprintf(`set memory_limit = '%dMiB'`, restore>>20))
	return fmt.Errorf("warehouse: checkpoint: %w", err)
}

const (
	leanFloor    = 64 << 20
	leanHeadroom = 48 << 20
)

// leanCompression keeps a load's checkpoints from trying dictionary
// compression: to choose a column's compression, a checkpoint analyses
// each row group it writes, and the dictionary analysis copies every
// distinct string of the column into a heap of its own, outside
// memory_limit. A load's closing checkpoint writes whole row groups of
// 122,880 rows: for staging.pages' text (page texts, nearly all
// distinct: 520 MiB in the first row group at 200k small documents) that
// took RSS ~180 -> 383 MiB in the last ~15 s of a first 200k load, its
// peak (the execution stayed <= 346). The heap is bounded by a row group,
// not by the corpus, but grows with the page length.
//
// Without it (2026-12-05, mem27; loader/tools/MEASUREMENTS.md): the first
// 200k load 383.3 -> 344.6 MiB, now the execution's, its closing
// checkpoint <= 222 MiB; the first 50k load 303.0 / 299.4 -> 300.2 /
// 299.9 MiB, no more CPU; the file +5-6 % (200k 1,175 -> 1,244 MB, 50k
// 312 -> 329 MB): columns of a few values repeated (staging.elements'
// source_hash and section, statuses) are FSST-compressed instead.
// FSST's own analysis samples a quarter of the strings (the other ~50
// MiB of the ramp) and saves more than it costs (staging.pages alone:
// 658 -> 730 MB without it), so it stays.
const leanCompression = `set disabled_compression_methods = 'dictionary'`

// Memory is what DuckDB's buffer manager holds, by tag (duckdb_memory():
// IN_MEMORY_TABLE, ART_INDEX, OVERFLOW_STRINGS, ...), in memory and
// spilled to its temporary directory. It is DuckDB's pool only: memory
// DuckDB allocates outside its buffer manager (and its allocator's
// caches) is not in it.
type Memory struct {
	InMemory  map[string]int64 `json:"in_memory"`
	Temporary map[string]int64 `json:"temporary,omitempty"`
	Usage     int64            `json:"usage"` // the sum of InMemory
	// Reported is pragma database_size's memory_usage and memory_limit,
	// as DuckDB prints them ("123.4 MiB").
	Reported string `json:"reported,omitempty"`
	Limit    string `json:"limit,omitempty"`
}

// Memory reads DuckDB's memory by tag (see Memory); tags holding nothing
// are left out. It may run while another goroutine lands.
func (w *DB) Memory(ctx context.Context) (Memory, error) {
	m := Memory{InMemory: map[string]int64{}, Temporary: map[string]int64{}}
	rows, err := w.sql.QueryContext(ctx, `select tag, memory_usage_bytes, temporary_storage_bytes from duckdb_memory()`)
	if err != nil {
		return m, fmt.Errorf("warehouse: memory: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var tag string
		var mem, tmp int64
		if err := rows.Scan(&tag, &mem, &tmp); err != nil {
			return m, fmt.Errorf("warehouse: memory: %w", err)
		}
		if mem > 0 {
			m.InMemory[tag] = mem
			m.Usage += mem
		}
		if tmp > 0 {
			m.Temporary[tag] = tmp
		}
	}
	if err := rows.Err(); err != nil {
		return m, fmt.Errorf("warehouse: memory: %w", err)
	}
	err = w.sql.QueryRowContext(ctx, `select memory_usage, memory_limit from pragma_database_size() limit 1`).Scan(&m.Reported, &m.Limit)
	if err != nil {
		return m, fmt.Errorf("warehouse: memory: %w", err)
	}
	return m, nil
}

// bench-ckptmem replays DuckDB's side of a large first `docket load` in a
// few minutes, to measure what its checkpoints take (issue 15): it copies
// the rows of a loaded warehouse -copies times over into a fresh one
// (each copy's keys rewritten, spread like sha256s), in batches, under the
// load's memory settings, then checkpoints the way `docket load` closes.
// It prints the process's peak RSS (VmHWM, reset before the closing
// checkpoint) and duckdb_memory() after each copy and around that
// checkpoint, and the highest RSS and jemalloc allocated/resident bytes
// sampled (every 100 ms) since the previous line. -threshold sets
// checkpoint_threshold, -set any other DuckDB setting, -tables copies
// only the tables named.
//
//	go run ./loader/tools/bench-ckptmem -src P50K/warehouse.duckdb -out /tmp/x.duckdb -copies 4
//
// A first 50k load's warehouse copied 4 times (200k documents; 2 cores,
// load average ~17): the auto-checkpoint at ~1 GB of WAL reached 371-393
// MiB, the closing one 352 MiB under CheckpointLean (ART 65 MiB + 48);
// with -lean=false (and keys rewritten at the front: ART 71 MiB) 457 MiB.
// A real 200k load peaked at 438 and 487 MiB there; this process holds no
// Go heap to speak of (the load's: ~85 MiB in use at 200k documents).
//
// 2026-12-05 (ckpt24, 4 copies of a first 50k load, -lean=false, load
// average 13-21): jemalloc allocated peaked at 243 MiB (the 160 MiB limit
// + 83) in every checkpoint, at -threshold 1GB (mid-load 316, closing 327
// MiB RSS, file 1,790 MB) and at 256MB (308-335, closing 341 MiB, file
// 1,565 MB): the spike does not grow with the WAL a checkpoint writes. A
// real 50k load at 256MB went 301 -> 371 MiB with a file of 476 MB
// instead of 344, so the bench reproduces neither the file nor the real
// 200k load's closing spike (the key indexes', +210 MiB there).
//
// 2026-12-05 (mem27, a first 200k load's warehouse, -copies 1 -threshold
// 32GB, load average ~9): the closing checkpoint reached 348 MiB RSS
// (jemalloc 274 MiB), as the real load's end did (383); with
// -tables staging.pages alone 329-337. Its page-fault profile (perf
// record -e page-faults --call-graph dwarf) put 63 % of the faults in
// the dictionary compression's analysis (DictionaryAnalyzeState copying
// each distinct page text into a StringHeap) and 16 % in FSST's
// (a sample); with -set "disabled_compression_methods='dictionary'" 254
// MiB (jemalloc 146), the file 1,171 -> 1,242 MB: CheckpointLean now
// does that (warehouse.leanCompression).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/warehouse"
)

var start = time.Now()

func main() {
	src := flag.String("src", "", "a loaded warehouse (read only)")
	out := flag.String("out", "", "the warehouse to create (must not exist)")
	copies := flag.Int("copies", 4, "copies of src's rows")
	chunk := flag.Int("chunk", 1000, "rows per insert (a landing)")
	limit := flag.Int("limit", 160, "memory_limit in MiB (loader.memory_limit)")
	lean := flag.Bool("lean", true, "close with CheckpointLean; false: a plain checkpoint at -limit")
	threshold := flag.String("threshold", "1GB", "checkpoint_threshold (the load's: 1GB)")
	only := flag.String("tables", "", "copy only these landed tables (comma separated, e.g. staging.pages); all when empty")
	var sets multiFlag
	flag.Var(&sets, "set", "a DuckDB setting to apply after the load's, e.g. \"allocator_bulk_deallocation_flush_threshold='32MB'\" (repeatable)")
	flag.Parse()
	if *src == "" || *out == "" {
		flag.Usage()
		os.Exit(2)
	}
	if _, err := os.Stat(*out); err == nil {
		fail(fmt.Errorf("%s exists", *out))
	}
	more := []string{fmt.Sprintf(`set checkpoint_threshold = '%s'`, *threshold)}
	for _, v := range sets {
		more = append(more, "set "+v)
	}
	go sample()
	if *only != "" {
		landedTables = strings.Split(*only, ",")
	}
	if err := run(*src, *out, *copies, *chunk, int64(*limit)<<20, *lean, more); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench-ckptmem:", err)
	os.Exit(1)
}

func run(src, out string, copies, chunk int, limit int64, lean bool, more []string) error {
	ctx := context.Background()
	w, err := warehouse.Open(ctx, out, warehouse.Options{Threads: 1})
	if err != nil {
		return err
	}
	defer w.Close()
	if err := w.EnsureSchema(ctx); err != nil {
		return err
	}
	db := w.SQL()
	db.SetMaxOpenConns(1)
	if err := warehouse.LimitMemory(ctx, db, fmt.Sprintf("%dMiB", limit>>20), more...); err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, fmt.Sprintf(`attach '%s' as src (read_only)`, strings.ReplaceAll(src, "'", "''"))); err != nil {
		return err
	}
	tables, err := sourceTables(ctx, w)
	if err != nil {
		return err
	}
	for i := 0; i < copies; i++ {
		if err := copyOnce(ctx, w, tables, fmt.Sprintf("%02x", i), chunk); err != nil {
			return err
		}
		st, _ := os.Stat(out + ".wal")
		var wal int64
		if st != nil {
			wal = st.Size() >> 20
		}
		report(w, fmt.Sprintf("copy %d, WAL %d MiB", i+1, wal))
	}
	os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) // VmHWM from here
	report(w, "before the closing checkpoint")
	if lean {
		err = w.CheckpointLean(ctx, limit)
	} else {
		_, err = db.ExecContext(ctx, `checkpoint`)
	}
	report(w, fmt.Sprintf("after the closing checkpoint (lean %v, err %v)", lean, err))
	return err
}

package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// table is one landed table of the source and its select list, with
// %K% where a copy's key suffix goes.
type table struct {
	name string
	sel  string
	rows int64
}

// keyCols are the columns holding a document's or a content's key: a copy
// replaces their last two characters, so that its keys spread over the
// whole key index as a load's sha256s do (a prefix would put each copy in
// a subtree of its own, and the ART would stay smaller than a load's).
var keyCols = map[string]bool{"doc_id": true, "source_hash": true, "table_id": true, "child_hash": true, "parent_doc_id": true}

var landedTables = []string{"raw.documents", "raw.document_versions", "staging.pages", "staging.elements", "staging.tables",
	"staging.extractions", "staging.attachments", "staging.reviews", "ops.document_events"}

func sourceTables(ctx context.Context, w *warehouse.DB) ([]table, error) {
	var out []table
	for _, name := range landedTables {
		schema, tbl, _ := strings.Cut(name, ".")
		rows, err := w.SQL().QueryContext(ctx, `select column_name from duckdb_columns()
			where database_name = 'src' and schema_name = ? and table_name = ? and column_name <> 'element_id' order by column_index`, schema, tbl)
		if err != nil {
			return nil, err
		}
		var cols []string
		for rows.Next() {
			var c string
			if err := rows.Scan(&c); err != nil {
				rows.Close()
				return nil, err
			}
			if keyCols[c] {
				c = fmt.Sprintf(`case when %[1]s is null then null else %[1]s[1:length(%[1]s)-2] || '%%K%%' end as %[1]s`, c)
			}
			cols = append(cols, c)
		}
		rows.Close()
		t := table{name: name, sel: strings.Join(cols, ", ")}
		if err := w.SQL().QueryRowContext(ctx, `select count(*) from src.`+name).Scan(&t.rows); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// copyOnce inserts every source row once more, key suffix k, chunk rows
// of each table at a time, the tables in turn (as landings interleave).
func copyOnce(ctx context.Context, w *warehouse.DB, tables []table, k string, chunk int) error {
	var most int64
	for _, t := range tables {
		most = max(most, t.rows)
	}
	for off := int64(0); off < most; off += int64(chunk) {
		for _, t := range tables {
			if off >= t.rows {
				continue
			}
			q := fmt.Sprintf(`insert into %s by name select %s from src.%s where rowid >= %d and rowid < %d`,
				t.name, strings.ReplaceAll(t.sel, "%K%", k), t.name, off, off+int64(chunk))
			if _, err := w.SQL().ExecContext(ctx, q); err != nil {
				return fmt.Errorf("%s: %w", t.name, err)
			}
		}
	}
	return nil
}

// report prints the time, VmHWM/VmRSS and duckdb_memory()'s tags over 1
// MiB (in memory + in temp files).
func report(w *warehouse.DB, what string) {
	rss, hwm := vmStatus()
	vm := []string{fmt.Sprintf("VmHWM:%dkB", hwm>>10), fmt.Sprintf("VmRSS:%dkB", rss>>10)}
	var tags []string
	rows, err := w.SQL().Query(`select tag, memory_usage_bytes >> 20, temporary_storage_bytes >> 20 from duckdb_memory()
		where memory_usage_bytes + temporary_storage_bytes > 1 << 20 order by 2 desc`)
	if err == nil {
		for rows.Next() {
			var t string
			var m, tmp int64
			if rows.Scan(&t, &m, &tmp) == nil {
				tags = append(tags, fmt.Sprintf("%s=%d+%d", t, m, tmp))
			}
		}
		rows.Close()
	}
	fmt.Printf("%7.1fs %s: %s | %s\n         %s\n", time.Since(start).Seconds(), what, strings.Join(vm, " "), strings.Join(tags, " "), takePeaks())
}

// multiFlag is a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ", ") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// peaks are the highest RSS and jemalloc allocated/resident bytes seen by
// sample since the last report (which prints and resets them).
var peaks struct {
	sync.Mutex
	rss, jeAlloc, jeRes int64
}

// sample reads the resident set and DuckDB's jemalloc ten times a second.
func sample() {
	for range time.Tick(100 * time.Millisecond) {
		rss, _ := vmStatus()
		a := warehouse.Allocators()
		peaks.Lock()
		peaks.rss = max(peaks.rss, rss)
		peaks.jeAlloc = max(peaks.jeAlloc, a.JemallocAllocated)
		peaks.jeRes = max(peaks.jeRes, a.JemallocResident)
		peaks.Unlock()
	}
}

func takePeaks() string {
	peaks.Lock()
	defer peaks.Unlock()
	s := fmt.Sprintf("peak since last: rss %d MiB, jemalloc allocated %d MiB, resident %d MiB", peaks.rss>>20, peaks.jeAlloc>>20, peaks.jeRes>>20)
	peaks.rss, peaks.jeAlloc, peaks.jeRes = 0, 0, 0
	return s
}

// vmStatus reads VmRSS and VmHWM (bytes) from /proc/self/status.
func vmStatus() (rss, hwm int64) {
	b, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		var n int64
		fmt.Sscan(f[1], &n)
		switch f[0] {
		case "VmRSS:":
			rss = n << 10
		case "VmHWM:":
			hwm = n << 10
		}
	}
	return rss, hwm
}

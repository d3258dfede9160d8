//go:build linux && cgo

package warehouse

import (
	"context"
	"testing"
)

// TestAllocatorsRead: with DuckDB open and a table filled, the bundled
// jemalloc and glibc's malloc both report bytes in use. duckdb_je_mallctl
// is a weak symbol (a libduckdb without jemalloc still links): this fails
// if the weak reference no longer finds the bundled one, which would make
// --memory-trace's jemalloc figures zeros without a word.
func TestAllocatorsRead(t *testing.T) {
	db := openWithSchema(t)
	if _, err := db.SQL().ExecContext(context.Background(), `create temp table filler as select range::varchar || repeat('x', 100) as s from range(200000)`); err != nil {
		t.Fatal(err)
	}
	s := Allocators()
	if s.JemallocAllocated <= 0 || s.JemallocResident < s.JemallocAllocated/2 {
		t.Errorf("jemalloc: allocated %d, resident %d", s.JemallocAllocated, s.JemallocResident)
	}
	if s.GlibcInUse <= 0 || s.GlibcArena <= 0 {
		t.Errorf("glibc: in use %d, arena %d", s.GlibcInUse, s.GlibcArena)
	}
}

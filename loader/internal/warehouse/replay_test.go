package warehouse

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/document"
)

// leaveWAL lands docs documents of 4 KB (256 a batch) into a new
// warehouse at path and closes it without its closing checkpoint, as a
// killed load or one whose commit failed leaves it: every batch is in
// the write-ahead log only.
func leaveWAL(t *testing.T, path string, docs int) {
	t.Helper()
	ctx := context.Background()
	db, err := Open(ctx, path, Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.EnsureSchema(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL().ExecContext(ctx, `checkpoint`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL().ExecContext(ctx, `set checkpoint_threshold = '1GB'`); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(1))
	for n := 0; n < docs; n += 256 {
		if err := db.Land(ctx, "run", time.Now(), textLandings(r, n, min(256, docs-n)), nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.SQL().ExecContext(ctx, `pragma disable_checkpoint_on_shutdown`); err != nil {
		t.Fatal(err)
	}
	db.Close()
}

// TestReplayUnderMemoryLimit: a warehouse whose writer left its batches in
// the write-ahead log (here 10,000 documents, ~47 MB of WAL) opens under
// Options.MemoryLimit, DuckDB's memory_limit from the open on: the
// replay runs under it (oom21's re-open after a failed 100k load took
// 887 MiB under DuckDB's default). Under a limit the replay cannot work
// in (4 MiB: DuckDB says "Failure while replaying WAL file ... could not
// allocate block"), Open opens under DuckDB's default instead and says
// why in MemoryFallback. Either way every row is there, and stays after
// Close (whose checkpoint writes them into the file).
func TestReplayUnderMemoryLimit(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	src := filepath.Join(dir, "src.duckdb")
	const docs = 10000
	leaveWAL(t, src, docs)
	if st, err := os.Stat(src + ".wal"); err != nil || st.Size() < 20<<20 {
		t.Fatalf("the writer left no large WAL (%v): nothing to replay", err)
	}
	count := func(db *DB) int {
		t.Helper()
		var n int
		if err := db.SQL().QueryRowContext(ctx, `select count(*) from raw.documents d join staging.pages p using (source_hash)`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, c := range []struct {
		mib      int64
		fallback bool
	}{{64, false}, {4, true}} {
		p := filepath.Join(dir, fmt.Sprintf("w%d.duckdb", c.mib))
		copyTestFile(t, src, p)
		copyTestFile(t, src+".wal", p+".wal")
		db, err := Open(ctx, p, Options{Threads: 1, MemoryLimit: c.mib << 20})
		if err != nil {
			t.Fatalf("open under %d MiB: %v", c.mib, err)
		}
		var limit string
		if err := db.SQL().QueryRowContext(ctx, `select current_setting('memory_limit')`).Scan(&limit); err != nil {
			t.Fatal(err)
		}
		switch {
		case !c.fallback && (db.MemoryFallback != nil || limit != fmt.Sprintf("%d.0 MiB", c.mib)):
			t.Errorf("opened under %d MiB: memory_limit %s, fallback %v; want the replay under the limit", c.mib, limit, db.MemoryFallback)
		case c.fallback && (db.MemoryFallback == nil || !outOfMemory(db.MemoryFallback)):
			t.Errorf("opened under %d MiB: fallback %v (memory_limit %s); want the replay to run out of memory, then the open under DuckDB's default", c.mib, db.MemoryFallback, limit)
		}
		if n := count(db); n != docs {
			t.Errorf("opened under %d MiB: %d documents with their page, want %d", c.mib, n, docs)
		}
		db.Close()
		db, err = Open(ctx, p, Options{Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		if n := count(db); n != docs {
			t.Errorf("opened under %d MiB, closed, reopened: %d documents with their page, want %d", c.mib, n, docs)
		}
		db.Close()
	}
}

// textLandings are n new landed documents, numbered from from, each one
// page of 4,000 random letters.
func textLandings(r *rand.Rand, from, n int) []Landing {
	var b []Landing
	for i := from; i < from+n; i++ {
		text := make([]byte, 4000)
		for j := range text {
			text[j] = byte('a' + r.Intn(26))
		}
		res := &document.Result{Type: "text", ExtractorVersion: "t", Pages: []document.Page{{Number: 1, Text: string(text), Method: document.MethodTextLayer}}}
		b = append(b, Landing{Doc: DocRow{DocID: hashHex("doc", fmt.Sprint(i)), SourceName: "s", RelPath: fmt.Sprintf("d%06d.txt", i), URI: "file:///x",
			Hash: hashHex("content", fmt.Sprint(i)), DetectedType: "text", Status: StatusLanded}, Event: "new", Content: res, Extracted: true})
	}
	return b
}

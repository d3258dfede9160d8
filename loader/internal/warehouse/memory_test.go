package warehouse

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// TestCheckpointLean: CheckpointLean writes the WAL into the file (empty
// afterwards, although DuckDB's own threshold is 1GB), memory_limit stays
// the lower one (Close comes next and has nothing to write: raising it
// again purged DuckDB's allocator for nothing), and every row is there; a
// lean limit that would not be lower than the load's checkpoints nothing
// and leaves the load's limit.
func TestCheckpointLean(t *testing.T) {
	ctx := context.Background()
	db := openWithSchema(t)
	if err := LimitMemory(ctx, db.SQL(), "160MiB", `set checkpoint_threshold = '1GB'`); err != nil {
		t.Fatal(err)
	}
	limit := func() string {
		t.Helper()
		var s string
		if err := db.SQL().QueryRowContext(ctx, `select current_setting('memory_limit')`).Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	before := limit()
	batch := func(run string, from int) []Landing {
		var b []Landing
		for i := from; i < from+50; i++ {
			id := fmt.Sprintf("d%03d", i)
			b = append(b, Landing{Doc: DocRow{DocID: id, SourceName: "s", RelPath: id + ".txt", URI: "file:///" + id, Hash: "h" + id,
				Status: StatusQuarantined, ErrorKind: "empty"}, Event: "new"})
		}
		return b
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := db.Land(ctx, "r1", t0, batch("r1", 0), nil); err != nil {
		t.Fatal(err)
	}
	if db.walSize() == 0 {
		t.Fatal("the landing left no WAL: nothing to test")
	}
	if err := db.CheckpointLean(ctx, 64<<20); err != nil {
		t.Fatal(err)
	}
	if db.walSize() == 0 {
		t.Error("CheckpointLean checkpointed under a limit no lower than the load's 64MiB")
	}
	if got := limit(); got != before {
		t.Errorf("memory_limit after no checkpoint: %s, want the load's %s", got, before)
	}
	if err := db.Land(ctx, "r1", t0.Add(time.Second), batch("r1", 50), nil); err != nil {
		t.Fatal(err)
	}
	if err := db.CheckpointLean(ctx, 160<<20); err != nil {
		t.Fatal(err)
	}
	if n := db.walSize(); n != 0 {
		t.Errorf("WAL after CheckpointLean: %d bytes, want 0 (checkpointed)", n)
	}
	if got := limit(); got == before {
		t.Errorf("memory_limit after the checkpoint: %s, the load's: raised again before Close", got)
	}
	var n int
	if err := db.SQL().QueryRowContext(ctx, `select count(*) from raw.documents`).Scan(&n); err != nil || n != 100 {
		t.Errorf("raw.documents: %d rows (%v), want 100", n, err)
	}
}

// TestCheckpointLeanWithoutDictionary: the closing checkpoint compresses
// without DuckDB's dictionary compression (its analysis copies every
// distinct string of a row group's column: at 200k documents ~200 MiB
// outside memory_limit at the end of the load, for staging.pages' text),
// and leaves it off for Close's checkpoint. Columns of a few values
// repeated (a document's status and error kind) are what DuckDB
// dictionary-compresses; without the setting they are (checked).
func TestCheckpointLeanWithoutDictionary(t *testing.T) {
	ctx := context.Background()
	db := openWithSchema(t)
	if err := LimitMemory(ctx, db.SQL(), "160MiB", `set checkpoint_threshold = '1GB'`); err != nil {
		t.Fatal(err)
	}
	kinds := []string{"empty", "too_large", "unreadable", "encrypted"}
	var b []Landing
	for i := 0; i < 3000; i++ {
		id := fmt.Sprintf("d%05d", i)
		b = append(b, Landing{Doc: DocRow{DocID: id, SourceName: "s", RelPath: id + ".txt", URI: "file:///" + id, Hash: "h" + id,
			Status: StatusQuarantined, ErrorKind: kinds[i*7%len(kinds)], ErrorMessage: "the file is " + kinds[i*7%len(kinds)]}, Event: "new"})
	}
	if err := db.Land(ctx, "r1", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), b, nil); err != nil {
		t.Fatal(err)
	}
	if err := db.CheckpointLean(ctx, 160<<20); err != nil {
		t.Fatal(err)
	}
	if n := db.walSize(); n != 0 {
		t.Fatalf("WAL after CheckpointLean: %d bytes, want 0 (checkpointed)", n)
	}
	var dict int
	var setting string
	if err := db.SQL().QueryRowContext(ctx, `select count(*) from pragma_storage_info('raw.documents') where compression = 'Dictionary'`).Scan(&dict); err != nil {
		t.Fatal(err)
	}
	if dict != 0 {
		t.Errorf("%d dictionary-compressed segments in raw.documents after the closing checkpoint, want none", dict)
	}
	if err := db.SQL().QueryRowContext(ctx, `select current_setting('disabled_compression_methods')`).Scan(&setting); err != nil {
		t.Fatal(err)
	}
	if !strings.EqualFold(setting, "dictionary") {
		t.Errorf("disabled_compression_methods after the closing checkpoint: %q, want dictionary (for Close's checkpoint too)", setting)
	}
}

// walSize is the size of the warehouse's WAL file (0 when none).
func (w *DB) walSize() int64 {
	st, err := os.Stat(w.Path + ".wal")
	if err != nil {
		return 0
	}
	return st.Size()
}

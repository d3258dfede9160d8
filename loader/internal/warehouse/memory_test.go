package warehouse

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"
)

// TestCheckpointLean: CheckpointLean writes the WAL into the file (empty
// afterwards, although DuckDB's own threshold is 1GB), memory_limit is the
// load's again, and every row is there; a lean limit that would not be
// lower than the load's checkpoints nothing.
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
	if err := db.Land(ctx, "r1", t0.Add(time.Second), batch("r1", 50), nil); err != nil {
		t.Fatal(err)
	}
	if err := db.CheckpointLean(ctx, 160<<20); err != nil {
		t.Fatal(err)
	}
	if n := db.walSize(); n != 0 {
		t.Errorf("WAL after CheckpointLean: %d bytes, want 0 (checkpointed)", n)
	}
	if got := limit(); got != before {
		t.Errorf("memory_limit after the checkpoint: %s, want the load's %s", got, before)
	}
	var n int
	if err := db.SQL().QueryRowContext(ctx, `select count(*) from raw.documents`).Scan(&n); err != nil || n != 100 {
		t.Errorf("raw.documents: %d rows (%v), want 100", n, err)
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

package warehouse

import (
	"context"
	"path/filepath"
	"testing"
)

// TestCheckpointsKeepOldReadersWorking: every warehouse connection, writing
// or reading, checkpoints without reusing the previous checkpoint's table
// metadata, the layout DuckDB 1.1.2 cannot read (see metadataReuseOff;
// the README notebook test in loader/internal/cli opens the result in 1.1.2).
func TestCheckpointsKeepOldReadersWorking(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "w.duckdb")
	for _, ro := range []bool{false, true} {
		db, err := Open(ctx, path, Options{ReadOnly: ro})
		if err != nil {
			t.Fatal(err)
		}
		var reuse bool
		if err := db.SQL().QueryRow(`select current_setting('experimental_metadata_reuse')`).Scan(&reuse); err != nil {
			t.Fatal(err)
		}
		db.Close()
		if reuse {
			t.Fatalf("read-only %v: the warehouse is open with experimental_metadata_reuse on", ro)
		}
	}
}

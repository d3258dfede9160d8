package warehouse

import (
	"context"
	"testing"
)

// TestScratchMemoryLimit: a shard's scratch database (docket load --plan
// --shard) runs under the memory_limit it is given (loader.memory_limit),
// not DuckDB's default of 80 % of the machine.
func TestScratchMemoryLimit(t *testing.T) {
	ctx := context.Background()
	s, err := OpenScratch(ctx, t.TempDir(), 96<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var got string
	if err := s.db.sql.QueryRowContext(ctx, `select current_setting('memory_limit')`).Scan(&got); err != nil {
		t.Fatal(err)
	}
	if got != "96.0 MiB" {
		t.Errorf("scratch memory_limit %s, want 96.0 MiB", got)
	}
}

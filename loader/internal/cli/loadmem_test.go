package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// TestLoadMemoryLimit: the warehouse a load opens (openLoadWarehouse)
// gives DuckDB loader.memory_limit (160MB by default), not the build's
// limit, and raises a setting too small for DuckDB to 64MB with a
// warning; it does not checkpoint before its closing checkpoint (32GB of
// WAL, a disk bound: a second checkpoint in one run ramped its memory)
// and has the allocator flush freed memory. The limit is set once, when the warehouse opens: before, the
// open set it, then the build's limit, then applyLoadMemory the load's
// again with the other settings, which the open alone left out.
func TestLoadMemoryLimit(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		yaml, want, warn string
	}{
		{"", "160.0 MiB", ""},
		{"loader:\n  memory_limit: 512MB\n", "512.0 MiB", ""},
		{"loader:\n  memory_limit: 16MB\n", "64.0 MiB", "too small"},
	}
	for _, c := range cases {
		dir := t.TempDir()
		p, err := project.Parse(filepath.Join(dir, "project.yaml"), []byte("version: 1\nbuild:\n  memory_limit: 1GB\n"+c.yaml))
		if err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		db, _, code := openLoadWarehouse(ctx, p, &stderr)
		if db == nil {
			t.Fatalf("%q: exit %d: %s", c.yaml, code, stderr.String())
		}
		var got, ckpt, flush string
		var background bool
		if err := db.SQL().QueryRowContext(ctx, `select current_setting('memory_limit'), current_setting('checkpoint_threshold'),
			current_setting('allocator_flush_threshold'), current_setting('allocator_background_threads')`).Scan(&got, &ckpt, &flush, &background); err != nil {
			t.Fatal(err)
		}
		db.Close()
		if ckpt != "29.8 GiB" {
			t.Errorf("%q: checkpoint_threshold %s, want %s (29.8 GiB): a second checkpoint in one load ramps its memory", c.yaml, ckpt, loadCheckpointWAL)
		}
		if flush != "30.5 MiB" || !background {
			t.Errorf("%q: allocator_flush_threshold %s, background threads %v, want 32MB (30.5 MiB) and true", c.yaml, flush, background)
		}
		if got != c.want {
			t.Errorf("%q: memory_limit %s, want %s", c.yaml, got, c.want)
		}
		if warn := stderr.String(); (c.warn == "") != (warn == "") || !strings.Contains(warn, c.warn) {
			t.Errorf("%q: warning %q, want one containing %q", c.yaml, warn, c.warn)
		}
	}
}

// TestBuildMemoryLimit: the model commands give DuckDB build.memory_limit,
// 768MB when project.yaml does not say (1GB left a 50k-document build's
// peak RSS over 1.5 GB: DuckDB holds 250-550 MB outside its limit), and
// have its allocator flush freed memory (background threads, 32MB).
func TestBuildMemoryLimit(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ yaml, want string }{
		{"", "768.0 MiB"},
		{"build:\n  memory_limit: 2GB\n", "2.0 GiB"},
	} {
		dir := t.TempDir()
		p, err := project.Parse(filepath.Join(dir, "project.yaml"), []byte("version: 1\n"+c.yaml))
		if err != nil {
			t.Fatal(err)
		}
		db, err := warehouse.Open(ctx, p.Warehouse, warehouse.Options{})
		if err != nil {
			t.Fatal(err)
		}
		setting, err := limitBuildMemory(ctx, p, db)
		if err != nil {
			t.Fatal(err)
		}
		var got, flush string
		var background bool
		if err := db.SQL().QueryRowContext(ctx, `select current_setting('memory_limit'), current_setting('allocator_flush_threshold'),
			current_setting('allocator_background_threads')`).Scan(&got, &flush, &background); err != nil {
			t.Fatal(err)
		}
		db.Close()
		if got != c.want {
			t.Errorf("%q: memory_limit %s (set as %s), want %s", c.yaml, got, setting, c.want)
		}
		if flush != "30.5 MiB" || !background {
			t.Errorf("%q: allocator_flush_threshold %s, background threads %v, want 32MB (30.5 MiB) and true", c.yaml, flush, background)
		}
	}
}

// When the write-ahead log had to be replayed under DuckDB's default
// limit (warehouse.DB.MemoryFallback), the load's limit is set after the
// open; otherwise the one the open set stays.
func TestLoadMemoryAfterFallback(t *testing.T) {
	ctx := context.Background()
	db, err := warehouse.Open(ctx, filepath.Join(t.TempDir(), "w.duckdb"), warehouse.Options{MemoryLimit: 200 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, c := range []struct {
		fallback bool
		want     string
	}{{false, "200.0 MiB"}, {true, "160.0 MiB"}} {
		if err := loadMemory(ctx, db, 160<<20, c.fallback); err != nil {
			t.Fatal(err)
		}
		var got string
		if err := db.SQL().QueryRowContext(ctx, `select current_setting('memory_limit')`).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("fallback %v: memory_limit %s, want %s", c.fallback, got, c.want)
		}
	}
}

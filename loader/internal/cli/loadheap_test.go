package cli_test

import (
	"io"
	"os"
	"path/filepath"
	"runtime/metrics"
	"testing"

	"github.com/docket-dev/docket/loader/internal/cli"
	"github.com/docket-dev/docket/loader/internal/workercmd"
)

// TestLoadGivesTheHeapBack: once the load is done, docket load returns
// its Go heap to the system (a forced collection) before closing the
// warehouse, whose closing checkpoint is the load's peak: at 200k
// documents the heap still held ~220 MB there.
func TestLoadGivesTheHeapBack(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "docs", "a.txt"), []byte("A document of a few words.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	yaml := "version: 1\nwarehouse: warehouse.duckdb\nsources:\n  - name: docs\n    path: docs\nloader:\n  workers: 1\n"
	if err := os.WriteFile(filepath.Join(dir, "project.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DOCKET_TEST_AS_DOCKET", "1") // the workers: this binary as docket
	cli.InProcessWorker = workercmd.Main
	defer func() { cli.InProcessWorker = nil }()
	forced := func() uint64 {
		s := []metrics.Sample{{Name: "/gc/cycles/forced:gc-cycles"}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	before := forced()
	if code := cli.Main([]string{"load", "--quiet", "--project", dir}, io.Discard, io.Discard); code != 0 {
		t.Fatalf("docket load: exit %d", code)
	}
	if forced() == before {
		t.Error("docket load closed the warehouse without giving its heap back (no forced collection)")
	}
}

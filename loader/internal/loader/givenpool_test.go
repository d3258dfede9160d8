package loader_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/docket-dev/docket/loader/internal/loader"
)

// TestLoadUsesTheGivenPool: a pool made by NewPool and started before
// Load (as `docket load` starts a first load's workers before it opens
// the warehouse) is the load's: no other worker starts during it, and
// Load closes it.
func TestLoadUsesTheGivenPool(t *testing.T) {
	dir := t.TempDir()
	inbox := filepath.Join(dir, "inbox")
	os.MkdirAll(inbox, 0o755)
	for _, name := range []string{"a.txt", "b.txt"} {
		os.WriteFile(filepath.Join(inbox, name), []byte("A document of a few words about "+name+".\n"), 0o644)
	}
	os.WriteFile(filepath.Join(dir, "project.yaml"), []byte("version: 1\nwarehouse: warehouse.duckdb\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 1\n"), 0o644)
	l := newInProcess(t, dir)
	opts := loader.Options{Project: l.p, WorkerCommand: []string{l.exe, "worker"}, WorkerEnv: []string{"DOCKET_TEST_AS_DOCKET=1"}}
	before := children(t)
	opts.Pool = loader.NewPool(opts)
	opts.Pool.Warm()
	if n := children(t) - before; n != 1 {
		t.Fatalf("%d worker(s) running after the pool was warmed, want 1", n)
	}
	var mu sync.Mutex
	most := 0
	seen := func() {
		n := children(t) - before
		mu.Lock()
		most = max(most, n)
		mu.Unlock()
	}
	opts.Phase = func(string) { seen() }
	opts.Progress = func(loader.Progress) { seen() }
	sum, err := loader.Load(context.Background(), l.db, opts)
	if err != nil {
		t.Fatal(err)
	}
	if sum.New != 2 || sum.Landed != 2 {
		t.Errorf("new %d, landed %d, want 2, 2", sum.New, sum.Landed)
	}
	if most != 1 {
		t.Errorf("at most %d worker(s) running during the load, want 1 (the given pool's, loader.workers 1)", most)
	}
	if n := children(t) - before; n != 0 {
		t.Errorf("%d worker(s) still running after Load, want the given pool closed", n)
	}
}

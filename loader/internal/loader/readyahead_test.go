package loader_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/loader"
	"github.com/docket-dev/docket/loader/internal/worker"
)

// envWaitFor ("NAME=FILE") makes the worker given document NAME wait
// until FILE exists (for at most waitForAtMost, then it writes
// FILE.late and goes on).
const envWaitFor = "DOCKET_TEST_WORKER_WAIT_FOR"

const waitForAtMost = 30 * time.Second

// waitFor is the worker's hook for envWaitFor.
func waitFor(spec string) func(worker.Request) {
	name, file, _ := strings.Cut(spec, "=")
	return func(r worker.Request) {
		if r.Name != name {
			return
		}
		for end := time.Now().Add(waitForAtMost); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
			if _, err := os.Stat(file); err == nil {
				return
			}
		}
		os.WriteFile(file+".late", nil, 0o644)
	}
}

// TestNextFileTakenWhileTheWorkerExtracts: while the one worker
// extracts the first file, the execution takes the second (reads, hashes
// and detects it, ready for the worker), instead of only once the worker
// is free again. The worker holds the first file until the second is
// taken (Hooks.At "extract:2"); a load that takes the next file only for
// a free worker makes it wait in vain.
func TestNextFileTakenWhileTheWorkerExtracts(t *testing.T) {
	dir := t.TempDir()
	inbox := filepath.Join(dir, "inbox")
	os.MkdirAll(inbox, 0o755)
	// Biggest first: big.txt is the first file handed out.
	os.WriteFile(filepath.Join(inbox, "big.txt"), []byte(strings.Repeat("A longer document, handed out first.\n", 20)), 0o644)
	os.WriteFile(filepath.Join(inbox, "small.txt"), []byte("A short one.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "project.yaml"), []byte("version: 1\nwarehouse: warehouse.duckdb\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 1\n  timeout: 120s\n"), 0o644)
	taken := filepath.Join(dir, "taken-2")
	var mu sync.Mutex
	landedAtTake := -1
	landed := 0
	loader.Hooks.At = func(point string) {
		if point == "extract:2" {
			mu.Lock()
			landedAtTake = landed
			mu.Unlock()
			os.WriteFile(taken, nil, 0o644)
		}
	}
	defer func() { loader.Hooks.At = nil }()
	l := newInProcess(t, dir)
	opts := loader.Options{Project: l.p, WorkerCommand: []string{l.exe, "worker"},
		WorkerEnv: []string{"DOCKET_TEST_AS_DOCKET=1", envWaitFor + "=big.txt=" + taken}}
	opts.Progress = func(loader.Progress) {
		mu.Lock()
		landed++
		mu.Unlock()
	}
	sum, err := loader.Load(context.Background(), l.db, opts)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Landed != 2 {
		t.Fatalf("landed %d, want 2", sum.Landed)
	}
	if _, err := os.Stat(taken + ".late"); err == nil {
		t.Errorf("the worker held big.txt for %s and small.txt was not taken meanwhile: the next file waits for a free worker", waitForAtMost)
	}
	if landedAtTake != 0 {
		t.Errorf("%d document(s) done when small.txt was taken, want 0 (taken while big.txt was extracted)", landedAtTake)
	}
}

package cli

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/loader"
	"github.com/docket-dev/docket/loader/internal/project"
)

// TestFirstLoadWorkersStartBeforeTheWarehouse: when the warehouse file
// does not exist (a first load), firstLoadWorkers starts the workers at
// once, with nothing asked of them yet and without creating the file;
// when it exists, it starts none (the load starts them once its plan has
// a file to extract).
func TestFirstLoadWorkersStartBeforeTheWarehouse(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "inbox"), 0o755)
	os.WriteFile(filepath.Join(dir, "inbox", "note.txt"), []byte("A note.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "project.yaml"), []byte("version: 1\nsources:\n  - {name: inbox, path: inbox}\n"), 0o644)
	p, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	p.Loader.Workers = 1
	marker := filepath.Join(t.TempDir(), "started")
	script := filepath.Join(t.TempDir(), "worker.sh")
	os.WriteFile(script, []byte("#!/bin/sh\ntouch '"+marker+"'\nexec sleep 30\n"), 0o755)
	opts := loader.Options{Project: p, WorkerCommand: []string{script}}

	pool := firstLoadWorkers(opts)
	if pool == nil {
		t.Fatalf("no workers started for a warehouse that does not exist (%s)", p.Warehouse)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(marker); err == nil {
			break
		}
		if time.Now().After(deadline) {
			pool.Close()
			t.Fatal("the worker did not start")
		}
		time.Sleep(10 * time.Millisecond)
	}
	pool.Close()
	if _, err := os.Stat(p.Warehouse); err == nil {
		t.Errorf("firstLoadWorkers created %s", p.Warehouse)
	}

	os.WriteFile(p.Warehouse, nil, 0o644) // a warehouse there: not a first load
	os.Remove(marker)
	if pool := firstLoadWorkers(opts); pool != nil {
		pool.Close()
		t.Errorf("workers started before opening an existing warehouse")
	}
}

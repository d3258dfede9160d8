package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFindWorker(t *testing.T) {
	dir := t.TempDir()
	bin, other, pathDir := filepath.Join(dir, "bin"), filepath.Join(dir, "elsewhere"), filepath.Join(dir, "path")
	for _, d := range []string{bin, other, pathDir} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path string, mode os.FileMode) {
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	docket := filepath.Join(bin, "docket")
	write(docket, 0o755)
	noPath := func(string) (string, error) { return "", errors.New("not on PATH") }
	onPath := func(name string) (string, error) { return filepath.Join(pathDir, name), nil }

	// Nothing beside docket, nothing on PATH: the error says how to build it.
	if _, err := findWorker(docket, "", noPath); err == nil || !strings.Contains(err.Error(), "make build") {
		t.Fatalf("no worker anywhere: err = %v", err)
	}
	// A file that is not executable does not count.
	write(filepath.Join(bin, WorkerName), 0o644)
	if got, err := findWorker(docket, "", onPath); err != nil || got != filepath.Join(pathDir, WorkerName) {
		t.Fatalf("non-executable beside docket: got %q, %v; want the one on PATH", got, err)
	}
	// Beside docket wins over PATH.
	if err := os.Chmod(filepath.Join(bin, WorkerName), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := findWorker(docket, "", onPath); err != nil || got != filepath.Join(bin, WorkerName) {
		t.Fatalf("beside docket: got %q, %v", got, err)
	}
	// docket run through a symlink elsewhere: the worker beside the real binary.
	link := filepath.Join(other, "docket")
	if err := os.Symlink(docket, link); err != nil {
		t.Fatal(err)
	}
	if got, err := findWorker(link, "", noPath); err != nil || got != filepath.Join(bin, WorkerName) {
		t.Fatalf("through a symlink: got %q, %v", got, err)
	}
	// DOCKET_WORKER overrides, and must name an executable.
	custom := filepath.Join(other, "my-worker")
	if _, err := findWorker(docket, custom, onPath); err == nil || !strings.Contains(err.Error(), "DOCKET_WORKER") {
		t.Fatalf("missing override: err = %v", err)
	}
	write(custom, 0o755)
	if got, err := findWorker(docket, custom, onPath); err != nil || got != custom {
		t.Fatalf("override: got %q, %v", got, err)
	}
}

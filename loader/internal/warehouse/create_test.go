package warehouse

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestCreateAtomically: a new warehouse is made under a name of its own and
// linked into place whole (a process killed while DuckDB wrote a new file's
// headers left a file no later open accepted); no creation file stays
// behind, a stale one a killed process left is removed, and an existing
// file is left alone.
func TestCreateAtomically(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "warehouse.duckdb")
	stale := path + ".creating-1-1"
	if err := os.WriteFile(stale, []byte("half"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * time.Minute)
	os.Chtimes(stale, old, old)
	fresh := path + ".creating-2-2" // another process creating right now
	os.WriteFile(fresh, nil, 0o644)

	if err := createAtomically(path); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Size() < 4096 {
		t.Fatalf("no whole database at %s: %v %v", path, fi, err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("a stale creation file was left")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Error("a fresh creation file (another process's) was removed")
	}
	if m, _ := filepath.Glob(path + ".creating-*"); len(m) != 1 {
		t.Errorf("creation files left: %v", m)
	}
	w, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatalf("the created file does not open: %v", err)
	}
	if _, err := w.sql.Exec("create table t as select 1 as x"); err != nil {
		t.Fatal(err)
	}
	w.Close()
	before, _ := os.ReadFile(path)
	if err := createAtomically(path); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("an existing warehouse was touched")
	}
}

// TestStaleCreationsSweptWhenTheWarehouseExists: a creation file a killed
// process left (here a second name of the live warehouse, as a kill after
// the link leaves it) is removed by the next writer's open even though the
// warehouse now exists, and in a folder whose name reads as a glob pattern
// (review44's two LOWs on f6a1bfe: the sweep ran only before a creation and
// through filepath.Glob, which matched nothing under "proj [2024]").
func TestStaleCreationsSweptWhenTheWarehouseExists(t *testing.T) {
	for _, folder := range []string{"plain", "proj [2024]", "a*b"} {
		dir := filepath.Join(t.TempDir(), folder)
		path := filepath.Join(dir, "warehouse.duckdb")
		w, err := Open(context.Background(), path, Options{})
		if err != nil {
			t.Fatalf("%s: %v", folder, err)
		}
		w.Close()
		stale := path + ".creating-7-7"
		if err := os.Link(path, stale); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-2 * time.Minute)
		os.Chtimes(stale, old, old)
		w, err = Open(context.Background(), path, Options{})
		if err != nil {
			t.Fatalf("%s: reopen: %v", folder, err)
		}
		w.Close()
		if _, err := os.Lstat(stale); err == nil {
			t.Errorf("%s: a stale creation file stayed beside the existing warehouse", folder)
		}
		if _, err := os.Stat(path); err != nil {
			t.Errorf("%s: the warehouse went with it: %v", folder, err)
		}
	}
}

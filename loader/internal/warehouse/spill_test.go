package warehouse

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestSpillDirNotRemovedByStaleClearer: a process clearing stale spill
// folders locks one, then removes it by its path. An open in another
// process meanwhile must not make a folder at that path: here the stale
// folder is one an earlier process with this PID left (PID reuse), named
// as this process's next folder was before (docket-PID-N), and the clearer holds
// its lock while this process opens. The new folder must survive the
// clearer's removal and still be locked.
func TestSpillDirNotRemovedByStaleClearer(t *testing.T) {
	parent := t.TempDir()
	stale := filepath.Join(parent, fmt.Sprintf("%s%d-%d", spillPrefix, os.Getpid(), spillSeq.Load()+1))
	if err := os.Mkdir(stale, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(stale, "duckdb_temp_block-1.block"), []byte("old"), 0o644)
	// the clearer: locked the stale folder (ClearStaleSpill's first step)
	f, err := os.Open(stale)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	s, err := newSpillDir(parent)
	if err != nil {
		t.Fatal(err)
	}
	defer s.remove()
	// the clearer goes on: removes what it locked, by its path
	os.RemoveAll(stale)
	f.Close()
	if _, err := os.Stat(s.path); err != nil {
		t.Fatalf("the open's spill folder was removed by the clearer of a stale one: %v", err)
	}
	g, err := os.Open(s.path)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if unix.Flock(int(g.Fd()), unix.LOCK_EX|unix.LOCK_NB) == nil {
		t.Errorf("%s is not locked by its open", s.path)
	}
}

// TestSpillDirPerOpen: a writer and a reader opened with the same
// SpillDir each spill into a folder of their own under it (DuckDB's
// temp_directory, set when it opens), and the reader's Close, which
// deletes every duckdb_temp_* file of its temp_directory, leaves the
// writer's spill files alone; the writer's Close removes its folder.
func TestSpillDirPerOpen(t *testing.T) {
	dir := t.TempDir()
	parent := filepath.Join(dir, "spill")
	ctx := context.Background()
	seed, err := Open(ctx, filepath.Join(dir, "read.duckdb"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	seed.Close()
	w, err := Open(ctx, filepath.Join(dir, "w.duckdb"), Options{SpillDir: parent})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Open(ctx, filepath.Join(dir, "read.duckdb"), Options{ReadOnly: true, SpillDir: parent})
	if err != nil {
		t.Fatal(err)
	}
	var folders []string
	for _, db := range []*DB{w, r} {
		var got string
		if err := db.SQL().QueryRowContext(ctx, "select current_setting('temp_directory')").Scan(&got); err != nil {
			t.Fatal(err)
		}
		if db.spill == nil || got != db.spill.path || filepath.Dir(got) != parent {
			t.Fatalf("temp_directory %q, want the open's own folder under %s", got, parent)
		}
		folders = append(folders, got)
	}
	if folders[0] == folders[1] {
		t.Fatalf("writer and reader share %s", folders[0])
	}
	block := filepath.Join(folders[0], "duckdb_temp_block-4611686018427388032.block")
	if err := os.WriteFile(block, []byte("spilled"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.Close()
	if _, err := os.Stat(block); err != nil {
		t.Errorf("the reader's Close removed the writer's spill file: %v", err)
	}
	if _, err := os.Stat(folders[1]); err == nil {
		t.Errorf("the reader's folder %s is left after its Close", folders[1])
	}
	w.Close()
	if _, err := os.Stat(folders[0]); err == nil {
		t.Errorf("the writer's folder %s is left after its Close", folders[0])
	}
}

// TestClearStaleSpillHalfMade: a process that died between making its
// hidden .docket-* folder and renaming it left the folder behind; the
// next clear removes it once it is older than an open takes, and leaves
// a young one (an open in progress) alone.
func TestClearStaleSpillHalfMade(t *testing.T) {
	parent := t.TempDir()
	old := filepath.Join(parent, ".docket-999999-1-00")
	young := filepath.Join(parent, ".docket-999999-2-00")
	for _, d := range []string{old, young} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(d, "duckdb_temp_block-1.block"), []byte("x"), 0o644)
	}
	past := time.Now().Add(-2 * halfMadeAge)
	if err := os.Chtimes(old, past, past); err != nil {
		t.Fatal(err)
	}
	ClearStaleSpill(parent, false)
	if _, err := os.Stat(old); err == nil {
		t.Errorf("%s: half-made spill folder of a dead process left in place", filepath.Base(old))
	}
	if _, err := os.Stat(young); err != nil {
		t.Errorf("%s: a folder an open may be making was removed: %v", filepath.Base(young), err)
	}
}

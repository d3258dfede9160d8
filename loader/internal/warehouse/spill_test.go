package warehouse

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

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

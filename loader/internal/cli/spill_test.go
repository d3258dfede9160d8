package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestBuildClearsStaleSpill: a build killed while DuckDB spilled left its
// files in target/duckdb_tmp (6.4 GB once, and the next start failed). The
// next command that opens the warehouse clears them: the loose files of
// earlier versions and the spill folders no open warehouse holds, but not
// a folder whose process still has it open (locked), and it removes its
// own folder when it closes.
func TestBuildClearsStaleSpill(t *testing.T) {
	dir, inbox := healthProject(t)
	os.WriteFile(filepath.Join(inbox, "a.txt"), []byte("The forklift lease renews every March.\n"), 0o644)
	must(t, dir, "load", "--quiet")
	spill := filepath.Join(dir, "target", "duckdb_tmp")
	loose := filepath.Join(spill, "duckdb_temp_storage_S-0.tmp")
	stale := filepath.Join(spill, "docket-999999-1")
	held := filepath.Join(spill, "docket-999999-2")
	for _, d := range []string{stale, held} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(d, "duckdb_temp_block-1.block"), make([]byte, 1<<20), 0o644)
	}
	os.WriteFile(loose, make([]byte, 1<<20), 0o644)
	other := filepath.Join(spill, "notes.txt") // not DuckDB's: kept
	os.WriteFile(other, []byte("mine"), 0o644)
	f, err := os.Open(held)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	must(t, dir, "build")
	for _, p := range []string{loose, stale} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s: stale spill left in place", filepath.Base(p))
		}
	}
	for _, p := range []string{held, other} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s should be kept: %v", filepath.Base(p), err)
		}
	}
	entries, _ := os.ReadDir(spill)
	for _, e := range entries {
		if n := e.Name(); strings.HasPrefix(n, "docket-") && n != filepath.Base(held) || strings.HasPrefix(n, ".docket-") {
			t.Errorf("%s: the build's own spill folder was not removed", n)
		}
	}
}

// TestBuildKeepsLooseFilesOfNamedSpillFolder: a temp_directory the user
// names (a shared /tmp) may hold other DuckDB processes' spill files; a
// build clears only its own stale docket-* folders there, never loose
// duckdb_temp_* files, which it clears only in target/duckdb_tmp.
func TestBuildKeepsLooseFilesOfNamedSpillFolder(t *testing.T) {
	dir, inbox := healthProject(t)
	os.WriteFile(filepath.Join(inbox, "a.txt"), []byte("The forklift lease renews every March.\n"), 0o644)
	shared := t.TempDir()
	py := filepath.Join(dir, "project.yaml")
	b, _ := os.ReadFile(py)
	s := strings.Replace(string(b), "temp_directory: target/duckdb_tmp", "temp_directory: "+shared, 1)
	if s == string(b) {
		t.Fatal("project.yaml: temp_directory line not found")
	}
	os.WriteFile(py, []byte(s), 0o644)
	must(t, dir, "load", "--quiet")
	foreign := filepath.Join(shared, "duckdb_temp_storage_S-0.tmp") // another program's
	os.WriteFile(foreign, make([]byte, 1<<20), 0o644)
	stale := filepath.Join(shared, "docket-999999-1")
	os.MkdirAll(stale, 0o755)
	must(t, dir, "build")
	if _, err := os.Stat(foreign); err != nil {
		t.Errorf("another program's spill file in a named temp_directory was removed: %v", err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Errorf("stale docket spill folder left in the named temp_directory")
	}
}

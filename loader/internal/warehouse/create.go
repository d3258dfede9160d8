package warehouse

import (
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/duckdb/duckdb-go/v2"
)

// createAtomically makes a new, empty DuckDB file at path so that no crash
// can leave a half-written one there. DuckDB creates a new database by
// creating the file and then writing its headers: a process killed in
// between (SIGKILL, OOM) left a file of a few or no bytes that every later
// open refused ("exists, but it is not a valid DuckDB database file"), so
// the warehouse could not be loaded again without deleting it by hand
// (TestSIGKILLedLoaderConverges caught it once at load 8, killed 600 ms in).
// The database is created under a name of its own beside path, closed
// (its headers written and synced), and linked to path, which either
// exists whole or not at all; another process that got there first wins
// and this one's copy is removed. Creation files a killed process left are
// removed once they are a minute old, on every writer's open: a process
// killed after the link and before its own removal leaves a second name
// of the live warehouse, which would keep a compacted-away file's blocks.
func createAtomically(path string) error {
	removeStaleCreations(path)
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		return nil // there already (or not ours to judge): open as before
	}
	tmp := fmt.Sprintf("%s.creating-%d-%d", path, os.Getpid(), time.Now().UnixNano())
	defer os.Remove(tmp)
	defer os.Remove(tmp + ".wal")
	connector, err := duckdb.NewConnector(tmp, nil)
	if err != nil {
		return fmt.Errorf("warehouse: create %s: %w", path, err)
	}
	db := sql.OpenDB(connector)
	if err := db.Ping(); err != nil {
		db.Close()
		return fmt.Errorf("warehouse: create %s: %w", path, err)
	}
	if err := db.Close(); err != nil {
		return fmt.Errorf("warehouse: create %s: %w", path, err)
	}
	// a file system without hard links: DuckDB creates the file in place,
	// as before (the window stays open there)
	_ = os.Link(tmp, path)
	return nil
}

// removeStaleCreations removes path's creation files (createAtomically)
// older than a minute: a creation takes milliseconds, so an older one was
// left by a process killed while creating. The folder is listed, not
// globbed: filepath.Glob reads the path as a pattern, and a project folder
// named "proj [2024]" matched nothing.
func removeStaleCreations(path string) {
	dir, prefix := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	prefix += ".creating-"
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		m := filepath.Join(dir, e.Name())
		if fi, err := os.Lstat(m); err == nil && time.Since(fi.ModTime()) > time.Minute {
			os.Remove(m)
		}
	}
}

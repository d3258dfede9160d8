package warehouse

import (
	"database/sql"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	bindings "github.com/duckdb/duckdb-go-bindings"
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
//
// The new file's bytes are emptyDatabase's, written directly, when the
// linked DuckDB is the one that wrote them: starting a DuckDB instance to
// write 12 KiB of headers, then closing it (a checkpoint and a purge of its
// allocator), cost ~30-45 ms of CPU, before the load's own open of the file
// paid for an instance again.
func createAtomically(path string) error {
	removeStaleCreations(path)
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		return nil // there already (or not ours to judge): open as before
	}
	tmp := fmt.Sprintf("%s.creating-%d-%d", path, os.Getpid(), time.Now().UnixNano())
	defer os.Remove(tmp)
	defer os.Remove(tmp + ".wal")
	if err := writeEmpty(tmp); err != nil {
		return fmt.Errorf("warehouse: create %s: %w", path, err)
	}
	// a file system without hard links: DuckDB creates the file in place,
	// as before (the window stays open there)
	_ = os.Link(tmp, path)
	return nil
}

// emptyDatabase is the file DuckDB writes for a new database (its main
// header and two database headers, 12 KiB), as the linked DuckDB wrote it
// (TestEmptyDatabaseIsDuckDBs compares them; `go test -run
// TestEmptyDatabaseIsDuckDBs -update-empty` writes it again after an
// upgrade).
//
//go:embed empty.duckdb
var emptyDatabase []byte

// emptyVersion is the DuckDB version in emptyDatabase's main header (a
// NUL-padded string at byte 52).
func emptyVersion(b []byte) string {
	if len(b) < 52+32 {
		return ""
	}
	v, _, _ := strings.Cut(string(b[52:52+32]), "\x00")
	return v
}

// createdByDuckDB counts the files writeEmpty had DuckDB create (a
// linked DuckDB other than emptyDatabase's); tests read it.
var createdByDuckDB atomic.Int32

// writeEmpty makes tmp a new, empty database: emptyDatabase's bytes,
// synced, when the linked DuckDB wrote them; otherwise DuckDB creates it
// (opened and closed, which writes and syncs its headers).
func writeEmpty(tmp string) error {
	if emptyVersion(emptyDatabase) == bindings.LibraryVersion() {
		// 0o666 and the umask decide, as DuckDB's own creation does: a
		// group-shared project folder (umask 002) keeps its warehouse
		// writable by the group (review45: 0o644 made it -rw-r--r--).
		f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if err != nil {
			return err
		}
		_, err = f.Write(emptyDatabase)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	}
	createdByDuckDB.Add(1)
	return createWithDuckDB(tmp)
}

// createWithDuckDB has DuckDB create a new database at tmp.
func createWithDuckDB(tmp string) error {
	connector, err := duckdb.NewConnector(tmp, nil)
	if err != nil {
		return err
	}
	db := sql.OpenDB(connector)
	if err := db.Ping(); err != nil {
		db.Close()
		return err
	}
	return db.Close()
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

// Package warehouse is the only package that talks to DuckDB. It opens the
// warehouse file (retrying while another process holds the lock), creates
// the loader's schemas, lands extracted documents in one transaction with
// the appender, and registers docket's Go UDFs on every connection.
package warehouse

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/duckdb/duckdb-go/v2"
)

// Options configure Open.
type Options struct {
	ReadOnly    bool
	LockTimeout time.Duration // how long to retry while the file is locked; 0 = 10s
	UDFs        []UDF         // registered on every connection
	Threads     int           // DuckDB threads setting; 0 = DuckDB's default
	// OnWait is called about once a second while another process holds
	// the lock, so the caller can say who docket is waiting for.
	OnWait func(LockWait)
	// SpillDir (build.temp_directory) holds DuckDB's spill files: each
	// open spills into a folder of its own under it, removed at Close
	// (see spill.go). "" = DuckDB's default (the file's path + ".tmp").
	SpillDir string
	// SpillDirOwned says SpillDir is docket's own folder (the default
	// target/duckdb_tmp): a writer then also removes the loose
	// duckdb_temp_* files earlier versions left in it. A folder the user
	// named (temp_directory: /tmp) may hold other DuckDB processes' spill
	// files, so its loose files are left alone.
	SpillDirOwned bool
	// MemoryLimit (bytes; 0 = DuckDB's default, 80 % of the memory) is
	// DuckDB's memory_limit from the open on, so that replaying a
	// write-ahead log a process left (killed, or after a failed commit)
	// runs under it: oom21's re-run after a failed 100k load peaked at
	// 887 MiB while the open replayed a 700 MB WAL under DuckDB's
	// default. When the open fails for want of memory under it, Open
	// opens again under DuckDB's default and says so in
	// DB.MemoryFallback.
	MemoryLimit int64
}

// LockWait describes a wait for the warehouse lock.
type LockWait struct {
	Path   string
	PID    int    // 0 when DuckDB did not say
	Holder string // command line of the holder when known
	Waited time.Duration
	Limit  time.Duration
}

// HolderName is "PID 4711 (python3 notebook.py)", or "another process".
func (w LockWait) HolderName() string { return holderName(w.PID, w.Holder) }

// DB is an open warehouse.
type DB struct {
	Path  string
	sql   *sql.DB
	udfs  []UDF
	spill *spillDir
	// profReads: see ProfileReads.
	profReads func(ScanCount)
	// broken is the failed commit after which nothing more is written
	// (see CommitError).
	mu     sync.Mutex
	broken *CommitError
	// MemoryFallback is why the open under Options.MemoryLimit failed
	// (DuckDB ran out of memory replaying the write-ahead log): the
	// warehouse was opened under DuckDB's default limit instead. nil
	// when it was not needed.
	MemoryFallback error
	// migrated: EnsureSchema ran a migration on this warehouse (see
	// Migrated).
	migrated bool
}

// Migrated reports whether EnsureSchema migrated this warehouse from an
// older schema version: its tables were rebuilt, so a published read
// copy made before is of the old schema even when no document changed.
func (w *DB) Migrated() bool { return w.migrated }

// LockError says the warehouse file is held by another process.
type LockError struct {
	Path   string
	PID    int    // 0 when DuckDB did not say
	Holder string // command line of the holding process when known
	Cause  error
	Waited time.Duration
}

func (e *LockError) Error() string {
	who := "another process"
	if e.PID > 0 {
		who = fmt.Sprintf("process %d", e.PID)
		if e.Holder != "" {
			who += fmt.Sprintf(" (%s)", e.Holder)
		}
	}
	hint := "close the other DuckDB client (notebook, CLI, another docket run) that has the file open"
	if e.PID > 0 {
		hint += fmt.Sprintf(", or stop it with `kill %d`", e.PID)
	}
	waited := ""
	if e.Waited >= time.Second {
		waited = fmt.Sprintf(" (waited %s; --wait or loader.lock_timeout waits longer)", e.Waited.Round(time.Second))
	}
	return fmt.Sprintf("warehouse %s is locked by %s%s: %s, then run docket again. Notebooks and other readers should open %s instead (`docket connect`): docket never locks it",
		e.Path, who, waited, hint, filepath.Base(ReadPath(e.Path)))
}

func (e *LockError) Unwrap() error { return e.Cause }

var pidRe = regexp.MustCompile(`PID (\d+)`)

// metadataReuseOff keeps the file readable by the oldest DuckDB the README
// promises (1.1.2). DuckDB 1.4+ checkpoints reuse an unchanged table's
// metadata from the previous checkpoint (experimental_metadata_reuse, on
// by default; duckdb/duckdb#18390). The header still says storage v0.10.2
// compatible, but after a few load/build rounds DuckDB 1.1.2 cannot open
// such a file ("Failed to load metadata pointer (id 30, idx 0, ptr 30)"),
// while a fresh full write of the same data opens. With reuse off each
// checkpoint rewrites the tables' metadata (not their data blocks).
const metadataReuseOff = "experimental_metadata_reuse=false"

// Open opens (creating if needed) the DuckDB file at path.
func Open(ctx context.Context, path string, opts Options) (*DB, error) {
	w, err := open(ctx, path, opts)
	if err == nil || opts.MemoryLimit <= 0 || !outOfMemory(err) {
		return w, err
	}
	// The replay of the write-ahead log needed more than the limit (the
	// log is untouched: DuckDB writes it into the file only once it is
	// replayed whole): replay it under DuckDB's default.
	opts.MemoryLimit = 0
	w, err2 := open(ctx, path, opts)
	if err2 != nil {
		return nil, err2
	}
	w.MemoryFallback = err
	return w, nil
}

func open(ctx context.Context, path string, opts Options) (*DB, error) {
	if err := dsnSafe(path); err != nil {
		return nil, err
	}
	if path != "" && path != ":memory:" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, fmt.Errorf("warehouse: %w", err)
		}
	}
	if path != "" && path != ":memory:" && !opts.ReadOnly {
		if err := createAtomically(path); err != nil {
			return nil, err
		}
	}
	dsn := path
	params := []string{metadataReuseOff}
	if opts.ReadOnly {
		params = append(params, "access_mode=read_only")
	}
	if opts.Threads > 0 {
		params = append(params, "threads="+strconv.Itoa(opts.Threads))
	}
	if opts.MemoryLimit > 0 {
		params = append(params, fmt.Sprintf("memory_limit=%dMiB", max(opts.MemoryLimit>>20, 1)))
	}
	var spill *spillDir
	if opts.SpillDir != "" {
		s, err := newSpillDir(opts.SpillDir)
		switch {
		case err == nil:
			spill = s
			params = append(params, s.dsnParam())
		case !opts.ReadOnly:
			return nil, fmt.Errorf("warehouse: spill folder (build.temp_directory): %w", err)
		}
		// a reader that cannot make one spills where DuckDB would
	}
	if len(params) > 0 {
		dsn += "?" + strings.Join(params, "&")
	}
	timeout := opts.LockTimeout
	if timeout == 0 {
		timeout = 10 * time.Second
	}
	start := time.Now()
	deadline := start.Add(timeout)
	lastWait := start
	udfs := opts.UDFs
	for {
		connector, err := duckdb.NewConnector(dsn, func(driver.ExecerContext) error { return nil })
		if err == nil {
			db := sql.OpenDB(connector)
			w := &DB{Path: path, sql: db, udfs: udfs, spill: spill}
			if err = w.ping(ctx); err == nil {
				if !opts.ReadOnly && spill != nil && opts.SpillDirOwned {
					// this process holds the warehouse: no docket writer
					// of an earlier version spills loose files there now
					ClearStaleSpill(opts.SpillDir, true)
				}
				return w, nil
			}
			db.Close()
		}
		if !isLockErr(err) {
			spill.remove()
			return nil, fmt.Errorf("warehouse: open %s: %w", path, err)
		}
		pid := 0
		if m := pidRe.FindStringSubmatch(err.Error()); m != nil {
			pid, _ = strconv.Atoi(m[1])
		}
		if time.Now().After(deadline) {
			spill.remove()
			return nil, &LockError{Path: path, Cause: err, PID: pid, Holder: processCommand(pid), Waited: time.Since(start)}
		}
		if opts.OnWait != nil && time.Since(lastWait) >= time.Second {
			lastWait = time.Now()
			opts.OnWait(LockWait{Path: path, PID: pid, Holder: processCommand(pid), Waited: time.Since(start).Round(time.Second), Limit: timeout})
		}
		select {
		case <-ctx.Done():
			spill.remove()
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func isLockErr(err error) bool {
	if err == nil {
		return false
	}
	s := err.Error()
	return strings.Contains(s, "Could not set lock") || strings.Contains(s, "Conflicting lock")
}

func (w *DB) ping(ctx context.Context) error {
	c, err := w.Conn(ctx)
	if err != nil {
		return err
	}
	return c.Close()
}

// Conn returns a dedicated connection with every UDF registered. Callers
// that need UDFs, temp tables or transactions use a Conn, not SQL().
func (w *DB) Conn(ctx context.Context) (*sql.Conn, error) {
	c, err := w.sql.Conn(ctx)
	if err != nil {
		return nil, err
	}
	if err := registerUDFs(c, w.udfs); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// SQL is the pooled handle, for plain SQL that calls no Go UDF.
func (w *DB) SQL() *sql.DB { return w.sql }

// UDFs returns the registered UDF declarations.
func (w *DB) UDFs() []UDF { return w.udfs }

// Close closes the warehouse and removes its spill folder.
func (w *DB) Close() error {
	if w.Broken() != nil {
		// DuckDB's state in this process is not to be trusted (see
		// CommitError): the next open replays the write-ahead log.
		w.sql.Exec(`pragma disable_checkpoint_on_shutdown`)
	}
	err := w.sql.Close()
	w.spill.remove()
	w.spill = nil
	return err
}

// IsLockError reports whether err is a *LockError.
func IsLockError(err error) bool {
	var le *LockError
	return errors.As(err, &le)
}

// dsnSafe refuses a warehouse path that duckdb-go cannot open as written: it
// reads its data source name as a URL, the path up to the first '?' and
// options after it, so a folder named "q?x" opened "q" with the options
// "x/warehouse.duckdb", and a '%' not followed by two hex digits ("100%")
// failed as "could not parse DSN" with the temporary creation file's name.
func dsnSafe(path string) error {
	if path == "" || path == ":memory:" {
		return nil
	}
	bad := ""
	if strings.Contains(path, "?") {
		bad = "'?'"
	} else if _, err := url.Parse(path); err != nil {
		bad = "a '%' not followed by two hex digits"
	}
	if bad == "" {
		return nil
	}
	return fmt.Errorf("warehouse: the path %s holds %s, which DuckDB's Go driver reads as part of a URL (its options start at '?', '%%' escapes a byte): move the project, or set project.yaml's warehouse: to a path without it", path, bad)
}

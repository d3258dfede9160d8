package warehouse

import (
	"crypto/rand"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// DuckDB spills what does not fit its memory_limit into temp_directory.
// Every open warehouse (Options.SpillDir) spills into a folder of its own
// under the project's spill folder (build.temp_directory,
// target/duckdb_tmp), named docket-PID-N-RANDOM and locked (flock) while it is
// open, and removed at Close. Two reasons:
//
//   - A process killed while spilling (a 200k-document build stopped by
//     hand left 6.4 GB) leaves its files behind; the next open clears
//     every docket-* folder whose lock nobody holds (and a hidden
//     .docket-* one a process died making, a minute old), and a writer, which
//     holds the warehouse, also the loose duckdb_temp_* files earlier
//     versions wrote into the spill folder itself.
//   - DuckDB deletes every duckdb_temp_* file of its temp_directory when
//     it closes, its own or not: a reader that spilled into a folder a
//     build shared would delete the build's spill files under it.
//
// The folder is given to DuckDB when it opens (in the connection string),
// not by SET temp_directory afterwards: an open that replays a large WAL
// (a writer killed before checkpointing) and then lowers memory_limit
// spills at once, and DuckDB refuses to switch its temporary directory
// after it has been used ("Cannot switch temporary directory after the
// current one has been used").

// spillPrefix names a process's spill folder (docket-PID-N-RANDOM).
const spillPrefix = "docket-"

var spillSeq atomic.Int64

// spillDir is an open warehouse's spill folder, locked while it is open.
type spillDir struct {
	path string
	lock *os.File
}

// newSpillDir clears the stale spill folders under parent and makes this
// open's own, locked before it is given its name (a folder being made
// has a hidden name no other process clears). The name is never one a
// folder had before (a random part): a clearer removes a stale folder by
// its path after locking it, so an open that reused a dead process's
// name (its PID reused) could be removed under its DuckDB.
func newSpillDir(parent string) (*spillDir, error) {
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	ClearStaleSpill(parent, false)
	var r [8]byte
	if _, err := rand.Read(r[:]); err != nil {
		return nil, err
	}
	name := fmt.Sprintf("%s%d-%d-%x", spillPrefix, os.Getpid(), spillSeq.Add(1), r)
	tmp := filepath.Join(parent, "."+name)
	os.RemoveAll(tmp)
	if err := os.Mkdir(tmp, 0o755); err != nil {
		return nil, err
	}
	f, err := os.Open(tmp)
	if err == nil {
		if err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
			f.Close()
		}
	}
	if err != nil {
		os.Remove(tmp)
		return nil, err
	}
	final := filepath.Join(parent, name)
	if err := os.Rename(tmp, final); err != nil {
		f.Close()
		os.RemoveAll(tmp)
		return nil, err
	}
	return &spillDir{path: final, lock: f}, nil
}

// dsnParam is the connection-string setting of the folder.
func (s *spillDir) dsnParam() string { return "temp_directory=" + url.QueryEscape(s.path) }

// remove deletes the folder (DuckDB has closed) and releases its lock.
func (s *spillDir) remove() {
	if s == nil || s.lock == nil {
		return
	}
	os.RemoveAll(s.path)
	s.lock.Close()
	s.lock = nil
}

// ClearStaleSpill removes the spill folders under parent that no open
// warehouse holds (their process ended without removing them), and, when
// loose, the duckdb_temp_* files in parent itself, which only versions
// before per-process folders wrote (a writer clears them: it holds the
// warehouse, so no docket writer of that version spills there). It
// returns the bytes removed.
func ClearStaleSpill(parent string, loose bool) int64 {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return 0
	}
	var n int64
	for _, e := range entries {
		p := filepath.Join(parent, e.Name())
		switch {
		case e.IsDir() && (strings.HasPrefix(e.Name(), spillPrefix) || halfMade(e)):
			f, err := os.Open(p)
			if err != nil {
				continue
			}
			if unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) == nil {
				n += treeSize(p)
				os.RemoveAll(p)
			}
			f.Close()
		case loose && e.Type().IsRegular() && strings.HasPrefix(e.Name(), "duckdb_temp_"):
			if st, err := e.Info(); err == nil && os.Remove(p) == nil {
				n += st.Size()
			}
		}
	}
	return n
}

// halfMade says e is a hidden folder an open was making (.docket-*) that
// is older than any open takes to lock and rename it: its process died in
// between. A younger one may be an open's that has not locked it yet.
func halfMade(e os.DirEntry) bool {
	if !strings.HasPrefix(e.Name(), "."+spillPrefix) {
		return false
	}
	st, err := e.Info()
	return err == nil && time.Since(st.ModTime()) > halfMadeAge
}

// halfMadeAge is how old a half-made spill folder must be to be cleared.
const halfMadeAge = time.Minute

func treeSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if st, err := d.Info(); err == nil {
				n += st.Size()
			}
		}
		return nil
	})
	return n
}

package warehouse

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Readers never open the file docket writes. After each successful
// writing command docket publishes a copy of the checkpointed warehouse
// next to it (warehouse.duckdb -> warehouse.read.duckdb) by preparing the
// copy under another name and renaming it over the published one.
// rename(2) swaps the directory entry: a reader that has the old copy open
// keeps reading that inode, consistent, for as long as it likes, and sees
// the new state when it reconnects; docket never writes a file a reader
// has open (see patch.go for how the copy is prepared), so no reader's
// lock (read-only or not) can block it.

// ReadPath is the file readers open for the warehouse at path:
// "warehouse.duckdb" -> "warehouse.read.duckdb".
func ReadPath(path string) string {
	ext := filepath.Ext(path)
	if ext == "" {
		return path + ".read"
	}
	return strings.TrimSuffix(path, ext) + ".read" + ext
}

// stampPath is the sidecar describing the published copy.
func stampPath(readPath string) string { return readPath + ".json" }

// Stamp describes one published copy.
type Stamp struct {
	PublishedAt time.Time  `json:"published_at"`
	Command     string     `json:"command"` // the docket command after which it was published
	Source      FileState  `json:"source"`  // the writer's file when it was copied
	Bytes       int64      `json:"bytes"`
	Written     int64      `json:"written"` // bytes written to make it (a patch writes the changed blocks only)
	Method      string     `json:"method"`  // reflink | patch (the previous copy, changed blocks written) | copy
	Duration    Duration   `json:"duration"`
	Previous    *time.Time `json:"previous_published_at,omitempty"`
	// UnpublishedLoads: loads since publishing that found nothing new
	// (DeferPublish). The copy has all their data; only their records in
	// ops.load_runs are missing from it.
	UnpublishedLoads []UnpublishedLoad `json:"unpublished_loads,omitempty"`
}

// UnpublishedLoad is a load whose run record the published copy lacks.
type UnpublishedLoad struct {
	RunID      string    `json:"run_id"`
	FinishedAt time.Time `json:"finished_at"`
}

// maxUnpublished bounds the stamp's list (the latest are kept).
const maxUnpublished = 100

// LatestUnpublishedLoad is when the latest of the stamp's unpublished
// loads finished (zero when none).
func (s *Stamp) LatestUnpublishedLoad() time.Time {
	var t time.Time
	if s == nil {
		return t
	}
	for _, l := range s.UnpublishedLoads {
		if l.FinishedAt.After(t) {
			t = l.FinishedAt
		}
	}
	return t
}

// DeferPublish is called instead of Publish after a load that changed
// nothing readers see but its own run record (it found nothing new), when
// the published copy was current before it: the copy stays (copying the
// whole file for one ops.load_runs row would cost O(warehouse) per no-op
// load), and its stamp takes the writer's file state and lists the load,
// so the next command publishes only when it writes again, and `docket
// source freshness` counts the load. after is the file's state when the
// load closed it (StateOf): a file in another state was written since by
// another command, whose changes the copy lacks, so the stamp must not
// call it current. ok is false when nothing was recorded (no stamp,
// another writer holds the file, or another wrote it): then publish.
func DeferPublish(path string, load UnpublishedLoad, after FileState) (ok bool, err error) {
	prev, err := ReadStamp(path)
	if err != nil || prev == nil || prev.Source.Size == 0 {
		return false, err
	}
	src, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer src.Close()
	if _, err := readLock(src); err != nil {
		return false, nil // a writer is at work: let Publish report it
	}
	if st, err := os.Stat(path + ".wal"); err == nil && st.Size() > 0 {
		return false, nil
	}
	// Under the publish lock, from the stamp as it is now: a publish that
	// finished since prev was read keeps its stamp (the copy it made has
	// this load's record, so there is nothing to list).
	unlock, err := publishLock(ReadPath(path))
	if err != nil {
		return false, fmt.Errorf("warehouse: publish: %w", err)
	}
	defer unlock()
	if prev, err = ReadStamp(path); err != nil || prev == nil || prev.Source.Size == 0 {
		return false, err
	}
	if prev.Current(path) {
		return true, nil
	}
	state, err := fileState(path)
	if err != nil {
		return false, err
	}
	if state != after {
		return false, nil // another command wrote since the load: publish
	}
	s := *prev
	s.Source = state
	s.UnpublishedLoads = append(append([]UnpublishedLoad{}, prev.UnpublishedLoads...), load)
	if n := len(s.UnpublishedLoads); n > maxUnpublished {
		s.UnpublishedLoads = s.UnpublishedLoads[n-maxUnpublished:]
	}
	b, _ := json.MarshalIndent(s, "", "  ")
	if err := writeFileAtomic(stampPath(ReadPath(path)), append(b, '\n')); err != nil {
		return false, fmt.Errorf("warehouse: publish: %w", err)
	}
	return true, nil
}

// Duration marshals as seconds.
type Duration time.Duration

// MarshalJSON writes seconds as a number.
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).Seconds())
}

// UnmarshalJSON reads seconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s float64
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*d = Duration(s * float64(time.Second))
	return nil
}

// FileState identifies one content of a file cheaply: any write by DuckDB
// changes the size or the modification time.
type FileState struct {
	Size    int64  `json:"size"`
	ModNano int64  `json:"mtime_ns"`
	Inode   uint64 `json:"inode"`
}

// StateOf is the FileState of the file at path.
func StateOf(path string) (FileState, error) { return fileState(path) }

func fileState(path string) (FileState, error) {
	st, err := os.Stat(path)
	if err != nil {
		return FileState{}, err
	}
	return stateOf(st), nil
}

// stateOf is the FileState of a file already stat'ed (or open).
func stateOf(st os.FileInfo) FileState {
	return FileState{Size: st.Size(), ModNano: st.ModTime().UnixNano(), Inode: inode(st)}
}

// ReadStamp returns the stamp of the copy published for the warehouse at
// path, or nil when nothing is published.
func ReadStamp(path string) (*Stamp, error) {
	rp := ReadPath(path)
	if _, err := os.Stat(rp); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	b, err := os.ReadFile(stampPath(rp))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return &Stamp{}, nil // published by hand or by an older docket: unknown provenance
		}
		return nil, err
	}
	var s Stamp
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("warehouse: %s: %w", stampPath(rp), err)
	}
	return &s, nil
}

// Current reports whether the published copy is the writer's file as it
// is now (nothing written since publishing).
//
// The inode is not compared: a project folder copied with its times kept
// (cp -a, rsync -a) holds the same warehouse under another inode, and its
// published copy is still of it (`docket sql` there said the warehouse
// "changed since (a command is running, failed or was interrupted)"). Any
// write by DuckDB changes the size or the modification time.
func (s *Stamp) Current(path string) bool {
	if s == nil || s.Source.Size == 0 {
		return false
	}
	st, err := fileState(path)
	return err == nil && st.Size == s.Source.Size && st.ModNano == s.Source.ModNano
}

// PublishResult says what Publish did.
type PublishResult struct {
	Path     string
	Stamp    Stamp
	Skipped  string   // why nothing was copied (already current); empty when published
	Warnings []string // things a person should know (a client wrote to the published copy)
}

// BusyError says another process writes the warehouse, so its file is not
// a completed state that can be published now.
type BusyError struct {
	Path   string
	PID    int
	Holder string
}

func (e *BusyError) Error() string {
	return fmt.Sprintf("warehouse %s is being written by %s: not published now (it publishes when it finishes)", e.Path, holderName(e.PID, e.Holder))
}

func holderName(pid int, cmd string) string {
	if pid <= 0 {
		return "another process"
	}
	if cmd == "" {
		return fmt.Sprintf("PID %d", pid)
	}
	return fmt.Sprintf("PID %d (%s)", pid, cmd)
}

// processCommand is the command line of a process, from /proc, "" when
// unknown.
func processCommand(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return ""
	}
	s := strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " "))
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}

// Publish copies the warehouse file at path to ReadPath(path) atomically.
// The calling process must not have the warehouse open (close the DB
// first: closing checkpoints the WAL into the file). While copying,
// Publish holds a shared lock on the file, the same lock a read-only
// DuckDB client takes, so no DuckDB writer can change it under the copy.
// command names the docket command for the stamp. force publishes even
// when the copy is current.
func Publish(ctx context.Context, path, command string, force bool) (*PublishResult, error) {
	rp := ReadPath(path)
	res := &PublishResult{Path: rp}
	prev, _ := ReadStamp(path)
	if !force && prev.Current(path) {
		res.Stamp = *prev
		res.Skipped = "the published copy is current"
		return res, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	start := time.Now()
	src, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("warehouse: publish: %w", err)
	}
	// Closing src releases this process's POSIX locks on the file, which is
	// why the caller must have closed DuckDB (its lock is one of them).
	defer src.Close()
	if pid, err := readLock(src); err != nil {
		if pid != 0 || errors.Is(err, errLocked) {
			return nil, &BusyError{Path: path, PID: pid, Holder: processCommand(pid)}
		}
		return nil, fmt.Errorf("warehouse: publish: lock %s: %w", path, err)
	}
	if st, err := os.Stat(path + ".wal"); err == nil && st.Size() > 0 {
		// A writer that died before checkpointing: its last transactions
		// are only in the WAL, which the next docket command replays.
		return nil, fmt.Errorf("warehouse: publish: %s.wal holds changes not yet checkpointed into %s (a writer stopped before finishing); the next docket command applies them and publishes", filepath.Base(path), filepath.Base(path))
	}
	// One publish at a time: two would share the spare and its hashes (two
	// commands finishing together, `docket publish` run by hand during one).
	unlock, err := publishLock(rp)
	if err != nil {
		return nil, fmt.Errorf("warehouse: publish: %w", err)
	}
	defer unlock()
	if !force {
		// The publish that held the lock may have published this state.
		if cur, _ := ReadStamp(path); cur.Current(path) {
			res.Stamp = *cur
			res.Skipped = "the published copy is current"
			return res, nil
		}
	}
	removeLeftovers(rp)
	state, err := fileState(path)
	if err != nil {
		return nil, fmt.Errorf("warehouse: publish: %w", err)
	}
	s, err := stage(src, rp, state.Size)
	if err != nil {
		return nil, fmt.Errorf("warehouse: publish: copy %s: %w", path, err)
	}
	if err := s.install(rp); err != nil {
		if !s.fromSpare {
			os.Remove(s.path)
		}
		return nil, fmt.Errorf("warehouse: publish: %w", err)
	}
	// docket never writes the published copy, so a WAL beside it was left
	// by a client that opened it read-write and wrote: DuckDB would replay
	// it into the new copy for the next reader. It belongs to the old one.
	if _, err := os.Stat(rp + ".wal"); err == nil {
		if err := os.Remove(rp + ".wal"); err == nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("removed %s.wal: a client wrote to the published copy (its changes stay in the copy it has open, not in the new one); readers should open %s read-only",
				filepath.Base(rp), filepath.Base(rp)))
		}
	}
	res.Stamp = Stamp{PublishedAt: time.Now().UTC(), Command: command, Source: state, Bytes: state.Size, Written: s.written, Method: s.method,
		Duration: Duration(time.Since(start))}
	if prev != nil && !prev.PublishedAt.IsZero() {
		t := prev.PublishedAt
		res.Stamp.Previous = &t
	}
	b, _ := json.MarshalIndent(res.Stamp, "", "  ")
	if err := writeFileAtomic(stampPath(rp), append(b, '\n')); err != nil {
		return nil, fmt.Errorf("warehouse: publish: %w", err)
	}
	return res, nil
}

func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

var errLocked = errors.New("locked by another process")

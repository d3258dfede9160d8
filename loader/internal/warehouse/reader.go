package warehouse

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// ReaderInfo says which file a reader opened and why.
type ReaderInfo struct {
	Path      string // the file opened
	Published bool   // it is the published copy
	Stamp     *Stamp // the published copy's stamp, nil when none
	Notes     []string
}

// OpenReader opens, read-only, what readers read: the published copy of
// the warehouse at path. It falls back to the writer's file (read-only,
// waiting for the lock as Open does) when nothing is published yet or
// when a client holds the published copy open for writing; Notes say so,
// and say when the warehouse changed after the copy was published.
func OpenReader(ctx context.Context, path string, opts Options) (*DB, *ReaderInfo, error) {
	opts.ReadOnly = true
	rp := ReadPath(path)
	info := &ReaderInfo{Path: rp}
	stamp, err := ReadStamp(path)
	if err != nil {
		return nil, nil, err
	}
	info.Stamp = stamp
	if stamp == nil {
		info.Notes = append(info.Notes, fmt.Sprintf("nothing is published for readers yet (%s): reading %s directly; the next successful docket load or build publishes it",
			filepath.Base(rp), filepath.Base(path)))
		return openWriterFile(ctx, path, opts, info)
	}
	ro := opts
	ro.LockTimeout = time.Nanosecond // a writer on the published copy is a client's mistake: do not wait for it
	ro.OnWait = nil
	db, err := Open(ctx, rp, ro)
	if err != nil {
		var le *LockError
		if !errors.As(err, &le) {
			return nil, nil, err
		}
		info.Notes = append(info.Notes, fmt.Sprintf("%s is open for writing by %s (readers should open it read-only): reading %s directly",
			filepath.Base(rp), holderName(le.PID, le.Holder), filepath.Base(path)))
		return openWriterFile(ctx, path, opts, info)
	}
	info.Published = true
	if n := StaleNote(path, stamp); n != "" {
		info.Notes = append(info.Notes, n)
	}
	return db, info, nil
}

// StaleNote is the note for a reader of the copy published with stamp when
// the warehouse at path changed since, "" when it did not.
func StaleNote(path string, stamp *Stamp) string {
	if stamp == nil || stamp.Source.Size == 0 || stamp.Current(path) {
		return ""
	}
	st, err := os.Stat(path)
	if err != nil {
		return ""
	}
	when := stamp.PublishedAt.Local().Format("2006-01-02 15:04:05")
	if stamp.Source.Inode != 0 && inode(st) != stamp.Source.Inode {
		// another file than the one published from: the folder was copied
		// without its times (cp, not cp -a) or the file was replaced
		return fmt.Sprintf("reading the copy published after `docket %s` at %s; %s is another file than the one it was published from (copied without its times, replaced, or written since): `docket publish` publishes its current state",
			stamp.Command, when, filepath.Base(path))
	}
	return fmt.Sprintf("reading the copy published after `docket %s` at %s; %s changed since (a command is running, failed or was interrupted): `docket publish` publishes its current state",
		stamp.Command, when, filepath.Base(path))
}

func openWriterFile(ctx context.Context, path string, opts Options, info *ReaderInfo) (*DB, *ReaderInfo, error) {
	info.Path = path
	db, err := Open(ctx, path, opts)
	if err != nil {
		return nil, nil, err
	}
	return db, info, nil
}

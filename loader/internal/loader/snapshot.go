package loader

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sync"
	"syscall"

	"github.com/docket-dev/docket/loader/internal/document"
)

// snapshotTries is how many times a file that changes while it is copied
// is copied again before the load leaves it to the next load.
const snapshotTries = 3

// snap is a private copy of a file's bytes and their hash.
type snap struct {
	path string
	hash string
	size int64
	// fi is the file's stat while it was read (the same before and
	// after): a file read in place must still have it after extraction.
	fi os.FileInfo
	// err: the file cannot be read (unreadable, too large); gone: it was
	// deleted or renamed; unstable: it kept changing while copied.
	err            *document.Error
	gone, unstable bool
}

// errDiskFull ends the load: a full disk is no document's fault.
type errDiskFull struct {
	dir  string
	free uint64
	err  error
}

func (e *errDiskFull) Error() string {
	return fmt.Sprintf("disk full: cannot write to %s (%d MiB free): %v", e.dir, e.free>>20, e.err)
}

func (e *errDiskFull) Unwrap() error { return e.err }

// snapshot copies f's bytes into the run's temporary folder, hashing them
// on the way, so that the worker extracts exactly the bytes whose hash is
// landed whatever happens to the file meanwhile (issue 17: a file changed
// between hashing and extraction landed new text under the old hash). A
// copy during which the file changed (size, mtime or ctime moved) is
// retried; a file still changing after snapshotTries copies is left to
// the next load. The copy costs one read and one write of the file, most
// often served from the page cache.
func (sh *shared) snapshot(f *file) (snap, error) {
	limit := int64(sh.opts.Project.Loader.MaxFileSize)
	name := fmt.Sprintf("f%d%s", sh.nextID.Add(1), safeExt(f.rel))
	dst := filepath.Join(sh.tmp.path, name)
	for try := 0; try < snapshotTries; try++ {
		s, stable, err := copyHashed(f.abs, dst, limit, func() (*os.File, error) { return sh.tmp.create(name) })
		if err != nil || s.err != nil || s.gone {
			os.Remove(dst)
			return s, err
		}
		if stable {
			return s, nil
		}
	}
	os.Remove(dst)
	return snap{unstable: true}, nil
}

// copyHashed copies src to dst (at most limit+1 bytes, into the file
// create makes) and hashes the copy; stable is false when src changed
// while it was read.
func copyHashed(src, dst string, limit int64, create func() (*os.File, error)) (s snap, stable bool, err error) {
	in, oerr := os.Open(src)
	if oerr != nil {
		s.err, s.gone = openError("open", oerr)
		return s, false, nil
	}
	defer in.Close()
	before, serr := in.Stat()
	if serr != nil {
		s.err, s.gone = openError("stat", serr)
		return s, false, nil
	}
	out, werr := create()
	if werr != nil {
		return s, false, diskError(dst, werr)
	}
	h := sha256.New()
	n, cerr := io.Copy(io.MultiWriter(out, h), io.LimitReader(in, limit+1))
	if e := out.Close(); cerr == nil && e != nil {
		return s, false, diskError(dst, e)
	}
	if cerr != nil {
		var pe *os.PathError
		if errors.As(cerr, &pe) && pe.Path == dst || errors.Is(cerr, syscall.ENOSPC) || errors.Is(cerr, syscall.EDQUOT) {
			return s, false, diskError(dst, cerr)
		}
		s.err, _ = openError("read", cerr)
		return s, false, nil
	}
	if n > limit {
		s.err = document.Errorf(document.KindTooLarge, "the file is over the %d MiB limit (loader.max_file_size)", limit>>20)
		return s, false, nil
	}
	after, serr := in.Stat()
	if serr != nil {
		s.err, s.gone = openError("stat", serr)
		return s, false, nil
	}
	s.path, s.hash, s.size = dst, hex.EncodeToString(h.Sum(nil)), n
	return s, sameStat(before, after) && n == after.Size(), nil
}

// sameStat: no write happened between the two stats of one open file
// (a write moves the size, the mtime or, always, the ctime).
func sameStat(a, b os.FileInfo) bool {
	if a.Size() != b.Size() || !a.ModTime().Equal(b.ModTime()) {
		return false
	}
	sa, ok1 := a.Sys().(*syscall.Stat_t)
	sb, ok2 := b.Sys().(*syscall.Stat_t)
	return !ok1 || !ok2 || sa.Ctim == sb.Ctim
}

// diskError reports a failure to write a temporary copy: a full disk (or
// quota) ends the load with the folder and its free space.
func diskError(path string, err error) error {
	dir := filepath.Dir(path)
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		var st syscall.Statfs_t
		free := uint64(0)
		if syscall.Statfs(dir, &st) == nil {
			free = st.Bavail * uint64(st.Bsize)
		}
		return &errDiskFull{dir: dir, free: free, err: err}
	}
	return fmt.Errorf("loader: temporary copy in %s: %w", dir, err)
}

// safeExt is the extension of a path for a temporary file name: kept when
// short (detection and extractors look at it), dropped when it is longer
// than any real extension (a 300-character "extension" made the file
// name too long to create).
func safeExt(rel string) string {
	ext := path.Ext(sanitize(path.Base(rel)))
	if len(ext) > 16 {
		return ""
	}
	return ext
}

// smallFile: a new file up to this size is read once into memory (hashed,
// detected and staged for the worker from there) instead of being hashed,
// copied, then detected from the copy: three opens and two reads of every
// small document were a third of the main process's CPU on a corpus of
// small text files.
const smallFile = 256 << 10

// readStable reads a file whole (at most limit+1 bytes) and hashes it;
// a read during which the file changed is retried (as snapshot does).
func readStable(path string, limit int64) ([]byte, snap) {
	for try := 0; try < snapshotTries; try++ {
		in, err := os.Open(path)
		if err != nil {
			var s snap
			s.err, s.gone = openError("open", err)
			return nil, s
		}
		before, err := in.Stat()
		if err != nil {
			in.Close()
			var s snap
			s.err, s.gone = openError("stat", err)
			return nil, s
		}
		data, rerr := readSized(in, before.Size(), limit+1)
		after, serr := in.Stat()
		in.Close()
		switch {
		case rerr != nil:
			var s snap
			s.err, _ = openError("read", rerr)
			return nil, s
		case int64(len(data)) > limit:
			return nil, snap{err: document.Errorf(document.KindTooLarge, "the file is over the %d MiB limit (loader.max_file_size)", limit>>20)}
		case serr != nil:
			var s snap
			s.err, s.gone = openError("stat", serr)
			return nil, s
		}
		if sameStat(before, after) && int64(len(data)) == after.Size() {
			return data, snap{hash: hashBytes(data), size: int64(len(data)), fi: after}
		}
	}
	return nil, snap{unstable: true}
}

// readSized reads r to its end, at most most bytes, into one buffer sized
// for a file of size bytes (io.ReadAll started at 512 bytes and doubled:
// ~2.5x the file allocated, copied and page-faulted in per small file).
// It grows only when the file turns out longer than its stat said.
func readSized(r io.Reader, size, most int64) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(int(min(max(size, 0), most)) + bytes.MinRead)
	_, err := b.ReadFrom(io.LimitReader(r, most))
	return b.Bytes(), err
}

// hashBufs are hashStable's read buffers, reused across files (one of
// 256 KiB was allocated per file hashed).
var hashBufs = sync.Pool{New: func() any { b := make([]byte, 256<<10); return &b }}

// hashStable hashes a file without keeping or copying its bytes; ok is
// false when it cannot be read or changed while read (the caller then
// takes the copying path, which reports and retries those).
func hashStable(path string, limit int64) (s snap, ok bool) {
	in, err := os.Open(path)
	if err != nil {
		return s, false
	}
	defer in.Close()
	before, err := in.Stat()
	if err != nil {
		return s, false
	}
	h := sha256.New()
	buf := hashBufs.Get().(*[]byte)
	n, err := io.CopyBuffer(h, io.LimitReader(in, limit+1), *buf)
	hashBufs.Put(buf)
	if err != nil || n > limit {
		return s, false
	}
	after, err := in.Stat()
	if err != nil || !sameStat(before, after) || n != after.Size() {
		return s, false
	}
	return snap{hash: hex.EncodeToString(h.Sum(nil)), size: n, fi: after}, true
}

// sameFile: b is the stat of the same file as a, not written since (an
// in-place read's check that the bytes a worker read are the ones hashed:
// a write moves the size, the mtime or the ctime; a rename of another
// file over the path changes the inode, and one of the file away and
// back its ctime).
func sameFile(a, b os.FileInfo) bool {
	if !sameStat(a, b) {
		return false
	}
	sa, ok1 := a.Sys().(*syscall.Stat_t)
	sb, ok2 := b.Sys().(*syscall.Stat_t)
	return ok1 && ok2 && sa.Ino == sb.Ino && sa.Dev == sb.Dev
}

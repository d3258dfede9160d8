//go:build unix

package warehouse

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// readLock takes a shared POSIX lock on the whole file, as a read-only
// DuckDB client does; it fails at once when a DuckDB writer holds it, and
// then returns the writer's PID.
func readLock(f *os.File) (int, error) {
	lk := unix.Flock_t{Type: unix.F_RDLCK, Whence: 0, Start: 0, Len: 0}
	err := unix.FcntlFlock(f.Fd(), unix.F_SETLK, &lk)
	if err == nil {
		return 0, nil
	}
	if !errors.Is(err, unix.EAGAIN) && !errors.Is(err, unix.EACCES) {
		return 0, err
	}
	probe := unix.Flock_t{Type: unix.F_RDLCK, Whence: 0, Start: 0, Len: 0}
	if unix.FcntlFlock(f.Fd(), unix.F_GETLK, &probe) == nil && probe.Type != unix.F_UNLCK {
		return int(probe.Pid), errLocked
	}
	return 0, errLocked
}

func inode(st os.FileInfo) uint64 {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return uint64(s.Ino)
	}
	return 0
}

// lockOwner asks (F_GETLK) who would block a write lock on the file.
func lockOwner(f *os.File) (pid int, writer bool, err error) {
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: 0, Start: 0, Len: 0}
	if err := unix.FcntlFlock(f.Fd(), unix.F_GETLK, &lk); err != nil {
		return 0, false, err
	}
	if lk.Type == unix.F_UNLCK {
		return 0, false, nil
	}
	return int(lk.Pid), lk.Type == unix.F_WRLCK, nil
}

// writeLock takes an exclusive POSIX lock on the whole file; false when
// any other process holds a lock on it (a DuckDB client that has it open,
// even read-only). Closing the file releases it.
func writeLock(f *os.File) bool {
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: 0, Start: 0, Len: 0}
	return unix.FcntlFlock(f.Fd(), unix.F_SETLK, &lk) == nil
}

// publishLock waits for an exclusive lock on the publish lock file beside
// the published copy rp and returns its release. It is a flock(2) lock,
// held by the open file: it also keeps two publishes of one process apart,
// which POSIX record locks do not.
func publishLock(rp string) (func(), error) {
	p := filepath.Join(filepath.Dir(rp), "."+filepath.Base(rp)+".lock")
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}

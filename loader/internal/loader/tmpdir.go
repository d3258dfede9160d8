package loader

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Temporary folders of a load (the private copies workers read, a shard's
// scratch warehouse) are removed when the load returns; a loader killed
// outright (SIGKILL, OOM killer, power loss) cannot, and 32 such folders
// had piled up in /tmp from kill tests. So each folder is locked (flock on
// the folder, released by the kernel when its process dies, whatever the
// death), and every load first removes the folders of its kind that no
// live process holds.

// staleAge keeps the sweep off a folder another process has just made and
// not locked yet (and off folders of older dockets still running).
const staleAge = time.Minute

// sweepTemporary removes the stale folders of killed loads and shards.
func sweepTemporary() {
	now := time.Now()
	for _, prefix := range []string{"docket-attach-", "docket-shard-"} {
		sweepStale(os.TempDir(), prefix, now)
	}
}

// privateDir is a locked temporary folder; Close unlocks and removes it.
type privateDir struct {
	path string
	mu   sync.Mutex
	lock *os.File
}

// newPrivateDir sweeps stale folders named prefix* from the temporary
// folder and makes a new, locked one.
func newPrivateDir(prefix string) (*privateDir, error) {
	sweepStale(os.TempDir(), prefix, time.Now())
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return nil, err
	}
	d := &privateDir{path: dir}
	d.lock = lockDir(dir)
	return d, nil
}

// lockDir opens and locks a folder (nil when it cannot).
func lockDir(dir string) *os.File {
	f, err := os.Open(dir)
	if err != nil {
		return nil
	}
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		f.Close()
		return nil
	}
	return f
}

// create creates (or truncates) the file name in the folder. A folder
// that something removed during the load (a tmp cleaner: one quarantined
// 18,438 of 50,000 documents as internal errors) is made again, locked,
// and the file created there.
func (d *privateDir) create(name string) (*os.File, error) {
	p := filepath.Join(d.path, name)
	f, err := os.OpenFile(p, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return f, err
	}
	if rerr := d.remake(); rerr != nil {
		return nil, err
	}
	return os.OpenFile(p, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
}

// remake makes the folder again when it is gone, and locks the new one.
func (d *privateDir) remake() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := os.Mkdir(d.path, 0o700); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil // another goroutine made it first
		}
		return err
	}
	if d.lock != nil {
		d.lock.Close()
	}
	d.lock = lockDir(d.path)
	return nil
}

// Close removes the folder and releases its lock.
func (d *privateDir) Close() error {
	err := os.RemoveAll(d.path)
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.lock != nil {
		d.lock.Close()
	}
	return err
}

// sweepStale removes folders of tmp named prefix* that are older than
// staleAge and whose lock no process holds; it returns how many.
func sweepStale(tmp, prefix string, now time.Time) int {
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		p := filepath.Join(tmp, e.Name())
		info, err := e.Info()
		if err != nil || now.Sub(info.ModTime()) < staleAge {
			continue
		}
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			// Nobody holds it: its load is gone. Removing it while holding
			// the lock keeps two sweeping loads from racing.
			if os.RemoveAll(p) == nil {
				n++
			}
		}
		f.Close()
	}
	return n
}

// writeFile writes data to the file name in the folder (see create) and
// returns its path.
func (d *privateDir) writeFile(name string, data []byte) (string, error) {
	f, err := d.create(name)
	if err != nil {
		return filepath.Join(d.path, name), err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return f.Name(), err
}

package loader

import (
	"os"
	"path/filepath"
	"strings"
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
	if f, err := os.Open(dir); err == nil {
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			d.lock = f
		} else {
			f.Close()
		}
	}
	return d, nil
}

// Close removes the folder and releases its lock.
func (d *privateDir) Close() error {
	err := os.RemoveAll(d.path)
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

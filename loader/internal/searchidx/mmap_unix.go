//go:build unix

package searchidx

import (
	"os"
	"syscall"
)

// mapFile maps f read-only: its pages come from the operating system's
// page cache, which outlives the process.
func mapFile(f *os.File, size int64) ([]byte, error) {
	if size == 0 {
		return nil, nil
	}
	return syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
}

func unmapFile(b []byte) error { return syscall.Munmap(b) }

func inode(st os.FileInfo) uint64 {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return uint64(s.Ino)
	}
	return 0
}

// mapped: segments are memory-mapped (see vecRow).
const mapped = true

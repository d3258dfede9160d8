//go:build !unix

package searchidx

import (
	"io"
	"os"
)

// mapFile reads f whole where memory mapping is not wired up.
func mapFile(f *os.File, size int64) ([]byte, error) {
	b := make([]byte, size)
	_, err := io.ReadFull(io.NewSectionReader(f, 0, size), b)
	return b, err
}

func unmapFile([]byte) error { return nil }

func inode(os.FileInfo) uint64 { return 0 }

// mapped: segments are read into memory.
const mapped = false

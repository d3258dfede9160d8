//go:build !linux

package warehouse

import "os"

// reflink is a Linux call (FICLONE); elsewhere the copy is written.
func reflink(dst, src *os.File) bool { return false }

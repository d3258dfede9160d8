package searchidx

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// populate maps the pages of b, a part of the segment's mapped file, into
// the process in one system call (MADV_POPULATE_READ, Linux 5.14+) instead
// of one page fault per few pages as a scan touches them: every `docket
// search` is a fresh process, and on virtual machines a page fault costs
// several microseconds. Best effort: an older kernel says EINVAL and the
// scan faults as before.
func (s *segment) populate(b []byte) {
	if len(b) == 0 || len(s.data) == 0 {
		return
	}
	off := int(uintptr(unsafe.Pointer(&b[0])) - uintptr(unsafe.Pointer(&s.data[0])))
	if off < 0 || off+len(b) > len(s.data) {
		return
	}
	unix.Madvise(s.data[off&^(4096-1):off+len(b)], unix.MADV_POPULATE_READ)
}

//go:build !linux

package worker

// adviseHugeHeap: transparent huge pages are Linux's; nothing to do.
func adviseHugeHeap() {}

// AdviseHugeHeap: transparent huge pages are Linux's; nothing to do.
func AdviseHugeHeap(int) (lo, hi uintptr) { return 0, 0 }

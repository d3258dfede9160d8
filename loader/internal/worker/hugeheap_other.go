//go:build !linux

package worker

// adviseHugeHeap: transparent huge pages are Linux's; nothing to do.
func adviseHugeHeap() {}

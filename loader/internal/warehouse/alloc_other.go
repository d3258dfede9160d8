//go:build !linux || !cgo

package warehouse

// Allocators knows nothing off Linux (see alloc_linux.go).
func Allocators() AllocatorStats { return AllocatorStats{} }

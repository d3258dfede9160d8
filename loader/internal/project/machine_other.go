//go:build !linux

package project

// MachineMemory is 0 (unknown) outside Linux: memory limits are not
// compared with it.
func MachineMemory() Size { return 0 }

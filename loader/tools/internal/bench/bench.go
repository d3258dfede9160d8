// Package bench holds small helpers the benchmark programs share.
package bench

import (
	"os"
	"strings"
	"syscall"
	"time"
)

// LoadAvg is the 1-minute load average (the machine may be shared).
func LoadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	if f := strings.Fields(string(b)); len(f) > 0 {
		return f[0]
	}
	return "unknown"
}

// SelfCPU is this process's user+sys CPU time so far (0 if unknown).
func SelfCPU() time.Duration { return rusage(syscall.RUSAGE_SELF) }

// ChildrenCPU is the user+sys CPU time of this process's waited-for
// children so far (0 if unknown).
func ChildrenCPU() time.Duration { return rusage(syscall.RUSAGE_CHILDREN) }

// ChildrenFaults is the minor page faults of the waited-for children so
// far (getrusage): first touches of memory, which cost ~10 us each on a
// virtual machine where bare metal takes well under one.
func ChildrenFaults() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		return 0
	}
	return ru.Minflt
}

func rusage(who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

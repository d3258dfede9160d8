package project

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// MachineMemory is the memory this process may use: the machine's RAM,
// or its cgroup's memory.max when that is lower (a container); 0 when
// unknown.
func MachineMemory() Size {
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) != nil {
		return 0
	}
	total := Size(uint64(si.Totalram) * uint64(si.Unit))
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && n > 0 && Size(n) < total {
			total = Size(n)
		}
	}
	return total
}

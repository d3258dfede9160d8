package project

import (
	"os"
	"syscall"
)

// MachineMemory is the memory this process may use: the machine's RAM,
// or the lowest limit of its cgroups (v2 or v1, see cgroupMemory) when
// that is lower (a container); 0 when unknown.
func MachineMemory() Size {
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) != nil {
		return 0
	}
	total := Size(uint64(si.Totalram) * uint64(si.Unit))
	if self, err := os.ReadFile("/proc/self/cgroup"); err == nil {
		if n := cgroupMemory("/sys/fs/cgroup", self); n > 0 && n < total {
			total = n
		}
	}
	return total
}

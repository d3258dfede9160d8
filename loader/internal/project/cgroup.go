package project

import (
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// cgroupMemory is the lowest memory limit of the cgroups this process is
// in, from its /proc/self/cgroup lines (self) and the cgroup file systems
// mounted under root (/sys/fs/cgroup); 0 when none is set. It reads
// cgroup v2 (the "0::/path" line: memory.max of that group and of every
// group above it, "max" meaning none) and cgroup v1 (the line naming the
// memory controller: memory.limit_in_bytes under root/memory, the same
// walk up; v1 writes "no limit" as a number near 2^63). A limit set on a
// parent group binds its children, hence the walk; inside a container the
// process's own group is usually "/", the container's limit.
func cgroupMemory(root string, self []byte) Size {
	var lowest Size
	take := func(file string) {
		b, err := os.ReadFile(file)
		if err != nil {
			return
		}
		n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		if err != nil || n <= 0 { // "max", or unreadable
			return
		}
		if lowest == 0 || Size(n) < lowest {
			lowest = Size(n)
		}
	}
	walk := func(base, group, name string) {
		for g := path.Clean("/" + group); ; g = path.Dir(g) {
			take(filepath.Join(base, filepath.FromSlash(g), name))
			if g == "/" {
				return
			}
		}
	}
	for _, line := range strings.Split(string(self), "\n") {
		parts := strings.SplitN(strings.TrimSpace(line), ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			walk(root, parts[2], "memory.max")
			walk(filepath.Join(root, "unified"), parts[2], "memory.max") // hybrid hosts mount v2 there
		case hasController(parts[1], "memory"):
			walk(filepath.Join(root, "memory"), parts[2], "memory.limit_in_bytes")
		}
	}
	return lowest
}

func hasController(list, name string) bool {
	for _, c := range strings.Split(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

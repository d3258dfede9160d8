package project

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCgroupMemory: the memory limit of a container is found in cgroup v2
// and v1, in the process's own group or a group above it; MachineMemory
// read only /sys/fs/cgroup/memory.max, so a v1 host (like the CI machine)
// or a limit on a parent group was never seen, and a memory_limit over
// the container's memory passed unwarned.
func TestCgroupMemory(t *testing.T) {
	write := func(root, rel, content string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name  string
		files map[string]string
		self  string
		want  Size
	}{
		{"v2 own group", map[string]string{"memory.max": "max\n", "app/memory.max": "2147483648\n"},
			"0::/app\n", 2 << 30},
		{"v2 parent group lower", map[string]string{"memory.max": "max\n", "a/memory.max": "1073741824\n", "a/b/memory.max": "max\n"},
			"0::/a/b\n", 1 << 30},
		{"v2 no limit", map[string]string{"memory.max": "max\n"}, "0::/\n", 0},
		{"v1 memory controller", map[string]string{
			"memory/memory.limit_in_bytes":     "9223372036854771712\n",
			"memory/job/memory.limit_in_bytes": "536870912\n",
		}, "9:pids:/\n4:cpu,memory:/job\n0::/\n", 512 << 20},
		{"v1 unlimited", map[string]string{"memory/memory.limit_in_bytes": "9223372036854771712\n"},
			"4:memory:/\n", 9223372036854771712},
		{"hybrid: v2 under unified", map[string]string{"unified/svc/memory.max": "3221225472\n"},
			"4:memory:/\n0::/svc\n", 3 << 30},
		{"nothing mounted", nil, "0::/x\n4:memory:/y\n", 0},
	}
	for _, c := range cases {
		root := t.TempDir()
		for rel, content := range c.files {
			write(root, rel, content)
		}
		if got := cgroupMemory(root, []byte(c.self)); got != c.want {
			t.Errorf("%s: cgroupMemory = %d, want %d", c.name, got, c.want)
		}
	}
}

// TestOverMachineNotUnderDuckDBMinimum: on a machine (or container) of
// less than 80 MiB the 80 % default fell under MinDuckDBMemory, the least
// docket gives DuckDB anywhere else.
func TestOverMachineNotUnderDuckDBMinimum(t *testing.T) {
	got, why := overMachine(1<<30, 50<<20)
	if why == "" {
		t.Fatal("1GiB over a 50MiB machine gave no warning")
	}
	if got < MinDuckDBMemory {
		t.Errorf("overMachine(1GiB, 50MiB) = %d, under MinDuckDBMemory %d", got, MinDuckDBMemory)
	}
}

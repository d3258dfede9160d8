package project

import (
	"strings"
	"testing"
)

// TestDefaultLoadMemoryOverSmallMachine: on a machine (or container)
// where loader.memory_limit's default is more than 80 % of the memory
// (DuckDB's own default), the load uses that share and says so once,
// naming the setting and what is used; a set limit that fits, or a
// machine with room, changes nothing. The 160MB default was given to
// DuckDB as it was, unchecked, on a 150 MiB container.
func TestDefaultLoadMemoryOverSmallMachine(t *testing.T) {
	defer func(m func() Size) { machineMemory = m }(machineMemory)
	for _, c := range []struct {
		machine Size
		yaml    string
		want    Size
		warn    string
	}{
		{150 << 20, "", 120 << 20, "loader.memory_limit is not set and its default, 160.0 MiB, is more than 80 % of this machine's memory (150.0 MiB); the load uses 120.0 MiB"},
		{180 << 20, "", 144 << 20, "loader.memory_limit is not set and its default, 160.0 MiB, is more than 80 %"},
		{70 << 20, "", MinDuckDBMemory, "loader.memory_limit is not set and its default, 160.0 MiB, is more than 80 % of this machine's memory (70.0 MiB); the load uses 64.0 MiB"},
		{180 << 20, "  memory_limit: 160MB\n", 160 << 20, ""},
		{4 << 30, "", DefaultLoadMemory, ""},
	} {
		machineMemory = func() Size { return c.machine }
		p, err := Parse("/p/project.yaml", []byte("version: 1\nloader:\n  workers: 1\n"+c.yaml))
		if err != nil {
			t.Fatal(err)
		}
		limit, warn := p.Loader.DuckDBMemory()
		if limit != c.want || (c.warn == "") != (warn == "") || !strings.HasPrefix(warn, c.warn) {
			t.Errorf("machine %s, %q: limit %s, %q; want %s, %q", c.machine.human(), c.yaml, limit.human(), warn, c.want.human(), c.warn)
		}
	}
}

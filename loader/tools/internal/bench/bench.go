// Package bench holds small helpers the benchmark programs share.
package bench

import (
	"os"
	"strings"
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

package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner"
	"github.com/docket-dev/docket/loader/tools/internal/bench"
)

// benchDir parses (and compiles) an existing project folder rounds times
// and prints the CPU (user+sys) and wall time of each parse: CPU is the
// figure to compare on a shared machine.
func benchDir(dir, vars string, rounds int) {
	p, err := project.Load(dir)
	if err != nil {
		fail(err)
	}
	var cpus []time.Duration
	for i := 0; i < rounds; i++ {
		c0, t0 := bench.SelfCPU(), time.Now()
		m, diags, err := runner.Parse(p, runner.ParseOptions{Vars: parseVars(vars)})
		if err != nil {
			fail(err)
		}
		cpu, wall := bench.SelfCPU()-c0, time.Since(t0)
		cpus = append(cpus, cpu)
		if i == 0 && len(diags) > 0 {
			fmt.Println("first problem:", diags[0])
		}
		fmt.Printf("parse+compile %s: %d nodes, %d problems, cpu %.0f ms, wall %.0f ms\n",
			dir, len(m.Nodes), len(diags), cpu.Seconds()*1000, wall.Seconds()*1000)
	}
	best := cpus[0]
	for _, c := range cpus {
		best = min(best, c)
	}
	fmt.Printf("best cpu of %d: %.0f ms\n", rounds, best.Seconds()*1000)
}

// parseVars reads key=value,key=value.
func parseVars(s string) map[string]any {
	out := map[string]any{}
	for _, kv := range strings.Split(s, ",") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			out[k] = v
		}
	}
	return out
}

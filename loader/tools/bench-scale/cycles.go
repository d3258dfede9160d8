package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// cycle is one change cycle of the cycles step.
type cycle struct {
	docs        int
	load, build measure
	blocks      string // total/used/free blocks after the build
}

// runCycles measures the warehouse file across o.cycles change cycles
// (issue 15: growth after changes must be reclaimed): each adds 1 % new
// documents, appends a line to 0.2 % and deletes 0.2 %, then loads and
// builds; then a no-op build (the file must not change) and `docket
// compact` (what a copy into a fresh file gives back).
func runCycles(o options, pl *pool, r *sizeResult, docs, dir string) error {
	next := r.n
	if o.steps["plus"] {
		next += r.plus
	}
	live := next
	k := max(1, r.plus/5)
	for c := 1; c <= o.cycles; c++ {
		if _, err := pl.writeDocs(docs, o.seed, next, next+r.plus); err != nil {
			return err
		}
		next += r.plus
		live += r.plus
		for j := 0; j < k; j++ {
			name, _ := pl.content(o.seed, (c*7919+j*104729)%r.n)
			f, err := os.OpenFile(filepath.Join(docs, name), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				continue // deleted in an earlier cycle
			}
			fmt.Fprintf(f, "\nRevision %d.%d: the figures above were checked again.\n", c, j)
			f.Close()
		}
		for j := 0; j < k; j++ {
			name, _ := pl.content(o.seed, (c*15485863+j*32452843+1)%r.n)
			if os.Remove(filepath.Join(docs, name)) == nil {
				live--
			}
		}
		load, _, err := runDocket(o.bin, dir, "load", "--quiet")
		if err != nil {
			return err
		}
		build, _, err := runDocket(o.bin, dir, "build")
		if err != nil {
			return err
		}
		cy := cycle{docs: live, load: load, build: build, blocks: blockStats(o.bin, dir)}
		r.cycles = append(r.cycles, cy)
		fmt.Printf("   cycle %-3d %6d docs  build %8s  cpu %8s  warehouse %7s  blocks total/used/free %s\n", c, live, secs(build.Wall), secs(build.CPU), mb(build.Size), cy.blocks)
	}
	noop, _, err := runDocket(o.bin, dir, "build")
	if err != nil {
		return err
	}
	r.cycles = append(r.cycles, cycle{docs: live, build: noop, blocks: blockStats(o.bin, dir)})
	cm, _, err := runDocket(o.bin, dir, "compact")
	if err != nil {
		return err
	}
	r.compact = &cm
	return nil
}

// blockStats reads DuckDB's block counts of the published copy (the
// writer's file, byte for byte, after a build).
func blockStats(bin, dir string) string {
	return strings.Join(strings.Fields(scalar(bin, dir, "select total_blocks || '/' || used_blocks || '/' || free_blocks from pragma_database_size() where database_name = current_database()")), "")
}

func printCycles(r *sizeResult) {
	if len(r.cycles) == 0 {
		return
	}
	fmt.Printf("  change cycles (+1 %% new, 0.2 %% changed, 0.2 %% deleted; load, build): warehouse after each build\n")
	for i, c := range r.cycles {
		label := fmt.Sprintf("cycle %d", i+1)
		if i == len(r.cycles)-1 {
			label = "no-op build"
		}
		fmt.Printf("    %-12s %6d docs  %8s  blocks total/used/free %s  build cpu %s\n", label, c.docs, mb(c.build.Size), c.blocks, secs(c.build.CPU))
	}
	if r.compact != nil {
		fmt.Printf("    %-12s %6s       %8s  (%s wall, %s cpu)\n", "compact", "", mb(r.compact.Size), secs(r.compact.Wall), secs(r.compact.CPU))
	}
}

package executor

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// priority orders nodes that are ready at once: tests first (they may
// skip what follows), then seeds, then models.
var priority = map[string]int{compiler.Test: 0, compiler.UnitTest: 0, compiler.Seed: 1, compiler.Model: 2}

// plan is what one command runs (compiler.Manifest.Plan): exec, the
// nodes, and deps, what each waits for (schedule empties it).
type plan struct {
	exec map[string]bool
	deps map[string]map[string]bool
}

// schedule runs the planned nodes on workers goroutines: run(worker, id) runs one node, emit receives
// each result in the order they finish, numbered. A node whose upstream
// errored, was skipped or failed (a test of severity error) is skipped
// without running, naming why. Among ready nodes, tests go first, then
// seeds, then models, each in the manifest's order. It knows nothing of
// the database: Execute gives each worker its connection.
func schedule(m *compiler.Manifest, p plan, workers int, run func(worker int, id string) Result, emit func(Result)) {
	exec, deps := p.exec, p.deps
	rank := map[string]int{}
	for i, id := range m.Order {
		rank[id] = i
	}
	dependents := map[string][]string{}
	for id, ds := range deps {
		for d := range ds {
			dependents[d] = append(dependents[d], id)
		}
	}
	jobs := make(chan string)
	results := make(chan Result)
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for id := range jobs {
				results <- run(i, id)
			}
		}(i)
	}
	defer func() {
		close(jobs)
		wg.Wait()
	}()

	failed := map[string]string{} // id → why downstream is skipped
	var ready []string
	for id := range exec {
		if len(deps[id]) == 0 {
			ready = append(ready, id)
		}
	}
	pending, running, done := len(exec), 0, 0
	// DuckDB's memory_limit is one budget for every query of the run: a
	// node that ran out of it while others ran beside it runs once more
	// alone (outOfMemoryAlone), as soon as the running nodes finish, and
	// no node starts beside it.
	inflight := map[string]bool{}
	beside := map[string]string{}  // id → a node that ran beside it
	retried := map[string]string{} // id → the node beside its first run
	var alone []string
	dispatch := func(id string) {
		for o := range inflight {
			beside[id], beside[o] = o, id
		}
		inflight[id] = true
		running++
	}
	// result takes one result: false when the node goes again alone.
	result := func(r Result) bool {
		running--
		delete(inflight, r.UniqueID)
		other, ok := beside[r.UniqueID]
		delete(beside, r.UniqueID)
		if _, again := retried[r.UniqueID]; !ok || again || !outOfMemory(r) {
			return true
		}
		retried[r.UniqueID] = other
		alone = append(alone, r.UniqueID)
		return false
	}
	numbered := func(r Result) {
		done++
		r.Index, r.Total = done, len(exec)
		emit(r)
	}
	finish := func(r Result) {
		pending--
		numbered(r)
		blocking := r.Status == StatusError || r.Status == StatusSkipped ||
			(r.Status == StatusFail && r.Severity != "warn")
		for _, d := range dependents[r.UniqueID] {
			if blocking && failed[d] == "" {
				why := failed[r.UniqueID]
				if why == "" {
					why = fmt.Sprintf("%s %s %s", r.ResourceType, r.Name, map[string]string{StatusError: "errored", StatusFail: "failed"}[r.Status])
				}
				failed[d] = why
			}
			delete(deps[d], r.UniqueID)
			if len(deps[d]) == 0 {
				ready = append(ready, d)
			}
		}
	}
	for pending > 0 {
		// skipped nodes resolve at once
		sort.Slice(ready, func(i, j int) bool {
			a, b := m.Nodes[ready[i]], m.Nodes[ready[j]]
			if pa, pb := priority[a.ResourceType], priority[b.ResourceType]; pa != pb {
				return pa < pb
			}
			if rank[a.UniqueID] != rank[b.UniqueID] {
				return rank[a.UniqueID] < rank[b.UniqueID]
			}
			return a.UniqueID < b.UniqueID
		})
		progressed := false
		for i := 0; i < len(ready); i++ {
			id := ready[i]
			if why := failed[id]; why != "" {
				ready = append(ready[:i], ready[i+1:]...)
				n := m.Nodes[id]
				finish(Result{UniqueID: id, Status: StatusSkipped, Message: "skipped: upstream " + why,
					ResourceType: n.ResourceType, Name: n.Name, Materialized: n.Config.Materialized, Severity: n.Config.Severity,
					RelationName: n.Relation, Timing: []Timing{}})
				progressed = true
				break
			}
		}
		if progressed {
			continue
		}
		if len(alone) > 0 {
			if running == 0 {
				id := alone[0]
				alone = alone[1:]
				jobs <- id
				dispatch(id)
				r := <-results
				running--
				delete(inflight, id)
				r.RetriedAlone = retried[id]
				finish(r)
				continue
			}
			if r := <-results; result(r) {
				finish(r)
			}
			continue
		}
		if len(ready) > 0 && running < workers {
			select {
			case jobs <- ready[0]:
				dispatch(ready[0])
				ready = ready[1:]
			case r := <-results:
				if result(r) {
					finish(r)
				}
			}
			continue
		}
		if running == 0 && len(alone) == 0 {
			// nothing runnable: cannot happen with an acyclic graph
			for _, id := range compiler.SortedKeys(deps) {
				if len(deps[id]) > 0 {
					n := m.Nodes[id]
					numbered(Result{UniqueID: id, Status: StatusError, Message: "internal error: dependencies never finished",
						ResourceType: n.ResourceType, Name: n.Name, Timing: []Timing{}})
				}
			}
			break
		}
		if r := <-results; result(r) {
			finish(r)
		}
	}
}

// outOfMemory: a model or seed that DuckDB stopped for want of memory.
func outOfMemory(r Result) bool {
	return r.Status == StatusError && (r.ResourceType == compiler.Model || r.ResourceType == compiler.Seed) &&
		strings.Contains(r.Message, "Out of Memory Error")
}

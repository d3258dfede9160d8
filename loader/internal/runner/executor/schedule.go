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
	// failFast is dbt's --fail-fast: after the first error or failure
	// (of error severity) no node starts; the rest are skipped, saying so.
	failFast bool
}

// schedule runs the planned nodes on workers goroutines: run(worker, id) runs one node, emit receives
// each result in the order they finish, numbered. A node whose upstream
// errored, was skipped or failed (a test of severity error) is skipped
// without running, naming why. Among ready nodes, tests go first, then
// seeds, then models, each in the manifest's order. It knows nothing of
// the database: Execute gives each worker its connection.
func schedule(m *compiler.Manifest, p plan, workers int, run func(worker int, id string) Result, emit func(Result)) {
	s := newScheduler(m, p, emit)
	s.jobs, s.results = make(chan string), make(chan Result)
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for id := range s.jobs {
				s.results <- run(i, id)
			}
		}(i)
	}
	defer func() {
		close(s.jobs)
		wg.Wait()
	}()
	for s.pending > 0 {
		switch {
		case s.skipOne():
			// skipped nodes resolve at once
		case len(s.alone) > 0:
			s.runAlone()
		case len(s.ready) > 0 && s.running < workers:
			select {
			case s.jobs <- s.ready[0]:
				s.dispatch(s.ready[0])
				s.ready = s.ready[1:]
			case r := <-s.results:
				s.take(r)
			}
		case s.running == 0:
			s.stuck() // nothing runnable: cannot happen with an acyclic graph
			return
		default:
			s.take(<-s.results)
		}
	}
}

// scheduler is the state of one schedule call.
type scheduler struct {
	m          *compiler.Manifest
	exec       map[string]bool
	deps       map[string]map[string]bool
	rank       map[string]int      // id → place in the manifest's order
	dependents map[string][]string // id → the nodes waiting for it
	emit       func(Result)
	jobs       chan string
	results    chan Result

	failed                 map[string]string // id → why downstream is skipped
	failFast, stopped      bool
	ready                  []string
	pending, running, done int
	// DuckDB's memory_limit is one budget for every query of the run: a
	// node that ran out of it while others ran beside it runs once more
	// alone (outOfMemoryAlone), as soon as the running nodes finish, and
	// no node starts beside it.
	inflight map[string]bool
	beside   map[string]string // id → a node that ran beside it
	retried  map[string]string // id → the node beside its first run
	alone    []string
}

func newScheduler(m *compiler.Manifest, p plan, emit func(Result)) *scheduler {
	s := &scheduler{m: m, exec: p.exec, deps: p.deps, rank: map[string]int{}, dependents: map[string][]string{},
		emit: emit, failed: map[string]string{}, pending: len(p.exec), failFast: p.failFast,
		inflight: map[string]bool{}, beside: map[string]string{}, retried: map[string]string{}}
	for i, id := range m.Order {
		s.rank[id] = i
	}
	for id, ds := range p.deps {
		for d := range ds {
			s.dependents[d] = append(s.dependents[d], id)
		}
	}
	for id := range p.exec {
		if len(p.deps[id]) == 0 {
			s.ready = append(s.ready, id)
		}
	}
	return s
}

func (s *scheduler) dispatch(id string) {
	for o := range s.inflight {
		s.beside[id], s.beside[o] = o, id
	}
	s.inflight[id] = true
	s.running++
}

// take takes one result: the node finishes, or goes again alone when it
// ran out of memory beside another node on its first run.
func (s *scheduler) take(r Result) {
	s.running--
	delete(s.inflight, r.UniqueID)
	other, ok := s.beside[r.UniqueID]
	delete(s.beside, r.UniqueID)
	if _, again := s.retried[r.UniqueID]; !ok || again || !outOfMemory(r) {
		s.finish(r)
		return
	}
	s.retried[r.UniqueID] = other
	s.alone = append(s.alone, r.UniqueID)
}

// runAlone runs the first node waiting to run alone once nothing else
// runs; until then it takes the running nodes' results.
func (s *scheduler) runAlone() {
	if s.running > 0 {
		s.take(<-s.results)
		return
	}
	id := s.alone[0]
	s.alone = s.alone[1:]
	s.jobs <- id
	s.dispatch(id)
	r := <-s.results
	s.running--
	delete(s.inflight, id)
	r.RetriedAlone = s.retried[id]
	s.finish(r)
}

func (s *scheduler) numbered(r Result) {
	s.done++
	r.Index, r.Total = s.done, len(s.exec)
	s.emit(r)
}

// finish records a node's result and readies the nodes that waited for
// it; a blocking result marks them to be skipped, naming why.
func (s *scheduler) finish(r Result) {
	s.pending--
	s.numbered(r)
	blocking := r.Status == StatusError || r.Status == StatusSkipped || r.Status == StatusPartialSuccess ||
		(r.Status == StatusFail && r.Severity != "warn")
	if s.failFast && !s.stopped && blocking && r.Status != StatusSkipped {
		// --fail-fast: nothing more starts (the running nodes finish)
		s.stopped = true
		why := fmt.Sprintf("%s%s %s %s", failFastWhy, r.ResourceType, r.Name, map[string]string{StatusError: "errored", StatusFail: "failed", StatusPartialSuccess: "had failed batches"}[r.Status])
		for id := range s.exec {
			if s.failed[id] == "" && !s.inflight[id] && id != r.UniqueID {
				s.failed[id] = why
			}
		}
	}
	for _, d := range s.dependents[r.UniqueID] {
		if blocking && s.failed[d] == "" {
			why := s.failed[r.UniqueID]
			if why == "" {
				why = fmt.Sprintf("%s %s %s", r.ResourceType, r.Name, map[string]string{StatusError: "errored", StatusFail: "failed", StatusPartialSuccess: "had failed batches"}[r.Status])
			}
			s.failed[d] = why
		}
		delete(s.deps[d], r.UniqueID)
		if len(s.deps[d]) == 0 {
			s.ready = append(s.ready, d)
		}
	}
}

// failFastWhy starts the reason of a node --fail-fast skipped.
const failFastWhy = "--fail-fast: "

// skipOne sorts the ready nodes (tests, seeds, models; then the
// manifest's order) and finishes the first one to skip, if any.
func (s *scheduler) skipOne() bool {
	sort.Slice(s.ready, func(i, j int) bool {
		a, b := s.m.Nodes[s.ready[i]], s.m.Nodes[s.ready[j]]
		if pa, pb := priority[a.ResourceType], priority[b.ResourceType]; pa != pb {
			return pa < pb
		}
		if s.rank[a.UniqueID] != s.rank[b.UniqueID] {
			return s.rank[a.UniqueID] < s.rank[b.UniqueID]
		}
		return a.UniqueID < b.UniqueID
	})
	for i, id := range s.ready {
		if why := s.failed[id]; why != "" {
			s.ready = append(s.ready[:i], s.ready[i+1:]...)
			n := s.m.Nodes[id]
			msg := "skipped: upstream " + why
			if strings.HasPrefix(why, failFastWhy) {
				msg = "skipped: " + why
			}
			s.finish(Result{UniqueID: id, Status: StatusSkipped, Message: msg,
				ResourceType: n.ResourceType, Name: n.Name, Materialized: n.Config.Materialized, Severity: n.Config.Severity,
				RelationName: n.Relation, Timing: []Timing{}})
			return true
		}
	}
	return false
}

// stuck reports every node whose dependencies never finished.
func (s *scheduler) stuck() {
	for _, id := range compiler.SortedKeys(s.deps) {
		if len(s.deps[id]) > 0 {
			n := s.m.Nodes[id]
			s.numbered(Result{UniqueID: id, Status: StatusError, Message: "internal error: dependencies never finished",
				ResourceType: n.ResourceType, Name: n.Name, Timing: []Timing{}})
		}
	}
}

// outOfMemory: a model or seed that DuckDB stopped for want of memory.
func outOfMemory(r Result) bool {
	return r.Status == StatusError && (r.ResourceType == compiler.Model || r.ResourceType == compiler.Seed) &&
		strings.Contains(r.Message, "Out of Memory Error")
}

package runner

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"sync"
	"time"
)

var priority = map[string]int{Test: 0, UnitTest: 0, Seed: 1, Model: 2}

// CommandTypes are the resource types a command runs (nil for an
// unknown command); the CLI selects with them, Execute runs them.
func CommandTypes(command string) []string { return append([]string(nil), commandTypes[command]...) }

var commandTypes = map[string][]string{
	"build":    {Model, Seed, Snapshot, Test, UnitTest},
	"snapshot": {Snapshot},
	"run":      {Model},
	"test":     {Test, UnitTest},
	"seed":     {Seed},
}

// Execute builds the selected nodes in DAG order with a pool of threads,
// each with its own warehouse connection (Go UDFs registered). A node
// whose upstream failed is skipped; in build, an error-severity test
// failure skips the tested node's downstream.
func (m *Manifest) Execute(ctx context.Context, db Database, opts RunOptions) (*RunResults, error) {
	exec, deps, err := m.plan(opts.Command, opts.Selected)
	if err != nil {
		return nil, err
	}
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

	threads := opts.Threads
	if threads <= 0 {
		threads = 1
	}
	if threads > len(exec) && len(exec) > 0 {
		threads = len(exec)
	}
	start := time.Now()
	rr := &RunResults{Metadata: map[string]any{
		"dbt_schema_version": "https://schemas.getdbt.com/dbt/run-results/v6.json",
		"generated_at":       start.UTC().Format(time.RFC3339), "invocation_id": fmt.Sprintf("%x", start.UnixNano()),
		"docket_command": opts.Command},
		Args:    map[string]any{"which": opts.Command, "full_refresh": opts.FullRefresh, "threads": threads, "select": opts.Selected},
		Results: []Result{}}
	if len(exec) == 0 {
		return rr, nil
	}

	// schemas first, serially (concurrent CREATE SCHEMA conflicts)
	conn0, err := db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("runner: %w", err)
	}
	schemas := map[string]bool{}
	for id := range exec {
		if n := m.Nodes[id]; n.ResourceType != Test {
			schemas[n.Schema] = true
		}
	}
	for _, s := range sortedKeys(schemas) {
		if _, err := conn0.ExecContext(ctx, "create schema if not exists "+Quote(s)); err != nil {
			conn0.Close()
			return nil, fmt.Errorf("runner: create schema %s: %w", s, err)
		}
	}
	st := m.openState(ctx, conn0, opts.Command)
	conns := []*sql.Conn{conn0}
	for len(conns) < threads {
		c, err := db.Conn(ctx)
		if err != nil {
			for _, c := range conns {
				c.Close()
			}
			return nil, fmt.Errorf("runner: %w", err)
		}
		conns = append(conns, c)
	}
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()

	jobs := make(chan string)
	results := make(chan Result)
	var wg sync.WaitGroup
	for i, c := range conns {
		wg.Add(1)
		go func(i int, c *sql.Conn) {
			defer wg.Done()
			for id := range jobs {
				r := m.runNode(ctx, c, m.Nodes[id], opts, exec, st)
				r.ThreadID = fmt.Sprintf("Thread-%d", i+1)
				results <- r
			}
		}(i, c)
	}

	failed := map[string]string{} // id → why downstream is skipped
	var ready []string
	for id := range exec {
		if len(deps[id]) == 0 {
			ready = append(ready, id)
		}
	}
	pending, running, done := len(exec), 0, 0
	emit := func(r Result) {
		done++
		r.Index, r.Total = done, len(exec)
		rr.Results = append(rr.Results, r)
		if opts.OnResult != nil {
			opts.OnResult(r)
		}
	}
	var finish func(r Result)
	finish = func(r Result) {
		pending--
		emit(r)
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
		if len(ready) > 0 && running < len(conns) {
			select {
			case jobs <- ready[0]:
				ready = ready[1:]
				running++
			case r := <-results:
				running--
				finish(r)
			}
			continue
		}
		if running == 0 {
			// nothing runnable: cannot happen with an acyclic graph
			for _, id := range sortedKeys(deps) {
				if len(deps[id]) > 0 {
					n := m.Nodes[id]
					emit(Result{UniqueID: id, Status: StatusError, Message: "internal error: dependencies never finished",
						ResourceType: n.ResourceType, Name: n.Name, Timing: []Timing{}})
				}
			}
			break
		}
		r := <-results
		running--
		finish(r)
	}
	close(jobs)
	wg.Wait()
	rr.ElapsedTime = time.Since(start).Seconds()
	return rr, nil
}

// plan decides what a command runs of the selected nodes (nil: all) and
// what each waits for: its executed ancestors; in build, a model also
// waits for its unit tests and the children of a tested node for its
// tests; in test, nothing waits. It reads only the manifest.
func (m *Manifest) plan(command string, selected []string) (exec map[string]bool, deps map[string]map[string]bool, err error) {
	types, ok := commandTypes[command]
	if !ok {
		return nil, nil, fmt.Errorf("runner: unknown command %q", command)
	}
	want := map[string]bool{}
	for _, t := range types {
		want[t] = true
	}
	sel := selected
	if sel == nil {
		for id := range m.Nodes {
			sel = append(sel, id)
		}
	}
	exec = map[string]bool{}
	for _, id := range sel {
		n := m.Nodes[id]
		if n == nil || !want[n.ResourceType] || (n.ResourceType == Model && n.Config.Materialized == "ephemeral") {
			continue
		}
		exec[id] = true
	}
	// dependencies: executed ancestors
	deps = map[string]map[string]bool{}
	for id := range exec {
		deps[id] = map[string]bool{}
		n := m.Nodes[id]
		if (n.ResourceType == Test || n.ResourceType == UnitTest) && command == "test" {
			continue
		}
		from := id
		if n.ResourceType == UnitTest {
			// a unit test runs before its model, after the model's parents
			from = n.unit.modelNode.UniqueID
		}
		for a := range m.Ancestors(from) {
			if exec[a] && a != from {
				deps[id][a] = true
			}
		}
	}
	for id := range exec {
		// in build, a model waits for its unit tests (skipped when one fails)
		if n := m.Nodes[id]; n.ResourceType == UnitTest && exec[n.unit.modelNode.UniqueID] {
			deps[n.unit.modelNode.UniqueID][id] = true
		}
	}
	if command == "build" {
		// a model's children wait for the model's tests, unless that would
		// make a cycle (a test that also reads a descendant)
		reaches := func(from, to string) bool { // does from depend on to?
			seen := map[string]bool{}
			todo := []string{from}
			for len(todo) > 0 {
				cur := todo[len(todo)-1]
				todo = todo[:len(todo)-1]
				if cur == to {
					return true
				}
				for d := range deps[cur] {
					if !seen[d] {
						seen[d] = true
						todo = append(todo, d)
					}
				}
			}
			return false
		}
		for _, id := range sortedKeys(exec) {
			t := m.Nodes[id]
			if t.ResourceType != Test {
				continue
			}
			// A test guards the descendants of every node it reads (a
			// singular test that refs several models guards all of them).
			parents := t.DependsOn.Nodes
			if t.AttachedNode != "" {
				parents = []string{t.AttachedNode}
			}
			for _, attached := range parents {
				for _, c := range sortedKeys(m.Descendants(attached)) {
					if !exec[c] || c == id || m.Nodes[c].ResourceType == Test || m.Nodes[c].ResourceType == UnitTest || reaches(id, c) {
						continue
					}
					deps[c][id] = true
				}
			}
		}
	}
	return exec, deps, nil
}

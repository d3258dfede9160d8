// Package executor builds what the compiler planned: Execute runs the
// selected seeds, models, snapshots, data tests and unit tests in DAG
// order on a pool of warehouse connections (Database, which
// *warehouse.DB implements), one file per materialization and test kind,
// skipping nodes whose inputs are unchanged (state.go). What a run did is
// in its RunResults; the manifest is only read
// (TestExecuteLeavesTheManifestAlone). WriteArtifacts writes
// target/compiled, manifest.json and run_results.json.
package executor

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// Execute builds the selected nodes in DAG order with a pool of threads,
// each with its own warehouse connection (Go UDFs registered). A node
// whose upstream failed is skipped; in build, an error-severity test
// failure skips the tested node's downstream. An on-run-end hook that
// fails returns its error with the results of the nodes, which ran; after
// a failed on-run-start the nodes are skipped and on-run-end still runs.
func Execute(ctx context.Context, m *compiler.Manifest, db Database, opts RunOptions) (*RunResults, error) {
	exec, deps, err := m.Plan(opts.Command, opts.Selected)
	if err != nil {
		return nil, err
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
		"dbt_schema_version": compiler.RunResultsSchema, "dbt_version": compiler.DbtVersion,
		"generated_at": compiler.ArtifactTime(start), "invocation_id": m.InvocationID(),
		"invocation_started_at": compiler.ArtifactTime(m.StartedAt()), "docket_command": opts.Command},
		Args:    map[string]any{"which": opts.Command, "full_refresh": opts.FullRefresh, "empty": opts.Empty, "threads": threads, "select": opts.Selected},
		Results: []Result{}}
	for k, t := range map[string]time.Time{"event_time_start": opts.EventTimeStart, "event_time_end": opts.EventTimeEnd} {
		if !t.IsZero() {
			rr.Args[k] = t.UTC().Format(time.RFC3339) // dbt 1.9 records them; retry passes them again
		}
	}
	// templates that read graph, selected_resources or invocation_args_dict
	// see this run's
	if m, err = m.ForRun(compiler.RunContext{Selected: compiler.SortedKeys(exec), Empty: opts.Empty, Args: invocationArgs(rr.Args)}); err != nil {
		return nil, err
	}
	if len(exec) == 0 {
		return rr, nil
	}

	rn := &run{m: m, opts: opts, built: exec}
	conns, err := rn.connect(ctx, db, threads)
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()

	emit := func(r Result) {
		rr.Results = append(rr.Results, r)
		if opts.OnResult != nil {
			opts.OnResult(r)
		}
	}
	if err := runHooks(ctx, m, conns[0], nil, emit); err != nil {
		// dbt_project.yml's flags.skip_nodes_if_on_run_start_fails: the
		// nodes are not run, each listed as skipped; the on-run-end hooks
		// still run, as dbt's after_run runs them whatever the start gave
		skipAll(m, exec, emit)
		if endErr := runHooks(ctx, m, conns[0], runEnd(rr), emit); endErr != nil {
			err = errors.Join(err, endErr)
		}
		rr.ElapsedTime = time.Since(start).Seconds()
		return rr, err
	}
	schedule(m, plan{exec: exec, deps: deps, failFast: opts.FailFast}, len(conns), func(worker int, id string) Result {
		r := rn.node(ctx, conns[worker], m.Nodes[id])
		r.ThreadID = fmt.Sprintf("Thread-%d", worker+1)
		return r
	}, emit)
	// The nodes ran: a failing on-run-end hook's error comes with their results.
	err = runHooks(ctx, m, conns[0], runEnd(rr), emit)
	rr.ElapsedTime = time.Since(start).Seconds()
	return rr, err
}

// runHooks runs dbt_project.yml's on-run-start (start) or on-run-end hooks
// in order on c, emitting each one's result as dbt 1.8+ records it
// (operation.<project>.<project>-on-run-end-<i>, thread main, timings
// compile and execute). The first that fails stops the run with its
// error, as in dbt: the hooks after it are skipped.
func runHooks(ctx context.Context, m *compiler.Manifest, c *sql.Conn, end *compiler.RunEnd, emit func(Result)) error {
	start := end == nil
	which := "on-run-end"
	if start {
		which = "on-run-start"
	}
	hooks := m.RunHooks(start)
	var failed error
	for i, h := range hooks {
		hookName := fmt.Sprintf("%s.%s.%d", h.PackageName, which, h.HookIndex) // dbt's name in messages
		r := Result{UniqueID: h.UniqueID, ResourceType: compiler.Operation, Name: hookName, ThreadID: "main",
			Index: i + 1, Total: len(hooks), Timing: []Timing{}}
		if failed != nil {
			r.Status, r.Message = StatusSkipped, hookName+" skipped"
			emit(r)
			continue
		}
		t0 := time.Now()
		q, err := m.RenderRunHook(ctx, sqlQuerier{c}, h, end)
		t1 := time.Now()
		if err == nil && q != "" {
			_, err = c.ExecContext(ctx, catalogInfoSchema(ctx, c, q))
		}
		t2 := time.Now()
		r.Timing = []Timing{{Name: "compile", StartedAt: t0, CompletedAt: t1}, {Name: "execute", StartedAt: t1, CompletedAt: t2}}
		r.ExecutionTime, r.CompiledCode = t2.Sub(t0).Seconds(), q
		r.Status, r.Message, r.AdapterResponse.Message = StatusSuccess, hookName+" passed", "OK"
		if err != nil {
			one := int64(1)
			r.Status, r.Message, r.Failures, r.AdapterResponse.Message = StatusError, hookName+" failed, error:\n "+err.Error(), &one, ""
			failed = fmt.Errorf("dbt_project.yml %s hook %d: %w", which, i+1, err)
		} else {
			zero := int64(0)
			r.Failures = &zero
		}
		emit(r)
	}
	return failed
}

// runEnd is the nodes' results so far, for the on-run-end hooks (dbt's
// results; the hooks' own are not among them).
func runEnd(rr *RunResults) *compiler.RunEnd {
	end := &compiler.RunEnd{Results: []compiler.NodeResult{}}
	for _, r := range rr.Results {
		if r.ResourceType == compiler.Operation {
			continue
		}
		end.Results = append(end.Results, compiler.NodeResult{UniqueID: r.UniqueID, Status: r.Status, Message: r.Message,
			ThreadID: r.ThreadID, ExecutionTime: r.ExecutionTime, Failures: r.Failures,
			AdapterResponse: map[string]any{"_message": r.AdapterResponse.Message}})
	}
	return end
}

// skipAll lists the planned nodes as skipped in the manifest's order.
func skipAll(m *compiler.Manifest, exec map[string]bool, emit func(Result)) {
	ids := compiler.SortedKeys(exec)
	for i, id := range ids {
		n := m.Nodes[id]
		emit(Result{UniqueID: id, Status: StatusSkipped, Message: "skipped: an on-run-start hook failed",
			ResourceType: n.ResourceType, Name: n.Name, Materialized: n.Config.Materialized, Severity: n.Config.Severity,
			RelationName: n.Relation, Timing: []Timing{}, Index: i + 1, Total: len(ids)})
	}
}

// connect opens the run's connections, one per thread, creates the
// schemas the executed nodes build into on the first (serially:
// concurrent CREATE SCHEMA conflicts) and reads the build state there.
func (rn *run) connect(ctx context.Context, db Database, threads int) ([]*sql.Conn, error) {
	conn0, err := db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("runner: %w", err)
	}
	schemas, attached := map[string]bool{}, map[string]bool{}
	for id := range rn.built {
		n := rn.m.Nodes[id]
		switch {
		case n.ResourceType == compiler.Test:
		case rn.m.AttachedDB(n) != "":
			attached[compiler.Quote(n.Database)+"."+compiler.Quote(n.Schema)] = true // created once attached
		default:
			schemas[n.Schema] = true
		}
	}
	for _, s := range compiler.SortedKeys(schemas) {
		if _, err := conn0.ExecContext(ctx, "create schema if not exists "+compiler.Quote(s)); err != nil {
			conn0.Close()
			return nil, fmt.Errorf("runner: create schema %s: %w", s, err)
		}
	}
	if err := Attach(ctx, conn0, rn.m); err != nil {
		conn0.Close()
		return nil, err
	}
	for _, s := range compiler.SortedKeys(attached) {
		if _, err := conn0.ExecContext(ctx, "create schema if not exists "+s); err != nil {
			conn0.Close()
			return nil, fmt.Errorf("runner: create schema %s: %w", s, err)
		}
	}
	rn.st = openState(ctx, rn.m, conn0, rn.opts.Command)
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
	if err := rn.settings(ctx, conns); err != nil {
		for _, c := range conns {
			c.Close()
		}
		return nil, err
	}
	return conns, nil
}

// settings runs the profile's settings on each of the run's connections,
// as dbt-duckdb on each cursor (a SET may be the session's), reading
// DuckDB's setting names once.
func (rn *run) settings(ctx context.Context, conns []*sql.Conn) error {
	if rn.m.Project == nil || len(rn.m.Project.Target.Settings) == 0 {
		return nil
	}
	known, err := duckdbSettings(ctx, conns[0])
	if err != nil {
		return err
	}
	for _, c := range conns {
		if err := applySettings(ctx, c, rn.m, known); err != nil {
			return err
		}
	}
	return nil
}

// invocationArgs is a copy of a run's args for invocation_args_dict,
// without select: run_results.json's holds the unique_ids run, dbt's
// invocation_args_dict the selectors as typed, which the executor does
// not have (a missing key reads as undefined, not as a wrong value).
func invocationArgs(args map[string]any) map[string]any {
	out := make(map[string]any, len(args))
	for k, v := range args {
		if k != "select" {
			out[k] = v
		}
	}
	return out
}

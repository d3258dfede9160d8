package executor

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// RunOperation is `run-operation MACRO --args {...}` as dbt's
// RunOperationTask: the macro called once with args as its keyword
// arguments on one connection of db (what it runs through run_query,
// statement or do reaches the warehouse; what it renders or returns is
// discarded), no on-run-start/on-run-end hooks. The run's one result is
// the macro's (unique_id macro.<package>.<name>, status success or error,
// failures 0 or 1, the error as message), as dbt writes run_results.json.
// A failing macro is a result with status error and a nil error. op is
// what m.FindOperation found: the caller looks the macro up first, so a
// macro no package defines is reported before the warehouse is opened.
func RunOperation(ctx context.Context, m *compiler.Manifest, db Database, op *compiler.MacroCall, args map[string]any) (*RunResults, error) {
	m, err := m.ForRun(compiler.RunContext{Selected: []string{}, Args: map[string]any{"which": "run-operation"}})
	if err != nil {
		return nil, err
	}
	start := time.Now()
	c, err := db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("runner: %w", err)
	}
	defer c.Close()
	if err := Attach(ctx, c, m); err != nil {
		return nil, err
	}
	if err := Settings(ctx, c, m); err != nil {
		return nil, err
	}
	t1 := time.Now()
	tq := &txQuerier{sqlQuerier: sqlQuerier{c}}
	err = m.RunOperation(ctx, tq, op, args)
	if tq.open { // begun by the macro and never ended: dbt's connection closes with a rollback
		_, rerr := c.ExecContext(ctx, "rollback")
		err = errors.Join(err, rerr)
	}
	t2 := time.Now()
	r := Result{UniqueID: op.Node.UniqueID, ResourceType: compiler.Operation, Name: op.Node.Name, ThreadID: "main",
		Index: 1, Total: 1, Status: StatusSuccess, ExecutionTime: t2.Sub(start).Seconds(),
		Timing: []Timing{{Name: "compile", StartedAt: start, CompletedAt: t1}, {Name: "execute", StartedAt: t1, CompletedAt: t2}}}
	zero, one := int64(0), int64(1)
	r.Failures = &zero
	if err != nil {
		r.Status, r.Message, r.Failures = StatusError, err.Error(), &one
	}
	return &RunResults{Metadata: map[string]any{
		"dbt_schema_version": compiler.RunResultsSchema, "dbt_version": compiler.DbtVersion,
		"generated_at": compiler.ArtifactTime(t2), "invocation_id": m.InvocationID(),
		"invocation_started_at": compiler.ArtifactTime(m.StartedAt()), "docket_command": "run-operation"},
		Args:        map[string]any{"which": "run-operation", "macro": op.Macro, "args": args},
		Results:     []Result{r},
		ElapsedTime: t2.Sub(start).Seconds()}, nil
}

// txQuerier runs a run-operation macro's SQL on a connection that commits
// each statement (DuckDB's autocommit), and lets the transaction statements
// dbt users write for adapters that hold one open (`run_query('commit')`,
// `begin`, `rollback`, as dbt's docs advise for operations) do what they
// say: a begin opens one (once), a commit or rollback ends the open one
// and is nothing when none is open, where DuckDB would fail with "no
// transaction is active".
type txQuerier struct {
	sqlQuerier
	open bool
}

var (
	beginRe = regexp.MustCompile(`(?is)^\s*(begin|start)(\s+transaction)?[\s;]*$`)
	endRe   = regexp.MustCompile(`(?is)^\s*(commit|end|rollback|abort)(\s+transaction)?[\s;]*$`)
)

// control runs q when it is a transaction statement (done true).
func (t *txQuerier) control(ctx context.Context, q string) (done bool, err error) {
	switch {
	case beginRe.MatchString(q):
		if !t.open {
			_, err = t.c.ExecContext(ctx, "begin transaction")
			t.open = err == nil
		}
		return true, err
	case endRe.MatchString(q):
		if t.open {
			_, err = t.c.ExecContext(ctx, q)
			t.open = false
		}
		return true, err
	}
	return false, nil
}

func (t *txQuerier) Exec(ctx context.Context, q string) error {
	if done, err := t.control(ctx, q); done {
		return err
	}
	return t.sqlQuerier.Exec(ctx, q)
}

func (t *txQuerier) QueryTyped(ctx context.Context, q string) ([]string, []string, [][]any, error) {
	if done, err := t.control(ctx, q); done {
		return []string{}, []string{}, nil, err
	}
	return t.sqlQuerier.QueryTyped(ctx, q)
}

func (t *txQuerier) Query(ctx context.Context, q string, args ...any) ([]string, [][]any, error) {
	if done, err := t.control(ctx, q); done {
		return []string{}, nil, err
	}
	return t.sqlQuerier.Query(ctx, q, args...)
}

package executor

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// run is one Execute: what all its nodes share.
type run struct {
	m     *compiler.Manifest
	opts  RunOptions
	built map[string]bool // nodes this run builds
	st    *buildState     // nil: no skipping, no records (state.go)
}

// node compiles and executes one node on conn c.
func (rn *run) node(ctx context.Context, c *sql.Conn, n *compiler.Node) (r Result) {
	m, opts, built, st := rn.m, rn.opts, rn.built, rn.st
	r = Result{UniqueID: n.UniqueID, ResourceType: n.ResourceType, Name: n.Name, Materialized: n.Config.Materialized,
		Severity: n.Config.Severity, RelationName: n.Relation, Language: cmp.Or(n.Language, "sql")}
	t0 := time.Now()
	defer func() {
		if p := recover(); p != nil {
			r.Status, r.Message = StatusError, fmt.Sprintf("internal error: %v", p)
		}
		r.ExecutionTime = time.Since(t0).Seconds()
		if r.Timing == nil {
			r.Timing = []Timing{}
		}
	}()
	if err := ctx.Err(); err != nil {
		r.Status, r.Message = StatusError, err.Error()
		return r
	}
	m.ShowCompileLogs(n) // its compiled render's log(info=True) lines, now that it runs
	x := &nodeExec{m: m, c: c, n: n, ctx: ctx, r: &r, full: opts.FullRefresh, built: built, st: st, force: opts.Force || opts.FullRefresh, opts: &rn.opts}
	var err error
	switch n.ResourceType {
	case compiler.Model:
		err = x.model()
	case compiler.Seed:
		err = x.seed()
	case compiler.Test:
		err = x.test()
	case compiler.Snapshot:
		err = x.snapshot()
	case compiler.UnitTest:
		err = x.unitTest()
	}
	if err == nil && !r.UpToDate && r.Status == StatusSuccess && n.ResourceType != compiler.Test {
		err = x.persistDocs() // after the post-hooks, as dbt's materializations
	}
	if err == nil && !r.UpToDate && r.Status != "" && r.Status != StatusSkipped && r.Status != StatusError {
		err = x.recordState(true) // views, tests, snapshots, nodes with post-hooks
	}
	if err != nil {
		r.Status = StatusError
		r.Message = err.Error()
		var de *compiler.DiagnosticError
		if errors.As(err, &de) {
			d := de.D
			r.Diagnostic = &d
		}
	}
	return r
}

type nodeExec struct {
	m     *compiler.Manifest
	c     *sql.Conn
	n     *compiler.Node
	ctx   context.Context
	r     *Result
	full  bool
	force bool            // run even when up to date
	built map[string]bool // nodes this run builds
	st    *buildState     // nil: no skipping, no records (state.go)
	fp    string          // the node's fingerprint in this run ("" none)
	// stateDone: the node's record is written
	stateDone bool
	// what the hooks did to data (state.go noteHook): rows a DML hook
	// changed, and whether a hook may have changed data uncounted
	hookRows   int64
	hookOpaque bool
	// hookWrites: a hook inserted or updated rows (they are not in a delta)
	hookWrites bool
	// deltaFrom: the temp table of the rows an incremental build wrote,
	// while it can still be read for the delta record (delta.go)
	deltaFrom string
	// scope: a test's base for change-scoped checks (nil: always whole)
	scope *testScope
	// content: a seed's rows as loaded, recorded to notice hand edits (seed_edits.go)
	content string
	opts    *RunOptions
	// batch: the microbatch window an incremental write replaces (microbatch.go)
	batch *compiler.Batch
	// contractCast: an enforced contract declares a column type other than
	// the SQL's (of the same kind): the table is built from the declared
	// columns, as dbt-duckdb builds every contracted table (contract.go)
	contractCast bool
}

func (x *nodeExec) exec(q string) (int64, error) {
	res, err := x.c.ExecContext(x.ctx, catalogInfoSchema(x.ctx, x.c, q))
	if err != nil {
		return 0, err
	}
	n, _ := res.RowsAffected()
	return n, nil
}

func (x *nodeExec) count(rel string) (int64, error) {
	var n int64
	err := x.c.QueryRowContext(x.ctx, "select count(*) from "+rel).Scan(&n)
	return n, err
}

// relationType returns "BASE TABLE", "VIEW" or "" when absent. It is
// asked before the node builds, about its own relation or a test's parent
// model this run does not build, which only that node writes, so the
// run's start is still true for it: the state's snapshot answers without
// a query per node.
func (x *nodeExec) relationType(schema, name string) (string, error) {
	if db := x.attachedDB(); db != "" {
		return x.queryCatalogRelationType(db, schema, name)
	}
	if x.st != nil && x.st.rels != nil {
		return x.st.rels[[2]string{schema, name}], nil
	}
	return x.queryRelationType(schema, name)
}

// attachedDB is the attached database the node builds into ("" the
// warehouse).
func (x *nodeExec) attachedDB() string {
	return x.m.AttachedDB(x.n)
}

// rel is the relation name of the node's schema, in its database.
func (x *nodeExec) rel(name string) string {
	if db := x.attachedDB(); db != "" {
		return compiler.Quote(db) + "." + compiler.Relation(x.n.Schema, name)
	}
	return compiler.Relation(x.n.Schema, name)
}

// queryRelationType asks the warehouse now.
func (x *nodeExec) queryRelationType(schema, name string) (string, error) {
	return x.queryCatalogRelationType("", schema, name)
}

// queryCatalogRelationType asks database db ("": the warehouse).
func (x *nodeExec) queryCatalogRelationType(db, schema, name string) (string, error) {
	var t string
	catalog := "current_database()"
	args := []any{schema, name}
	if db != "" {
		catalog, args = "?", []any{db, schema, name}
	}
	err := x.c.QueryRowContext(x.ctx, `select table_type from information_schema.tables
		where table_catalog = `+catalog+` and table_schema = ? and table_name = ?`, args...).Scan(&t)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return t, err
}

func (x *nodeExec) compiledPath() string { return x.m.TargetRel + "/" + x.m.CompiledRel(x.n) }

// sqlErr positions a DuckDB error in the compiled SQL (stmt = prefix lines
// followed by the compiled body).
func (x *nodeExec) sqlErr(err error, stmt string, prefixLines int) error {
	d := compiler.SQLDiagnostic(err.Error(), stmt, prefixLines)
	d.Path = x.compiledPath()
	return &compiler.DiagnosticError{D: d}
}

func (x *nodeExec) timing(name string, t0 time.Time) {
	x.r.Timing = append(x.r.Timing, Timing{Name: name, StartedAt: t0.UTC(), CompletedAt: time.Now().UTC()})
}

// compile renders the node for this run (is_incremental() may be true).
func (x *nodeExec) compile(incremental bool) (string, error) {
	return x.m.RenderForRun(x.ctx, sqlQuerier{x.c}, x.n, incremental)
}

// renderWithDB renders a node that reads the database (dbjinja.go) on
// the node's connection, as dbt renders every node when it executes.
func (x *nodeExec) renderWithDB(incremental bool) (string, error) {
	return x.m.RenderDB(x.ctx, sqlQuerier{x.c}, x.n, incremental)
}

// preHooks runs the node's pre-hooks as dbt's built-in materializations
// do: those outside the transaction (before_begin, transaction: false)
// first, then those inside it, each group in the order written.
func (x *nodeExec) preHooks(incremental bool) error {
	if err := x.hooks(x.n.Config.PreHook, false, incremental); err != nil {
		return err
	}
	return x.hooks(x.n.Config.PreHook, true, incremental)
}

// postHooks runs the post-hooks inside the transaction, then (after the
// commit, in dbt) those outside it (after_commit, transaction: false).
func (x *nodeExec) postHooks(incremental bool) error {
	if err := x.hooks(x.n.Config.PostHook, true, incremental); err != nil {
		return err
	}
	return x.hooks(x.n.Config.PostHook, false, incremental)
}

// hooks runs the hooks of list whose transaction is inside (dbt's
// run_hooks(hooks, inside_transaction)).
func (x *nodeExec) hooks(list []compiler.Hook, inside, incremental bool) error {
	for i, h := range list {
		if h.Transaction != inside {
			continue
		}
		if err := x.hook(i, h, incremental); err != nil {
			return err
		}
	}
	return nil
}

// hook renders and runs the node's hook number i (0-based).
func (x *nodeExec) hook(i int, h compiler.Hook, incremental bool) error {
	q, err := x.m.RenderHook(x.ctx, sqlQuerier{x.c}, x.n, h.SQL, incremental)
	if err == nil {
		q, err = x.renderedJSONHook(i, h, q, incremental)
	}
	if err != nil {
		return fmt.Errorf("%s: hook %d: %v", x.n.Path, i+1, err)
	}
	if q == "" {
		return nil
	}
	ran, noop, err := x.upgradeHook(q)
	if err == nil && !ran {
		var k int64
		if k, err = x.exec(q); err == nil {
			x.noteHook(q, k)
		}
	} else if err == nil && !noop {
		x.hookOpaque = true
	}
	if err != nil {
		return fmt.Errorf("%s: hook %d failed: %s", x.n.Path, i+1, compiler.FirstLine(err.Error()))
	}
	return nil
}

// renderedJSONHook: a hook whose text renders to a JSON hook (a YAML
// "{{ before_begin('...') }}", where dbt keeps the text unrendered until
// the run) runs the SQL inside it; its transaction flag came too late to
// order it, which is said.
func (x *nodeExec) renderedJSONHook(i int, h compiler.Hook, q string, incremental bool) (string, error) {
	jh, ok := compiler.HookFromJSON(q)
	if !ok {
		return q, nil
	}
	if jh.Transaction != h.Transaction {
		x.r.Warnings = append(x.r.Warnings, fmt.Sprintf("%s:%d: hook %d of %s renders to a hook with transaction: %v, known only when it runs: it ran where a transaction: %v hook runs (write it in config(pre_hook=before_begin(...)) or as {sql: ..., transaction: %v} in YAML)",
			x.n.Path, x.hookLine(), i+1, x.n.Name, jh.Transaction, h.Transaction, jh.Transaction))
	}
	return x.m.RenderHook(x.ctx, sqlQuerier{x.c}, x.n, jh.SQL, incremental)
}

// hookLine is the line of the node's config (1 when unknown).
func (x *nodeExec) hookLine() int {
	if x.n.ConfigPos.Line > 0 {
		return x.n.ConfigPos.Line
	}
	return 1
}

func plural(n int64) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// sqlBody drops trailing blanks and semicolons but keeps leading lines so
// DuckDB's line numbers match the compiled file.
func sqlBody(s string) string {
	s = strings.TrimRight(s, " \t\r\n")
	for strings.HasSuffix(s, ";") {
		s = strings.TrimRight(strings.TrimSuffix(s, ";"), " \t\r\n")
	}
	return s
}

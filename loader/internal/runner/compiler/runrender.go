package compiler

import (
	"context"
	"fmt"
	"sort"

	"github.com/docket-dev/docket/loader/internal/duckmsg"
	"github.com/docket-dev/docket/loader/internal/runner/render"
)

// RenderForRun renders a node for one run as the executor needs it:
// with is_incremental() true when incremental, and through q when the
// template reads the database (dbjinja.go). A node that needs neither
// returns its CompiledCode.
func (m *Manifest) RenderForRun(ctx context.Context, q Querier, n *Node, incremental bool) (string, error) {
	if n.ReadsDatabase() {
		return m.RenderDB(ctx, q, n, incremental)
	}
	if !incremental || !n.usesIncr || n.tpl == nil {
		return n.CompiledCode, nil
	}
	rc := m.compileCtx(n, m.runCTEs())
	rc.incremental = true
	rc.checkRefs()
	out, err := n.tpl.Render(rc.vars())
	if err != nil {
		re := err.(*render.Error)
		return "", &DiagnosticError{D: Diagnostic{Path: n.Path, Line: re.Line, Col: re.Col, Msg: re.Msg}}
	}
	if len(rc.diags) > 0 {
		return "", &DiagnosticError{D: rc.diags[0]}
	}
	return rc.ctes.inject(out), nil
}

// RenderHook renders one pre- or post-hook of n through q, with refs
// resolved and blanks trimmed ("" when nothing is left to run).
func (m *Manifest) RenderHook(ctx context.Context, q Querier, n *Node, hook string, incremental bool) (string, error) {
	return m.renderHook(ctx, q, n, hook, incremental, nil)
}

func (m *Manifest) renderHook(ctx context.Context, q Querier, n *Node, hook string, incremental bool, extra map[string]any) (string, error) {
	tpl, err := m.env.Parse(n.Path+":hook", hook)
	if err != nil {
		return "", err
	}
	tpl.Pkg = m.macroPkg(n.PackageName) // a package's hook calls its own macros first
	rc := m.compileCtx(n, m.runCTEs())
	rc.incremental, rc.db = incremental, &dbConn{ctx: ctx, q: q, results: map[string]any{}}
	vars := rc.vars()
	for k, v := range extra {
		vars[k] = v
	}
	out, err := tpl.Render(vars)
	if err != nil {
		return "", err
	}
	return trimSQL(rc.ctes.inject(out)), nil
}

// DiagnosticError is an error at a position in a project or compiled
// file; the executor reports it as the result's diagnostic.
type DiagnosticError struct{ D Diagnostic }

func (e *DiagnosticError) Error() string { return e.D.String() }

// FirstLine is s on one line: DuckDB's message as duckmsg.ErrorLine
// gives it (its first line, with the rest of the first paragraph when
// that line only announces it).
func FirstLine(s string) string { return duckmsg.ErrorLine(s) }

// RunHooks are the on-run-start (start) or on-run-end hooks of the
// installed packages and then of the root project, as dbt 1.8+ keeps and
// orders them (RunTask._hook_keyfunc: by package name, the root's last,
// then by index): operation nodes operation.<pkg>.<pkg>-on-run-end-<i>
// whose RawCode is the hook.
func (m *Manifest) RunHooks(start bool) []*Node {
	which := "on-run-end"
	if start {
		which = "on-run-start"
	}
	pkgs := append([]pkgDir(nil), m.pkgDirs...)
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].name < pkgs[j].name })
	var out []*Node
	for _, pk := range pkgs {
		hooks := pk.onRunEnd
		if start {
			hooks = pk.onRunStart
		}
		out = append(out, m.runHookNodes(pk.name, pk.dir+"/dbt_project.yml", which, hooks)...)
	}
	if d := m.Project.DBT; d != nil {
		hooks := d.OnRunEnd
		if start {
			hooks = d.OnRunStart
		}
		out = append(out, m.runHookNodes(m.Name, "dbt_project.yml", which, hooks)...)
	}
	return out
}

// runHookNodes are one project's hooks of one kind as operation nodes.
func (m *Manifest) runHookNodes(pkg, file, which string, hooks []string) []*Node {
	out := make([]*Node, len(hooks))
	for i, h := range hooks {
		name := fmt.Sprintf("%s-%s-%d", pkg, which, i)
		out[i] = &Node{Name: name, UniqueID: Operation + "." + pkg + "." + name, ResourceType: Operation,
			PackageName: pkg, Path: file, RawCode: h, HookIndex: i, Database: m.Database(), Schema: m.Target().Schema,
			Alias: name, FQN: []string{pkg, "hooks", name}, Config: Config{Enabled: true, Materialized: "view"}}
	}
	return out
}

// RenderRunHook renders an on-run-start/on-run-end hook (a node of
// RunHooks) through q, as a hook of the project (target, var, run_query,
// ...; no this).
//
// end is nil for on-run-start; an on-run-end hook sees what dbt's
// on-run-end context has: results, schemas and database_schemas.
func (m *Manifest) RenderRunHook(ctx context.Context, q Querier, hook *Node, end *RunEnd) (string, error) {
	var extra map[string]any
	if end != nil {
		extra = end.vars(m)
	}
	out, err := m.renderHook(ctx, q, hook, hook.RawCode, false, extra)
	if h, ok := HookFromJSON(out); ok && err == nil {
		// dbt's get_hook_sql: a hook that renders to a JSON hook
		// ({"sql": ..., "transaction": ...}) runs its sql; on-run hooks
		// all run outside a transaction, whatever the flag says
		return trimSQL(h.SQL), nil
	}
	return out, err
}

// RunEnd is what the nodes of a run gave, for on-run-end hooks.
type RunEnd struct {
	Results []NodeResult
}

// NodeResult is one node's result as an on-run-end hook reads it (dbt's
// RunResult: node, status, message, execution_time, failures, thread_id,
// adapter_response).
type NodeResult struct {
	UniqueID, Status, Message, ThreadID string
	ExecutionTime                       float64
	Failures                            *int64
	AdapterResponse                     map[string]any
}

// vars are dbt's on-run-end context: results (each node as the flat graph
// has it), schemas and database_schemas (those the run's nodes built into,
// sorted, once each).
func (e *RunEnd) vars(m *Manifest) map[string]any {
	graph, _ := m.FlatGraph()["nodes"].(map[string]any)
	results := make([]any, 0, len(e.Results))
	schemas, dbSchemas := map[string]bool{}, map[[2]string]bool{}
	for _, r := range e.Results {
		node, _ := graph[r.UniqueID].(map[string]any)
		if node == nil {
			node = map[string]any{"unique_id": r.UniqueID}
		}
		var failures any
		if r.Failures != nil {
			failures = *r.Failures
		}
		results = append(results, map[string]any{"node": node, "status": r.Status, "message": r.Message,
			"execution_time": r.ExecutionTime, "failures": failures, "thread_id": r.ThreadID,
			"adapter_response": r.AdapterResponse})
		if n := m.Nodes[r.UniqueID]; n != nil && n.Schema != "" && (n.ResourceType == Model || n.ResourceType == Seed || n.ResourceType == Snapshot) {
			db := n.Database
			if db == "" {
				db = m.Database()
			}
			schemas[n.Schema], dbSchemas[[2]string{db, n.Schema}] = true, true
		}
	}
	names := SortedKeys(schemas)
	pairs := make([][2]string, 0, len(dbSchemas))
	for p := range dbSchemas {
		pairs = append(pairs, p)
	}
	sort.Slice(pairs, func(i, j int) bool { return pairs[i][0]+"."+pairs[i][1] < pairs[j][0]+"."+pairs[j][1] })
	ds := make([]any, len(pairs))
	for i, p := range pairs {
		ds[i] = []any{p[0], p[1]}
	}
	return map[string]any{"results": results, "schemas": toAny(names), "database_schemas": ds}
}

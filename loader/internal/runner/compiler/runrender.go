package compiler

import (
	"context"
	"fmt"
	"strings"

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
	tpl, err := m.env.Parse(n.Path+":hook", hook)
	if err != nil {
		return "", err
	}
	rc := m.compileCtx(n, m.runCTEs())
	rc.incremental, rc.db = incremental, &dbConn{ctx: ctx, q: q, results: map[string]any{}}
	out, err := tpl.Render(rc.vars())
	if err != nil {
		return "", err
	}
	return trimSQL(rc.ctes.inject(out)), nil
}

// DiagnosticError is an error at a position in a project or compiled
// file; the executor reports it as the result's diagnostic.
type DiagnosticError struct{ D Diagnostic }

func (e *DiagnosticError) Error() string { return e.D.String() }

// FirstLine is s up to its first newline.
func FirstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// RunHooks are dbt_project.yml's on-run-start (start) or on-run-end hooks
// as dbt 1.8+ keeps them: operation nodes
// operation.<project>.<project>-on-run-end-<i> whose RawCode is the hook.
func (m *Manifest) RunHooks(start bool) []*Node {
	d := m.Project.DBT
	if d == nil {
		return nil
	}
	which, hooks := "on-run-end", d.OnRunEnd
	if start {
		which, hooks = "on-run-start", d.OnRunStart
	}
	out := make([]*Node, len(hooks))
	for i, h := range hooks {
		name := fmt.Sprintf("%s-%s-%d", m.Name, which, i)
		out[i] = &Node{Name: name, UniqueID: Operation + "." + m.Name + "." + name, ResourceType: Operation,
			PackageName: m.Name, Path: "dbt_project.yml", RawCode: h, Database: m.Database(), Schema: m.Target().Schema,
			Alias: name, FQN: []string{m.Name, "hooks", name}, Config: Config{Enabled: true, Materialized: "view"}}
	}
	return out
}

// RenderRunHook renders an on-run-start/on-run-end hook (a node of
// RunHooks) through q, as a hook of the project (target, var, run_query,
// ...; no this).
func (m *Manifest) RenderRunHook(ctx context.Context, q Querier, hook *Node) (string, error) {
	return m.RenderHook(ctx, q, hook, hook.RawCode, false)
}

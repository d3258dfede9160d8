package executor

import (
	"fmt"
	"strings"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// custom builds a model by its project's {% materialization %} block
// (compiler.RunMaterialization): the block runs the hooks (run_hooks),
// its statements and returns the relations it built; the first is what
// the node produced (run_results' relation_name).
func (x *nodeExec) custom(body string, full bool) error {
	n := x.n
	if err := x.sqlHeader(); err != nil {
		return err
	}
	ran := map[bool]map[int]bool{false: {}, true: {}} // the hooks run_hooks() ran
	res, err := x.m.RunMaterialization(x.ctx, sqlQuerier{x.c}, n, compiler.MatRun{SQL: body, FullRefresh: full,
		Hook: func(post bool, i int) error {
			if i < 0 || (post && i >= len(n.Config.PostHook)) || (!post && i >= len(n.Config.PreHook)) {
				return fmt.Errorf("run_hooks(): no hook %d", i)
			}
			ran[post][i] = true
			if post {
				return x.hook(i, n.Config.PostHook[i], false)
			}
			return x.hook(i, n.Config.PreHook[i], false)
		}})
	if err != nil {
		return err
	}
	for _, rel := range res.Relations {
		if err := x.noUDFView(rel.Schema, rel.Identifier); err != nil {
			return err
		}
	}
	if len(res.Relations) > 0 {
		x.r.RelationName = res.Relations[0].Rendered
	}
	x.warnUnrunHooks(ran)
	msg := "OK"
	if resp, ok := res.Main["response"].(map[string]any); ok {
		if c, ok := resp["code"].(string); ok && c != "" {
			msg = c
		}
	}
	x.r.AdapterResponse = AdapterResponse{Message: fmt.Sprintf("%s (materialization %s)", msg, n.Config.Materialized)}
	x.r.Message = x.r.AdapterResponse.Message
	x.r.Status = StatusSuccess
	return nil
}

// noUDFView drops a view the materialization built that calls a Go UDF
// (the same rule as docket's own views, view.go) and says so.
func (x *nodeExec) noUDFView(schema, name string) error {
	var def string
	err := x.c.QueryRowContext(x.ctx, "select sql from duckdb_views() where database_name = current_database() and schema_name = ? and view_name = ?", schema, name).Scan(&def)
	if err != nil {
		return nil // not a view (or gone)
	}
	call := udfCalledParsed(x.ctx, x.m, x.c, def)
	if call.name == "" {
		return nil
	}
	rel := compiler.Relation(schema, name)
	x.exec("drop view if exists " + rel)
	return &compiler.DiagnosticError{D: compiler.Diagnostic{Path: x.n.Path, Line: 1, Col: 1,
		Msg: fmt.Sprintf("view %s, built by materialization %s, calls Go UDF %s(), which only exists inside docket: a view must work in any DuckDB client (the view is dropped)", rel, x.n.Config.Materialized, call.name)}}
}

// warnUnrunHooks says which of the model's hooks the materialization
// never ran (a block that does not call run_hooks() for them, as dbt
// leaves them unrun too): a setting not applied, at the model's config.
func (x *nodeExec) warnUnrunHooks(ran map[bool]map[int]bool) {
	n := x.n
	var missed []string
	for _, h := range []struct {
		post bool
		key  string
		list []compiler.Hook
	}{{false, "pre_hook", n.Config.PreHook}, {true, "post_hook", n.Config.PostHook}} {
		for i := range h.list {
			if !ran[h.post][i] {
				missed = append(missed, fmt.Sprintf("%s %d", h.key, i+1))
			}
		}
	}
	if len(missed) == 0 {
		return
	}
	at := n.ConfigPos
	if at == (compiler.Position{}) {
		at = compiler.Position{Line: 1, Col: 1}
	}
	mat := n.CustomMat
	x.r.Warnings = append(x.r.Warnings, fmt.Sprintf("%s:%d: %s of %s not run: materialization %s (%s:%d) never calls run_hooks() for them",
		n.Path, at.Line, strings.Join(missed, ", "), n.Name, mat.Name, mat.File, mat.Line))
}

package compiler

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/docket-dev/docket/loader/internal/runner/render"
)

// customMaterialization finds the {% materialization %} block that runs a
// model whose materialized is not one docket builds natively (dbt's
// find_materialization_macro_by_name): its absence is an error at the
// model's config, as dbt's "No materialization ... was found".
func (m *Manifest) customMaterialization(n *Node, name string, at Position, bad func(Position, string, ...any)) {
	mat, ok, err := m.env.FindMaterialization(name)
	switch {
	case err != nil:
		bad(at, "%v", err)
	case !ok:
		known := []string{"view", "table", "incremental", "ephemeral"}
		for _, c := range m.env.Materializations() {
			known = append(known, c.Name)
		}
		hint := ""
		if s := suggest(name, known); s != "" {
			hint = fmt.Sprintf(" (did you mean %q?)", s)
		}
		bad(at, "no materialization %q%s: materialized is view, table, incremental, ephemeral or a {%% materialization %s, default %%} (or adapter='duckdb') block in macros/", name, hint, name)
	default:
		n.CustomMat = &mat
	}
}

// builtinMats are the materializations docket always builds itself.
var builtinMats = map[string]bool{"view": true, "table": true, "incremental": true, "seed": true, "snapshot": true, "test": true}

// warnBuiltinOverrides: a root project's or a package's {% materialization
// table %} (view, incremental, seed, snapshot, test) is not run; docket
// builds those itself. Said once per block, at the block.
func (m *Manifest) warnBuiltinOverrides() {
	for _, mat := range m.env.Materializations() {
		if !builtinMats[mat.Name] {
			continue
		}
		why := "docket builds " + mat.Name + " nodes with its own materialization (dbt would run this block)"
		switch {
		case mat.Pkg != "" && mat.Adapter != "duckdb" && mat.Adapter != "default":
			continue // another adapter's
		case mat.Pkg != "":
			why = "as in dbt 1.8+, a package's block for a built-in materialization is not used (dbt's require_explicit_package_overrides_for_builtin_materializations); docket builds " + mat.Name + " nodes natively"
		case mat.Adapter == "default":
			why = "as in dbt, dbt-duckdb's own " + mat.Name + " materialization (adapter='duckdb') wins over a default one; docket builds " + mat.Name + " nodes natively"
		case mat.Adapter != "duckdb":
			continue // another adapter's: dbt-duckdb never runs it either
		}
		m.warn(mat.File, Position{mat.Line, 1}, "{%% materialization %s, %s %%} is not run: %s", mat.Name, mat.Adapter, why)
	}
}

// nativeMatMacros are the dbt macros (and their default__/duckdb__
// variants) through which dbt's built-in materializations write their SQL,
// by the kind of node. docket builds those nodes natively and never calls
// them, so a root project's override is said once, at its line, as not
// applied (frizzleqq/f1-dbt-duckdb overrides get_delete_insert_merge_sql).
var nativeMatMacros = map[string][]string{
	"incremental": {"get_merge_sql", "get_delete_insert_merge_sql", "get_insert_overwrite_merge_sql", "get_incremental_append_sql",
		"get_incremental_delete_insert_sql", "get_incremental_merge_sql", "get_incremental_insert_overwrite_sql",
		"get_incremental_default_sql", "get_incremental_microbatch_sql"},
	"table and view": {"create_table_as", "create_view_as", "get_create_table_as_sql", "get_create_view_as_sql"},
	"snapshot":       {"snapshot_merge_sql", "snapshot_staging_table", "build_snapshot_table", "snapshot_timestamp_strategy", "snapshot_check_strategy"},
	"seed":           {"load_csv_rows", "create_csv_table", "reset_csv_table"},
}

// warnNativeMacroOverrides says each root-project override of a
// nativeMatMacros macro is not applied to docket's own builds.
func (m *Manifest) warnNativeMacroOverrides() {
	for _, kind := range SortedKeys(nativeMatMacros) {
		for _, base := range nativeMatMacros[kind] {
			for _, name := range []string{base, "default__" + base, "duckdb__" + base} {
				if file, line, ok := m.env.RootMacro(name); ok {
					m.warn(file, Position{line, 1}, "macro %s overrides dbt's SQL for %s models; docket builds those natively and does not call it: not applied", name, kind)
				}
			}
		}
	}
}

// MatRun is what the executor gives a custom materialization.
type MatRun struct {
	SQL         string // the model's compiled SQL (sql, compiled_code)
	FullRefresh bool   // should_full_refresh()
	// Hook runs the model's pre- (post false) or post-hook number i
	// (run_hooks(pre_hooks) / run_hooks(post_hooks)).
	Hook func(post bool, i int) error
}

// MatResult is what a materialization returned and ran.
type MatResult struct {
	Relations []render.Relation // return({'relations': [...]})
	Main      map[string]any    // load_result('main'): nil when no statement('main') ran
}

// RunMaterialization runs n's custom materialization (n.CustomMat) with
// the model's context, as dbt's run task calls the materialization
// macro: this, model, config, sql/compiled_code, pre_hooks/post_hooks
// with run_hooks, should_full_refresh(), statement(), adapter, api, and
// the macros of dbt's materializations (make_intermediate_relation, ...).
func (m *Manifest) RunMaterialization(ctx context.Context, q Querier, n *Node, run MatRun) (MatResult, error) {
	mat := n.CustomMat
	call := mat.Macro
	if mat.Pkg != "" {
		call = mat.Pkg + "." + mat.Macro
	}
	where := fmt.Sprintf("materialization %s (%s:%d)", mat.Name, mat.File, mat.Line)
	tpl, err := m.env.Parse(n.Path+":materialization", "{%- do __docket_materialized("+call+"()) -%}")
	if err != nil {
		return MatResult{}, err
	}
	rc := m.compileCtx(n, m.runCTEs())
	rc.db = &dbConn{ctx: ctx, q: q, results: map[string]any{}}
	vars := rc.vars()
	var ret any
	vars["__docket_materialized"] = render.Wrap(func(a render.Args) (any, error) {
		if len(a.Pos) > 0 {
			ret = a.Pos[0]
		}
		return "", nil
	})
	matContext(vars, n, run)
	if _, err := tpl.Render(vars); err != nil {
		return MatResult{}, m.matErr(n, where, err)
	}
	if len(rc.diags) > 0 {
		return MatResult{}, &DiagnosticError{D: rc.diags[0]}
	}
	rels, err := returnedRelations(ret)
	if err != nil {
		return MatResult{}, &DiagnosticError{D: Diagnostic{Path: mat.File, Line: mat.Line, Col: 1, Msg: where + ": " + err.Error()}}
	}
	main, _ := rc.db.results["main"].(map[string]any)
	return MatResult{Relations: rels, Main: main}, nil
}

// matContext adds what dbt's materialization context has beyond a model's.
func matContext(vars map[string]any, n *Node, run MatRun) {
	vars["sql"], vars["compiled_code"], vars["identifier"] = run.SQL, run.SQL, n.Alias
	hooks := func(list []Hook, post bool) []any {
		out := make([]any, len(list))
		for i, h := range list {
			// dbt's Hook: sql, transaction (false: before_begin/after_commit), index
			out[i] = map[string]any{"sql": h.SQL, "transaction": h.Transaction, "index": i, hookPostKey: post}
		}
		return out
	}
	vars["pre_hooks"], vars["post_hooks"] = hooks(n.Config.PreHook, false), hooks(n.Config.PostHook, true)
	vars["run_hooks"] = render.Wrap(func(a render.Args) (any, error) {
		inside := true
		if v, ok := a.Kw["inside_transaction"].(bool); ok {
			inside = v
		} else if len(a.Pos) > 1 {
			inside, _ = a.Pos[1].(bool)
		}
		if len(a.Pos) == 0 {
			return "", nil
		}
		list, _ := a.Pos[0].([]any)
		for _, h := range list {
			hm, _ := stringKeyed(h)
			if tx, ok := hm["transaction"].(bool); ok && tx != inside {
				continue // dbt: hooks | selectattr('transaction', 'equalto', inside_transaction)
			}
			i, err := strconv.Atoi(fmt.Sprint(hm["index"]))
			if err != nil {
				return nil, fmt.Errorf("run_hooks(): %v is not one of the model's pre_hooks or post_hooks", h)
			}
			post, _ := hm[hookPostKey].(bool)
			if err := run.Hook(post, i); err != nil {
				return nil, err
			}
		}
		return "", nil
	})
	vars["should_full_refresh"] = render.Wrap(func(render.Args) (any, error) {
		if n.Config.FullRefresh != nil {
			return *n.Config.FullRefresh, nil
		}
		return run.FullRefresh, nil
	})
}

// hookPostKey marks a hook of post_hooks (run_hooks runs it as such).
const hookPostKey = "docket_post_hook"

// returnedRelations reads return({'relations': [...]}), as dbt requires.
func returnedRelations(ret any) ([]render.Relation, error) {
	d, ok := stringKeyed(ret)
	if !ok {
		return nil, errors.New("did not explicitly return a list of relations ({{ return({'relations': [target_relation]}) }})")
	}
	list, ok := d["relations"].([]any)
	if !ok {
		return nil, errors.New("returned no 'relations' list ({{ return({'relations': [target_relation]}) }})")
	}
	var out []render.Relation
	for _, v := range list {
		r, ok := relationArg(v)
		if !ok {
			return nil, fmt.Errorf("returned %v in 'relations', which is not a relation", v)
		}
		out = append(out, r)
	}
	return out, nil
}

// matErr positions a failure of the materialization: inside its block
// (the macro's file and line), else at the model's config.
func (m *Manifest) matErr(n *Node, where string, err error) error {
	var re *render.Error
	if errors.As(err, &re) {
		at := n.ConfigPos
		if at == (Position{}) {
			at = Position{1, 1}
		}
		return &DiagnosticError{D: Diagnostic{Path: n.Path, Line: at.Line, Col: at.Col, Msg: where + ": " + re.Msg}}
	}
	return fmt.Errorf("%s: %w", where, err)
}

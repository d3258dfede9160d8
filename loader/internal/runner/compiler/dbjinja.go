package compiler

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/docket-dev/docket/loader/internal/runner/render"
	"github.com/nikolalohinski/gonja/v2/exec"
)

// Querier is all that database-reading Jinja needs from the database:
// the executor passes one over the node's connection (sqlQuerier in
// Database.go); parsing passes none, so templates render as dbt parses
// them (execute=false).
type Querier interface {
	// Query runs q with its ? arguments and returns the column names and
	// every row, values as the driver gives them.
	Query(ctx context.Context, q string, args ...any) (cols []string, rows [][]any, err error)
	Exec(ctx context.Context, q string) error
}

// TypedQuerier is a Querier that also tells each column's DuckDB type
// (executor's): run_query's values are then as dbt's adapter hands them
// (a DATE "2024-01-02", a TIME "03:04:05", not the driver's time.Time).
type TypedQuerier interface {
	QueryTyped(ctx context.Context, q string) (cols, types []string, rows [][]any, err error)
}

// dbConn is the connection database-reading Jinja uses at run time.
type dbConn struct {
	ctx     context.Context
	q       Querier
	results map[string]any // statement name → load_result value
	log     func(string)   // where a result table's print_table / print_json write (ParseOptions.Log)
}

// RenderDB renders a node that reads the database with q (execute=true),
// as dbt renders every node when it executes or compiles.
func (m *Manifest) RenderDB(ctx context.Context, q Querier, n *Node, incremental bool) (string, error) {
	return m.renderDB(ctx, q, n, incremental, nil)
}

// renderDB serves RenderDB and RenderBatch (b is the microbatch model's
// batch, nil for every other node).
func (m *Manifest) renderDB(ctx context.Context, q Querier, n *Node, incremental bool, b *Batch) (string, error) {
	rc := m.compileCtx(n, m.runCTEs())
	rc.incremental, rc.batch = incremental, b
	rc.db = &dbConn{ctx: ctx, q: q, results: map[string]any{}}
	rc.checkRefs()
	out, err := renderTemplate(n, rc)
	if err != nil {
		var re *render.Error
		if errors.As(err, &re) {
			return "", &DiagnosticError{D: n.renderDiag(err)}
		}
		return "", err
	}
	if len(rc.diags) > 0 {
		return "", &DiagnosticError{D: rc.diags[0]}
	}
	return rc.ctes.inject(out), nil
}

// ReadsDatabase reports whether the node's template reads the database
// (run_query, statement, adapter.get_relation, …): its SQL as parsed is
// dbt's execute=false rendering; CompileWith renders it with a database.
func (n *Node) ReadsDatabase() bool { return n.needsDB && n.tpl != nil }

// NeedsDatabase reports whether compiling the node needs the database:
// its template reads it, or it is a unit test (its fixtures are typed as
// its inputs' columns).
func (n *Node) NeedsDatabase() bool {
	return n.ReadsDatabase() || (n.ResourceType == UnitTest && n.Unit != nil)
}

// CompileWith compiles, with q, the nodes among ids that need the
// Database, as `dbt compile` does with its connection: a node whose
// template reads the database renders again (is_incremental() false), a
// Unit test gets its model's SQL on its fixtures. It returns a manifest
// in which their CompiledCode is what a run would execute (m is left as
// it is). A node that fails keeps what it had:
// its mistake comes back in problems, or in unitTests for a unit test
// (whose inputs may not be built yet: a run would build them first).
func (m *Manifest) CompileWith(ctx context.Context, q Querier, ids []string) (compiled *Manifest, problems, unitTests []Diagnostic) {
	code := map[string]string{}
	for _, id := range ids {
		n := m.Nodes[id]
		if n == nil || !n.NeedsDatabase() {
			continue
		}
		if n.ResourceType == UnitTest {
			out, err := m.UnitTestSQL(ctx, q, n)
			if err != nil {
				unitTests = append(unitTests, Diagnostic{Path: n.Path, Line: n.Pos.Line, Col: n.Pos.Col,
					Msg: fmt.Sprintf("unit test %s not compiled: %s", n.Name, FirstLine(err.Error()))})
				continue
			}
			code[id] = out
			continue
		}
		out, err := m.RenderDB(ctx, q, n, false)
		if err != nil {
			var de *DiagnosticError
			if errors.As(err, &de) {
				problems = append(problems, de.D)
			} else {
				problems = append(problems, Diagnostic{Path: n.Path, Line: 1, Col: 1, Msg: err.Error()})
			}
			continue
		}
		code[id] = out
	}
	return m.withCode(code), SortDiagnostics(problems), SortDiagnostics(unitTests)
}

// sqlFailed is a query a template ran that DuckDB refused: its first
// Line whole (a render error is otherwise cut at its last colon).
func sqlFailed(what string, err error) error {
	return &render.UserError{Msg: what + ": " + FirstLine(err.Error())}
}

// errNeedsDB ends a parse-time render that read the database: the node
// renders again with execute=false, and at run time with a connection.
var errNeedsDB = errors.New("reads the database while rendering")

// relationArg reads a Relation (or a rendered name) from a template value.
func relationArg(v any) (render.Relation, bool) {
	switch r := v.(type) {
	case render.Relation:
		return r, true
	case *render.Relation:
		return *r, true
	}
	return render.Relation{}, false
}

// dbFuncs are the database-reading names a template sees: they need
// rc.db; at parse (rc.db nil) they end the render (errNeedsDB) or, in a
// lenient render (execute=false), give none / empty.
func (rc *renderCtx) dbFuncs(ctx map[string]any) {
	if rc.db != nil && rc.db.log == nil {
		rc.db.log = rc.m.log
	}
	need := func(empty any) (any, error) {
		rc.needsDB = true
		if rc.lenient {
			return empty, nil
		}
		return nil, errNeedsDB
	}
	// sqlOf is SQL a template runs, the ephemeral models it names inlined
	sqlOf := func(s string) string { return trimSQL(rc.ctes.inject(s)) }
	run := func(name, q string, fetch bool) error {
		if fetch {
			t, data, err := rc.db.query(q)
			if err != nil {
				return sqlFailed("statement "+name, err)
			}
			rc.db.results[name] = map[string]any{"table": t, "data": data,
				"response": map[string]any{"code": "SELECT", "rows_affected": len(data)}}
			return nil
		}
		if err := rc.db.q.Exec(rc.db.ctx, q); err != nil {
			return sqlFailed("statement "+name, err)
		}
		rc.db.results[name] = map[string]any{"table": &resultTable{}, "data": []any{},
			"response": map[string]any{"code": "OK"}}
		return nil
	}
	ctx["run_query"] = render.DbtMacro("run_query", render.Wrap(func(a render.Args) (any, error) {
		if rc.db == nil {
			return need(nil)
		}
		if len(a.Pos) == 0 {
			return nil, fmt.Errorf("run_query() needs SQL")
		}
		t, _, err := rc.db.query(sqlOf(fmt.Sprint(a.Pos[0])))
		if err != nil {
			return nil, sqlFailed("run_query", err)
		}
		return t, nil
	}))
	ctx["statement"] = rc.statement(need, run, sqlOf)
	ctx["load_result"] = render.Wrap(func(a render.Args) (any, error) {
		if rc.db == nil {
			return need(nil)
		}
		if len(a.Pos) == 0 {
			return nil, fmt.Errorf("load_result() needs a statement name")
		}
		return rc.db.results[fmt.Sprint(a.Pos[0])], nil
	})
	ctx["adapter"] = rc.dbAdapter(need)
	// dbt's `api.Relation.create(...)`
	ctx["api"] = map[string]any{"Relation": map[string]any{
		"create": render.Wrap(func(a render.Args) (any, error) {
			s, _ := a.Kw["schema"].(string)
			i, _ := a.Kw["identifier"].(string)
			t, _ := a.Kw["type"].(string)
			t = strings.ToLower(t)
			if t == "base table" {
				t = "table"
			}
			return render.Relation{Database: rc.m.Database(), Schema: s, Identifier: i, Rendered: Relation(s, i), Type: t}, nil
		}),
		"add_ephemeral_prefix": render.Wrap(func(a render.Args) (any, error) {
			return "__dbt__cte__" + fmt.Sprint(a.Pos...), nil
		}),
	}}
}

// statement is dbt's {% call statement(name, fetch_result) %}SQL{% endcall %}:
// the SQL runs through run; load_result(name) reads its result.
func (rc *renderCtx) statement(need func(any) (any, error), run func(name, q string, fetch bool) error, sqlOf func(string) string) func(*exec.Evaluator, *exec.VarArgs) *exec.Value {
	return func(ev *exec.Evaluator, va *exec.VarArgs) *exec.Value {
		caller, _ := ev.Environment.Context.Get("__gonja_caller__")
		ev.Environment.Context.Set("__gonja_caller__", nil)
		if rc.db == nil {
			if _, err := need(nil); err != nil {
				return exec.AsValue(err)
			}
			return exec.AsValue("")
		}
		name := "statement"
		if len(va.Args) > 0 && !va.Args[0].IsNil() {
			name = va.Args[0].String()
		} else if v, ok := va.KwArgs["name"]; ok && !v.IsNil() {
			name = v.String()
		}
		fetch := false
		if len(va.Args) > 1 {
			fetch = va.Args[1].IsTrue()
		} else if v, ok := va.KwArgs["fetch_result"]; ok {
			fetch = v.IsTrue()
		}
		fn, ok := caller.(func(*exec.VarArgs) *exec.Value)
		if !ok {
			return exec.AsValue(fmt.Errorf("statement() is called with {%% call statement(...) %%}SQL{%% endcall %%}"))
		}
		body := fn(exec.NewVarArgs())
		if body.IsError() {
			return body
		}
		if err := run(name, sqlOf(body.String()), fetch); err != nil {
			return exec.AsValue(err)
		}
		return exec.AsValue("")
	}
}

// catalogIs is an information_schema condition on column col (table_catalog,
// catalog_name), its one argument a relation's database: that database
// where one of the name is attached (profiles.yml's attach:, a source's
// database:; matched without regard to case, as DuckDB matches catalog
// names), else the warehouse. It was always the warehouse, so
// get_columns_in_relation of a source in an attached database found no
// columns (dbt_utils.star wrote none, and the model built) and a unit
// test's input there "did not exist".
func catalogIs(col string) string {
	return col + ` = coalesce((select database_name from duckdb_databases() where lower(database_name) = lower(?)), current_database())`
}

// lookedUp is the relation get_relation found: in database db when db
// names an attached database other than the warehouse (written
// db.schema.name, as a source there renders), else in the warehouse.
func (m *Manifest) lookedUp(db, schema, ident, typ string) render.Relation {
	r := render.Relation{Database: m.Database(), Schema: schema, Identifier: ident, Rendered: Relation(schema, ident), Type: typ}
	for _, a := range m.Project.Target.Attach {
		if db != "" && strings.EqualFold(db, a.Alias) && !strings.EqualFold(db, m.Database()) {
			r.Database, r.Rendered = db, Quote(db)+"."+r.Rendered
		}
	}
	return r
}

// dbAdapter is the adapter's database methods (quote, get_columns_in_relation,
// get_relation, load_relation, drop_relation and the schema ones).
func (rc *renderCtx) dbAdapter(need func(any) (any, error)) map[string]any {
	relType := func(db, schema, name string) (string, error) {
		_, rows, err := rc.db.q.Query(rc.db.ctx, `select table_type from information_schema.tables
			where `+catalogIs("table_catalog")+` and table_schema = ? and table_name = ?`, db, schema, name)
		if err != nil || len(rows) == 0 {
			return "", err
		}
		if fmt.Sprint(rows[0][0]) == "VIEW" {
			return "view", nil
		}
		return "table", nil
	}
	adapter := map[string]any{
		"quote": render.Wrap(func(a render.Args) (any, error) {
			if len(a.Pos) == 0 {
				return nil, fmt.Errorf("adapter.quote() needs a name")
			}
			// dbt-duckdb's '"{}"'.format(name): always quoted (an inner
			// quote doubled, which dbt leaves as is)
			return quoteIdent(fmt.Sprint(a.Pos[0])), nil
		}),
		"get_columns_in_relation": render.Wrap(func(a render.Args) (any, error) {
			if rc.db == nil {
				return need([]any{})
			}
			if len(a.Pos) == 0 {
				return nil, fmt.Errorf("adapter.get_columns_in_relation() needs a relation")
			}
			rel, ok := relationArg(a.Pos[0])
			if !ok {
				return nil, fmt.Errorf("adapter.get_columns_in_relation(%v): not a relation", a.Pos[0])
			}
			_, rows, err := rc.db.q.Query(rc.db.ctx, `select column_name, data_type from information_schema.columns
				where `+catalogIs("table_catalog")+` and table_schema = ? and table_name = ? order by ordinal_position`, rel.Database, rel.Schema, rel.Identifier)
			if err != nil {
				return nil, err
			}
			out := []any{}
			for _, r := range rows {
				out = append(out, dbColumn{name: fmt.Sprint(r[0]), dataType: fmt.Sprint(r[1])})
			}
			return out, nil
		}),
		"get_relation": render.Wrap(func(a render.Args) (any, error) {
			if rc.db == nil {
				return need(nil)
			}
			get := func(i int, k string) string {
				if v, ok := a.Kw[k]; ok && v != nil {
					return fmt.Sprint(v)
				}
				if i < len(a.Pos) && a.Pos[i] != nil {
					return fmt.Sprint(a.Pos[i])
				}
				return ""
			}
			db, schema, ident := get(0, "database"), get(1, "schema"), get(2, "identifier")
			t, err := relType(db, schema, ident)
			if err != nil || t == "" {
				return nil, err
			}
			return rc.m.lookedUp(db, schema, ident, t), nil
		}),
		"load_relation": render.Wrap(func(a render.Args) (any, error) {
			if rc.db == nil {
				return need(nil)
			}
			rel, ok := relationArg(a.Pos[0])
			if !ok {
				return nil, fmt.Errorf("adapter.load_relation(%v): not a relation", a.Pos[0])
			}
			t, err := relType(rel.Database, rel.Schema, rel.Identifier)
			if err != nil || t == "" {
				return nil, err
			}
			rel.Type = t
			return rel, nil
		}),
		"drop_relation": render.Wrap(func(a render.Args) (any, error) {
			if rc.db == nil {
				return need("")
			}
			rel, ok := relationArg(a.Pos[0])
			if !ok {
				return nil, fmt.Errorf("adapter.drop_relation(%v): not a relation", a.Pos[0])
			}
			kind := "table"
			if rel.Type == "view" {
				kind = "view"
			}
			return "", rc.db.q.Exec(rc.db.ctx, "drop "+kind+" if exists "+Relation(rel.Schema, rel.Identifier))
		}),
	}
	rc.schemaAdapter(adapter, need)
	// a materialization's transaction steps: each statement of docket's
	// runs on its own, so there is nothing left to commit
	for _, k := range []string{"commit", "begin"} {
		adapter[k] = render.Wrap(func(render.Args) (any, error) { return "", nil })
	}
	for _, k := range []string{"is_iceberg", "is_ducklake"} { // dbt-duckdb's: neither here
		adapter[k] = render.Wrap(func(render.Args) (any, error) { return false, nil })
	}
	return adapter
}

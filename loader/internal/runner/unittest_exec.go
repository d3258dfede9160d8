package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/runner/render"
)

// colType is one column of a relation or query, as DuckDB describes it.
type colType struct{ name, typ string }

// unitTest runs a dbt unit test as dbt-core does: the model's SQL
// rendered with each given input replaced by a CTE of its fixture rows
// (each value cast to the input column's type, columns a row leaves out
// null), and its output compared with the expected rows (cast to the
// output's types) on the columns the expected rows name. The rows that
// differ are the failures: "+" returned but not expected, "-" expected
// but not returned.
func (x *nodeExec) unitTest() error {
	u, n := x.n.unit, x.n
	t0 := time.Now()
	if x.unitUpToDate() {
		x.markUpToDate()
		return nil
	}
	fail := func(format string, a ...any) error {
		return &diagErr{Diagnostic{Path: n.Path, Line: n.pos.line, Col: n.pos.col,
			Msg: fmt.Sprintf("unit test %s: ", n.Name) + fmt.Sprintf(format, a...)}}
	}
	actual, err := x.m.unitTestSQL(x.ctx, sqlQuerier{x.c}, n)
	if err != nil {
		return fail("%v", err)
	}
	x.r.CompiledCode = actual
	outCols, err := x.describeQuery(actual)
	if err != nil {
		return fail("the model's SQL on the fixtures: %s", firstLine(err.Error()))
	}
	expected := u.expect.sql
	names := u.expect.columns()
	if u.expect.format == "sql" {
		ec, err := x.describeQuery(expected)
		if err != nil {
			return fail("expect: %s", firstLine(err.Error()))
		}
		names = names[:0]
		for _, c := range ec {
			names = append(names, strings.ToLower(c.name))
		}
	}
	byName := map[string]colType{}
	var accepted []string
	for _, c := range outCols {
		byName[strings.ToLower(c.name)] = c
		accepted = append(accepted, c.name)
	}
	named := map[string]bool{}
	for _, c := range names {
		if _, ok := byName[c]; !ok {
			return fail("expect: column %q is not in the model's output (its columns: %s)", c, strings.Join(accepted, ", "))
		}
		named[c] = true
	}
	// compared: the columns the expected rows name, in the output's order
	// (all of them when none is named: an expected empty result)
	var cmpCols []colType
	for _, c := range outCols {
		if named[strings.ToLower(c.name)] || len(named) == 0 {
			cmpCols = append(cmpCols, c)
		}
	}
	if u.expect.format != "sql" {
		if expected, err = fixtureSQL(u.expect.rows, cmpCols); err != nil {
			return fail("expect: %v", err)
		}
	}
	var list []string
	for _, c := range cmpCols {
		list = append(list, Quote(c.name))
	}
	cols := strings.Join(list, ", ")
	stmt := "with dbt_internal_unit_test_actual as (\nselect " + cols + " from (\n" + actual + "\n) as a\n),\n" +
		"dbt_internal_unit_test_expected as (\nselect " + cols + " from (\n" + expected + "\n) as e\n),\n" +
		"dbt_internal_unit_test_diff as (\n" +
		"select '+' as diff, * from (select * from dbt_internal_unit_test_actual except all select * from dbt_internal_unit_test_expected)\n" +
		"union all\nselect '-' as diff, * from (select * from dbt_internal_unit_test_expected except all select * from dbt_internal_unit_test_actual)\n)\n" +
		"select * from dbt_internal_unit_test_diff"
	x.timing("compile", t0)
	t1 := time.Now()
	defer x.timing("execute", t1)
	var plus, minus int64
	if err := x.c.QueryRowContext(x.ctx, "select count(*) filter (where diff = '+'), count(*) filter (where diff = '-') from (\n"+stmt+"\n) as d").
		Scan(&plus, &minus); err != nil {
		return fail("%s", firstLine(err.Error()))
	}
	failures := plus + minus
	x.r.Failures = &failures
	x.r.AdapterResponse = AdapterResponse{Message: "SELECT", RowsAffected: failures}
	if failures == 0 {
		x.r.Status = StatusPass
		return nil
	}
	x.r.Status = StatusFail
	x.r.Message = fmt.Sprintf("actual differs from expected: %d row%s returned but not expected (+), %d row%s expected but not returned (-)",
		plus, plural(plus), minus, plural(minus))
	x.r.Sample = x.sample(stmt + "\norder by diff, " + strings.Join(list, ", ") + "\nlimit 20")
	return nil
}

// unitTestSQL is the unit test's model SQL on its fixtures: each given
// input a CTE of its rows, typed as the input's columns are (which q
// tells: the relation in the warehouse, else the YAML's data_types, else
// a describe of the model's SQL or the seed's CSV).
func (m *Manifest) unitTestSQL(ctx context.Context, q Querier, n *Node) (string, error) {
	u := n.unit
	var ctes []string
	given := map[string]string{}
	for _, g := range u.given {
		body := g.sql
		if g.format != "sql" {
			cols, err := m.inputColumns(ctx, q, g.node)
			if err != nil {
				return "", fmt.Errorf("input %s: %v", g.input, err)
			}
			if body, err = fixtureSQL(g.rows, cols); err != nil {
				return "", fmt.Errorf("input %s: %v", g.input, err)
			}
		}
		cte := Quote(g.cteName())
		given[g.kind+":"+g.name] = cte
		ctes = append(ctes, cte+" as (\n"+body+"\n)")
	}
	code, err := m.renderUnderTest(ctx, q, u, given)
	if err != nil {
		return "", err
	}
	actual := trimSQL(code)
	if len(ctes) > 0 {
		actual = injectCTEs(actual, ctes)
	}
	return actual, nil
}

// unitUpToDate: in build, a unit test that last passed is not run again
// while its model's code and inputs (whose versions stand for their
// columns' types) and its own entry are unchanged.
func (x *nodeExec) unitUpToDate() bool {
	st, u := x.st, x.n.unit
	if st == nil {
		return false
	}
	x.fp = st.fingerprint(x.m, u.modelNode, UnitTest, x.n.UniqueID, u.raw)
	if x.fp == "" || x.force || st.command != "build" {
		return false
	}
	st.mu.Lock()
	prev, ok := st.prev[x.n.UniqueID]
	st.mu.Unlock()
	return ok && prev.fingerprint == x.fp && prev.status == StatusPass
}

// renderUnderTest renders the tested model with ref/source/this resolving
// to the fixtures' CTEs (a seed not given is read as it is, as in dbt;
// any other input not given is an error naming it) and the unit test's
// overrides (macros, vars, env_vars) in place.
func (m *Manifest) renderUnderTest(ctx context.Context, q Querier, u *unitSpec, given map[string]string) (string, error) {
	mn := u.modelNode
	if mn.tpl == nil {
		return "", fmt.Errorf("model %s has no template", mn.Name)
	}
	incr := false
	if v, ok := u.macros["is_incremental"]; ok {
		incr = truthy(v)
	}
	rc := &renderCtx{m: m, n: mn, incremental: incr, cfg: map[string]any{}, refPos: map[string]pos{},
		db: &dbConn{ctx: ctx, q: q, results: map[string]any{}}}
	vars := rc.vars()
	vars["ref"] = render.Wrap(func(a render.Args) (any, error) {
		if len(a.Pos) == 0 {
			return nil, fmt.Errorf("ref() needs a model name")
		}
		name := fmt.Sprint(a.Pos[len(a.Pos)-1])
		cte, ok := given["ref:"+name]
		if t := m.byName[name]; !ok && t != nil && t.ResourceType == Seed {
			// as dbt: a seed the test does not give is read as it is
			return render.Relation{Database: t.Database, Schema: t.Schema, Identifier: t.Alias, Rendered: t.Relation, Type: relKind(t)}, nil
		}
		if !ok {
			return nil, &render.UserError{Msg: fmt.Sprintf("model %s reads ref('%s'), which the unit test does not give (add `- input: ref('%s')` with its rows)", mn.Name, name, name)}
		}
		t := m.byName[name]
		return render.Relation{Database: t.Database, Schema: t.Schema, Identifier: t.Alias, Rendered: cte, Type: relKind(t)}, nil
	})
	vars["source"] = render.Wrap(func(a render.Args) (any, error) {
		if len(a.Pos) != 2 {
			return nil, fmt.Errorf("source() needs a source name and a table name")
		}
		key := fmt.Sprint(a.Pos[0]) + "." + fmt.Sprint(a.Pos[1])
		cte, ok := given["source:"+key]
		if !ok {
			return nil, &render.UserError{Msg: fmt.Sprintf("model %s reads source('%s', '%s'), which the unit test does not give (add `- input: source('%s', '%s')` with its rows)",
				mn.Name, a.Pos[0], a.Pos[1], a.Pos[0], a.Pos[1])}
		}
		return cte, nil
	})
	if cte, ok := given["this:"]; ok {
		vars["this"] = render.Relation{Database: mn.Database, Schema: mn.Schema, Identifier: mn.Alias, Rendered: cte, Type: relKind(mn)}
	}
	for k, v := range u.macros { // "pkg.name" replaces one macro of that namespace (render.Render)
		val := v
		vars[k] = render.Wrap(func(render.Args) (any, error) { return val, nil })
	}
	if len(u.vars) > 0 {
		vars["var"] = render.Wrap(func(a render.Args) (any, error) {
			if len(a.Pos) == 0 {
				return nil, fmt.Errorf("var() needs a name")
			}
			name := fmt.Sprint(a.Pos[0])
			if v, ok := u.vars[name]; ok {
				return v, nil
			}
			if v, ok := m.Vars[name]; ok {
				return v, nil
			}
			if len(a.Pos) > 1 {
				return a.Pos[1], nil
			}
			return nil, fmt.Errorf("required var %q is not set in project.yaml vars, --vars or the unit test's overrides", name)
		})
	}
	if len(u.envVars) > 0 {
		vars["env_var"] = render.Wrap(func(a render.Args) (any, error) {
			if len(a.Pos) == 0 {
				return nil, fmt.Errorf("env_var() needs a name")
			}
			name := fmt.Sprint(a.Pos[0])
			if v, ok := u.envVars[name]; ok {
				return ystrAny(v), nil
			}
			if v, ok := os.LookupEnv(name); ok {
				return v, nil
			}
			if len(a.Pos) > 1 {
				return a.Pos[1], nil
			}
			return nil, fmt.Errorf("environment variable %q is not set", name)
		})
	}
	out, err := mn.tpl.Render(vars)
	if err != nil {
		var re *render.Error
		if errors.As(err, &re) {
			return "", fmt.Errorf("%s:%d:%d: %s", mn.Path, re.Line, re.Col, re.Msg)
		}
		return "", err
	}
	if len(rc.diags) > 0 {
		return "", fmt.Errorf("%s", rc.diags[0])
	}
	return out, nil
}

func truthy(v any) bool {
	switch t := v.(type) {
	case bool:
		return t
	case string:
		return strings.EqualFold(t, "true")
	case nil:
		return false
	case int:
		return t != 0
	}
	return true
}

// inputColumns are the columns of a given input with their types: its
// relation in the warehouse when it exists, else its YAML columns when
// each has a data_type, else what its SQL (a model) or CSV (a seed)
// returns (the tested model given as `this` before its first build).
func (m *Manifest) inputColumns(ctx context.Context, q Querier, n *Node) ([]colType, error) {
	describe := func(s string) ([]colType, error) { return describeWith(ctx, q, s) }
	if _, rows, err := q.Query(ctx, `select table_type from information_schema.tables
		where table_catalog = current_database() and table_schema = ? and table_name = ?`, n.Schema, n.Alias); err != nil {
		return nil, err
	} else if len(rows) > 0 && (n.ResourceType != Model || n.Config.Materialized != "ephemeral") {
		return describe("select * from " + n.Relation)
	}
	if len(n.Columns) > 0 {
		var cols []colType
		for _, k := range sortedKeys(n.Columns) {
			c := n.Columns[k]
			if c.DataType == "" {
				cols = nil
				break
			}
			cols = append(cols, colType{c.Name, c.DataType})
		}
		if cols != nil {
			return cols, nil
		}
	}
	switch n.ResourceType {
	case Model:
		cols, err := describe(n.CompiledCode)
		if err != nil {
			return nil, fmt.Errorf("%s does not exist yet and its SQL cannot be described (%s): build it first", strings.ReplaceAll(n.Relation, `"`, ""), firstLine(err.Error()))
		}
		return cols, nil
	case Seed:
		return describe("select * from read_csv('" + strings.ReplaceAll(n.seedFile, "'", "''") + "', " + seedCSVOptions(n) + ")")
	}
	return nil, fmt.Errorf("%s does not exist yet and its columns' data_types are not all declared: build it first", strings.ReplaceAll(n.Relation, `"`, ""))
}

// describeQuery returns the columns a query returns, with DuckDB's types.
func (x *nodeExec) describeQuery(q string) ([]colType, error) {
	return describeWith(x.ctx, sqlQuerier{x.c}, q)
}

// describeWith asks q for the columns a query returns, with their types.
func describeWith(ctx context.Context, q Querier, query string) ([]colType, error) {
	_, rows, err := q.Query(ctx, "describe select * from (\n"+trimSQL(query)+"\n) as dbt_internal_describe")
	if err != nil {
		return nil, err
	}
	var out []colType
	for _, r := range rows {
		out = append(out, colType{fmt.Sprint(r[0]), fmt.Sprint(r[1])})
	}
	return out, nil
}

// fixtureSQL is rows as a query over cols: each value cast to its
// column's type, a column a row leaves out null; no rows gives an empty
// result with the same columns. A row naming a column cols lacks is an
// error, as in dbt.
func fixtureSQL(rows []fixRow, cols []colType) (string, error) {
	known := map[string]bool{}
	var accepted []string
	for _, c := range cols {
		known[strings.ToLower(c.name)] = true
		accepted = append(accepted, c.name)
	}
	for _, r := range rows {
		for _, k := range sortedKeys(r) {
			if !known[k] {
				return "", fmt.Errorf("column %q is not one of its columns (%s)", k, strings.Join(accepted, ", "))
			}
		}
	}
	sel := func(r fixRow) string {
		var parts []string
		for _, c := range cols {
			v, ok := r[strings.ToLower(c.name)]
			lit := "null"
			if ok {
				lit = sqlLiteral(v)
			}
			parts = append(parts, "cast("+lit+" as "+c.typ+") as "+Quote(c.name))
		}
		return "select " + strings.Join(parts, ", ")
	}
	if len(rows) == 0 {
		return sel(fixRow{}) + " limit 0", nil
	}
	var out []string
	for _, r := range rows {
		out = append(out, sel(r))
	}
	return strings.Join(out, "\nunion all\n"), nil
}

// sqlLiteral writes a YAML or CSV value as SQL: strings quoted, null,
// booleans and numbers as they are.
func sqlLiteral(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case string:
		return "'" + strings.ReplaceAll(t, "'", "''") + "'"
	case bool:
		if t {
			return "true"
		}
		return "false"
	case int, int64, uint64, float64:
		return fmt.Sprint(t)
	case time.Time:
		if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0 {
			return "'" + t.Format("2006-01-02") + "'"
		}
		return "'" + t.Format("2006-01-02 15:04:05.999999") + "'"
	}
	return "'" + strings.ReplaceAll(fmt.Sprint(v), "'", "''") + "'"
}

// sample reads the rows of a query as text (failing rows shown with a
// test's result).
func (x *nodeExec) sample(q string) *Sample {
	rows, err := x.c.QueryContext(x.ctx, q)
	if err != nil {
		return nil
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	s := &Sample{Columns: cols, Rows: [][]string{}}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if rows.Scan(ptrs...) != nil {
			break
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			if v == nil {
				row[i] = "NULL"
			} else if b, ok := v.([]byte); ok {
				row[i] = string(b)
			} else {
				row[i] = fmt.Sprint(v)
			}
		}
		s.Rows = append(s.Rows, row)
	}
	return s
}

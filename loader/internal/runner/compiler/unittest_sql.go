package compiler

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/runner/render"
)

// ColType is one column of a relation or query, as DuckDB describes it.
type ColType struct{ Name, typ string }

// UnitTestSQL is the unit test's model SQL on its fixtures: each given
// input a CTE of its rows, typed as the input's columns are (which q
// tells: the relation in the warehouse, else the YAML's data_types, else
// a describe of the model's SQL or the seed's CSV).
func (m *Manifest) UnitTestSQL(ctx context.Context, q Querier, n *Node) (string, error) {
	u := n.Unit
	var ctes []string
	given := map[string]string{}
	for _, g := range u.given {
		body := g.SQL
		if g.Format != "sql" {
			cols, err := m.inputColumns(ctx, q, g.node)
			if err != nil {
				return "", fmt.Errorf("input %s: %v", g.input, err)
			}
			if body, err = FixtureSQL(g.Rows, cols); err != nil {
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
		actual = InjectCTEs(actual, ctes)
	}
	return actual, nil
}

// renderUnderTest renders the tested model with ref/source/this resolving
// to the fixtures' CTEs (a seed not given is read as it is, as in dbt;
// any other input not given is an error naming it) and the unit test's
// overrides (macros, vars, env_vars) in place.
func (m *Manifest) renderUnderTest(ctx context.Context, q Querier, u *UnitSpec, given map[string]string) (string, error) {
	mn := u.ModelNode
	if mn.tpl == nil {
		return "", fmt.Errorf("model %s has no template", mn.Name)
	}
	incr := false
	if v, ok := u.macros["is_incremental"]; ok {
		incr = truthy(v)
	}
	rc := m.compileCtx(mn, nil)
	rc.incremental, rc.db = incr, &dbConn{ctx: ctx, q: q, results: map[string]any{}}
	vars := rc.vars()
	vars["ref"] = render.Wrap(func(a render.Args) (any, error) {
		if len(a.Pos) == 0 {
			return nil, fmt.Errorf("ref() needs a model name")
		}
		name := fmt.Sprint(a.Pos[len(a.Pos)-1])
		call, key := fmt.Sprintf("ref('%s')", name), name
		if v, pinned := refVersion(a); pinned {
			call, key = fmt.Sprintf("ref('%s', v=%s)", name, v), versionKey(name, v)
		}
		t := m.byName[key]
		if t != nil {
			key = t.refKey() // given inputs are keyed by the node they name (ref('dim') is its latest version)
		}
		cte, ok := given["ref:"+key]
		if !ok && t != nil && t.ResourceType == Seed {
			// as dbt: a seed the test does not give is read as it is
			return m.relation(t), nil
		}
		if !ok || t == nil {
			return nil, &render.UserError{Msg: fmt.Sprintf("model %s reads %s, which the unit test does not give (add `- input: %s` with its rows)", mn.Name, call, call)}
		}
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
				return a.Raw[1].Interface(), nil // the default as written (a dict literal stays one)
			}
			return nil, fmt.Errorf("required var %q is not set in project.yaml vars, --vars or the unit test's overrides", name)
		})
	}
	if len(u.envVars) > 0 {
		vars["env_var"] = render.EnvVar(func(name string) (any, bool) {
			if v, ok := u.envVars[name]; ok {
				return ystrAny(v), true
			}
			return os.LookupEnv(name)
		}, envVarNotSet)
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
func (m *Manifest) inputColumns(ctx context.Context, q Querier, n *Node) ([]ColType, error) {
	describe := func(s string) ([]ColType, error) { return DescribeWith(ctx, q, s) }
	if _, rows, err := q.Query(ctx, `select table_type from information_schema.tables
		where `+catalogIs("table_catalog")+` and table_schema = ? and table_name = ?`, n.Database, n.Schema, n.Alias); err != nil {
		return nil, err
	} else if len(rows) > 0 && (n.ResourceType != Model || n.Config.Materialized != "ephemeral") {
		return describe("select * from " + n.Relation)
	}
	if len(n.Columns) > 0 {
		var cols []ColType
		for _, k := range SortedKeys(n.Columns) {
			c := n.Columns[k]
			if c.DataType == "" {
				cols = nil
				break
			}
			cols = append(cols, ColType{c.Name, c.DataType})
		}
		if cols != nil {
			return cols, nil
		}
	}
	switch n.ResourceType {
	case Model:
		cols, err := describe(n.CompiledCode)
		if err != nil {
			return nil, fmt.Errorf("%s does not exist yet and its SQL cannot be described (%s): build it first", strings.ReplaceAll(n.Relation, `"`, ""), FirstLine(err.Error()))
		}
		return cols, nil
	case Seed:
		return describe("select * from read_csv('" + strings.ReplaceAll(n.SeedFile, "'", "''") + "', " + SeedCSVOptions(n) + ")")
	}
	return nil, fmt.Errorf("%s does not exist yet and its columns' data_types are not all declared: build it first", strings.ReplaceAll(n.Relation, `"`, ""))
}

// DescribeWith asks q for the columns a query returns, with their types.
func DescribeWith(ctx context.Context, q Querier, query string) ([]ColType, error) {
	_, rows, err := q.Query(ctx, "describe select * from (\n"+trimSQL(query)+"\n) as dbt_internal_describe")
	if err != nil {
		return nil, err
	}
	var out []ColType
	for _, r := range rows {
		out = append(out, ColType{fmt.Sprint(r[0]), fmt.Sprint(r[1])})
	}
	return out, nil
}

// FixtureSQL is rows as a query over cols: each value cast to its
// column's type, a column a row leaves out null; no rows gives an empty
// result with the same columns. A row naming a column cols lacks is an
// error, as in dbt.
func FixtureSQL(rows []FixtureRow, cols []ColType) (string, error) {
	known := map[string]bool{}
	var accepted []string
	for _, c := range cols {
		known[strings.ToLower(c.Name)] = true
		accepted = append(accepted, c.Name)
	}
	for _, r := range rows {
		for _, k := range SortedKeys(r) {
			if !known[k] {
				return "", fmt.Errorf("column %q is not one of its columns (%s)", k, strings.Join(accepted, ", "))
			}
		}
	}
	sel := func(r FixtureRow) string {
		var parts []string
		for _, c := range cols {
			v, ok := r[strings.ToLower(c.Name)]
			lit := "null"
			if ok {
				lit = fixtureLiteral(v)
			}
			parts = append(parts, "cast("+lit+" as "+c.typ+") as "+Quote(c.Name))
		}
		return "select " + strings.Join(parts, ", ")
	}
	if len(rows) == 0 {
		return sel(FixtureRow{}) + " limit 0", nil
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

package runner

// Jinja that reads the database (dbt's run_query, statement/load_result,
// adapter.get_columns_in_relation, get_relation, ...). dbt renders every
// node again when it executes, with a connection; docket does the same
// for the nodes that call these: at parse they render with execute=false
// (the calls give none/empty, as dbt's parse does) and at run time again
// with the node's connection (renderCtx.db).

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/runner/render"
	"github.com/nikolalohinski/gonja/v2/exec"
)

// dbConn is the connection database-reading Jinja uses at run time.
type dbConn struct {
	ctx     context.Context
	c       *sql.Conn
	results map[string]any // statement name → load_result value
}

// sqlFailed is a query a template ran that DuckDB refused: its first
// line whole (a render error is otherwise cut at its last colon).
func sqlFailed(what string, err error) error {
	return &render.UserError{Msg: what + ": " + firstLine(err.Error())}
}

// errNeedsDB ends a parse-time render that read the database: the node
// renders again with execute=false, and at run time with a connection.
var errNeedsDB = errors.New("reads the database while rendering")

// resultTable is an agate-like table (dbt's run_query / load_result
// .table): iterable rows, .rows, .columns, .column_names.
type resultTable struct {
	names []string
	rows  []*resultRow
}

// JinjaList makes a table iterate (and count, and test true) as its rows.
func (t *resultTable) JinjaList() []any {
	out := make([]any, len(t.rows))
	for i, r := range t.rows {
		out[i] = r
	}
	return out
}

type resultRow struct {
	names *[]string
	vals  []any
}

func (r *resultRow) GetItem(key any) (*exec.Value, bool) {
	switch k := key.(type) {
	case int:
		if k < 0 {
			k += len(r.vals)
		}
		if k >= 0 && k < len(r.vals) {
			return exec.AsValue(r.vals[k]), true
		}
	case string:
		return r.GetAttribute(k)
	}
	return exec.AsValue(nil), false
}

func (r *resultRow) GetAttribute(name string) (*exec.Value, bool) {
	for i, n := range *r.names {
		if n == name {
			return exec.AsValue(r.vals[i]), true
		}
	}
	return exec.AsValue(nil), false
}

// resultColumn is one column of a resultTable: .name, .values().
type resultColumn struct {
	name string
	vals []any
}

func (c *resultColumn) GetAttribute(name string) (*exec.Value, bool) {
	switch name {
	case "name":
		return exec.AsValue(c.name), true
	case "values":
		return exec.AsValue(func(*exec.VarArgs) (any, error) { return c.vals, nil }), true
	}
	return exec.AsValue(nil), false
}

// resultColumns is .columns: indexed by position or name, .items().
type resultColumns []*resultColumn

func (cs resultColumns) GetItem(key any) (*exec.Value, bool) {
	switch k := key.(type) {
	case int:
		if k >= 0 && k < len(cs) {
			return exec.AsValue(cs[k]), true
		}
	case string:
		for _, c := range cs {
			if c.name == k {
				return exec.AsValue(c), true
			}
		}
	}
	return exec.AsValue(nil), false
}

func (cs resultColumns) GetAttribute(name string) (*exec.Value, bool) {
	switch name {
	case "items":
		return exec.AsValue(func(*exec.VarArgs) (any, error) {
			out := make([]any, len(cs))
			for i, c := range cs {
				out[i] = []any{c.name, c}
			}
			return out, nil
		}), true
	case "keys":
		return exec.AsValue(func(*exec.VarArgs) (any, error) {
			out := make([]any, len(cs))
			for i, c := range cs {
				out[i] = c.name
			}
			return out, nil
		}), true
	}
	return exec.AsValue(nil), false
}

func (t *resultTable) columnNames() []string { return t.names }

func (t *resultTable) GetAttribute(name string) (*exec.Value, bool) {
	switch name {
	case "rows":
		return exec.AsValue(t.JinjaList()), true
	case "column_names":
		out := []any{}
		for _, n := range t.columnNames() {
			out = append(out, n)
		}
		return exec.AsValue(out), true
	case "columns":
		cs := resultColumns{}
		for i, n := range t.columnNames() {
			c := &resultColumn{name: n, vals: []any{}}
			for _, r := range t.rows {
				c.vals = append(c.vals, r.vals[i])
			}
			cs = append(cs, c)
		}
		return exec.AsValue(cs), true
	}
	return exec.AsValue(nil), false
}

// query runs q and returns its rows as a resultTable (and as plain lists,
// load_result's data).
func (d *dbConn) query(q string) (*resultTable, []any, error) {
	rows, err := d.c.QueryContext(d.ctx, q)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, nil, err
	}
	t := &resultTable{names: cols}
	data := []any{}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, nil, err
		}
		for i, v := range vals {
			vals[i] = jinjaValue(v)
		}
		t.rows = append(t.rows, &resultRow{names: &t.names, vals: vals})
		data = append(data, append([]any{}, vals...))
	}
	return t, data, rows.Err()
}

// jinjaValue turns a driver value into one templates handle.
func jinjaValue(v any) any {
	switch x := v.(type) {
	case []byte:
		return string(x)
	case time.Time:
		return x.Format("2006-01-02 15:04:05.999999")
	case int32:
		return int(x)
	case int64:
		return int(x)
	case int16:
		return int(x)
	case int8:
		return int(x)
	case uint8:
		return int(x)
	case uint16:
		return int(x)
	case uint32:
		return int(x)
	case float32:
		return float64(x)
	}
	return v
}

// dbColumn is what adapter.get_columns_in_relation returns (dbt's Column).
type dbColumn struct{ name, dataType string }

var (
	numericTypeRe = regexp.MustCompile(`(?i)^(decimal|numeric)`)
	floatTypeRe   = regexp.MustCompile(`(?i)^(double|float|real)`)
	intTypeRe     = regexp.MustCompile(`(?i)^(tinyint|smallint|integer|bigint|hugeint|utinyint|usmallint|uinteger|ubigint|uhugeint|int)`)
	stringTypeRe  = regexp.MustCompile(`(?i)^(varchar|text|string|char|bpchar)`)
)

func (c dbColumn) GetAttribute(name string) (*exec.Value, bool) {
	is := func(ok bool) *exec.Value {
		return exec.AsValue(func(*exec.VarArgs) (any, error) { return ok, nil })
	}
	switch name {
	case "name", "column":
		return exec.AsValue(c.name), true
	case "quoted":
		return exec.AsValue(Quote(c.name)), true
	case "data_type", "dtype":
		return exec.AsValue(c.dataType), true
	case "is_string":
		return is(stringTypeRe.MatchString(c.dataType)), true
	case "is_number":
		return is(numericTypeRe.MatchString(c.dataType) || floatTypeRe.MatchString(c.dataType) || intTypeRe.MatchString(c.dataType)), true
	case "is_float":
		return is(floatTypeRe.MatchString(c.dataType)), true
	case "is_numeric":
		return is(numericTypeRe.MatchString(c.dataType)), true
	case "is_integer":
		return is(intTypeRe.MatchString(c.dataType)), true
	}
	return exec.AsValue(nil), false
}

func (c dbColumn) String() string { return c.name }

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
	need := func(empty any) (any, error) {
		rc.needsDB = true
		if rc.lenient {
			return empty, nil
		}
		return nil, errNeedsDB
	}
	// sqlOf resolves ref markers in SQL a template runs
	sqlOf := func(s string) string { return trimSQL(rc.m.finish(rc.n, s, map[string]bool{})) }
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
		if _, err := rc.db.c.ExecContext(rc.db.ctx, q); err != nil {
			return sqlFailed("statement "+name, err)
		}
		rc.db.results[name] = map[string]any{"table": &resultTable{}, "data": []any{},
			"response": map[string]any{"code": "OK"}}
		return nil
	}
	ctx["run_query"] = render.Wrap(func(a render.Args) (any, error) {
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
	})
	ctx["statement"] = func(ev *exec.Evaluator, va *exec.VarArgs) *exec.Value {
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
	ctx["load_result"] = render.Wrap(func(a render.Args) (any, error) {
		if rc.db == nil {
			return need(nil)
		}
		if len(a.Pos) == 0 {
			return nil, fmt.Errorf("load_result() needs a statement name")
		}
		return rc.db.results[fmt.Sprint(a.Pos[0])], nil
	})
	relType := func(schema, name string) (string, error) {
		var t string
		err := rc.db.c.QueryRowContext(rc.db.ctx, `select table_type from information_schema.tables
			where table_catalog = current_database() and table_schema = ? and table_name = ?`, schema, name).Scan(&t)
		if errors.Is(err, sql.ErrNoRows) {
			return "", nil
		}
		if t == "VIEW" {
			return "view", err
		}
		return "table", err
	}
	adapter := map[string]any{
		"quote": render.Wrap(func(a render.Args) (any, error) {
			if len(a.Pos) == 0 {
				return nil, fmt.Errorf("adapter.quote() needs a name")
			}
			return Quote(fmt.Sprint(a.Pos[0])), nil
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
			rows, err := rc.db.c.QueryContext(rc.db.ctx, `select column_name, data_type from information_schema.columns
				where table_catalog = current_database() and table_schema = ? and table_name = ? order by ordinal_position`, rel.Schema, rel.Identifier)
			if err != nil {
				return nil, err
			}
			defer rows.Close()
			out := []any{}
			for rows.Next() {
				var c dbColumn
				if err := rows.Scan(&c.name, &c.dataType); err != nil {
					return nil, err
				}
				out = append(out, c)
			}
			return out, rows.Err()
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
			schema, ident := get(1, "schema"), get(2, "identifier")
			t, err := relType(schema, ident)
			if err != nil || t == "" {
				return nil, err
			}
			return render.Relation{Database: rc.m.database(), Schema: schema, Identifier: ident, Rendered: Relation(schema, ident), Type: t}, nil
		}),
		"load_relation": render.Wrap(func(a render.Args) (any, error) {
			if rc.db == nil {
				return need(nil)
			}
			rel, ok := relationArg(a.Pos[0])
			if !ok {
				return nil, fmt.Errorf("adapter.load_relation(%v): not a relation", a.Pos[0])
			}
			t, err := relType(rel.Schema, rel.Identifier)
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
			_, err := rc.db.c.ExecContext(rc.db.ctx, "drop "+kind+" if exists "+Relation(rel.Schema, rel.Identifier))
			return "", err
		}),
	}
	ctx["adapter"] = adapter
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
			return render.Relation{Database: rc.m.database(), Schema: s, Identifier: i, Rendered: Relation(s, i), Type: t}, nil
		}),
		"add_ephemeral_prefix": render.Wrap(func(a render.Args) (any, error) {
			return "__dbt__cte__" + fmt.Sprint(a.Pos...), nil
		}),
	}}
}

// pyReplRe finds Python's \1 / \g<name> group references in a re.sub
// replacement.
var pyReplRe = regexp.MustCompile(`\\(\d+)|\\g<(\w+)>`)

// setOf is Python's set() as templates compare them: the distinct
// values, sorted (two sets are equal when their sorted lists are).
func setOf(a render.Args) (any, error) {
	seen := map[string]bool{}
	out := []any{}
	if len(a.Pos) > 0 {
		items, _ := a.Pos[0].([]any)
		for _, v := range items {
			if k := fmt.Sprint(v); !seen[k] {
				seen[k] = true
				out = append(out, v)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return fmt.Sprint(out[i]) < fmt.Sprint(out[j]) })
	return out, nil
}

// contextModules are dbt's `exceptions` and `modules` (re, datetime's
// now().strftime): the parts dbt packages use. Python regular expressions
// run as Go's RE2, which lacks backreferences and lookaround (an error).
func (rc *renderCtx) contextModules(ctx map[string]any) {
	ctx["set"] = render.Wrap(setOf)
	ctx["set_strict"] = render.Wrap(setOf)
	ctx["zip"] = render.Wrap(func(a render.Args) (any, error) {
		out := []any{}
		for i := 0; ; i++ {
			row := []any{}
			for _, p := range a.Pos {
				l, _ := p.([]any)
				if i >= len(l) {
					return out, nil
				}
				row = append(row, l[i])
			}
			if len(row) == 0 {
				return out, nil
			}
			out = append(out, row)
		}
	})
	// dbt's flags: docket runs no `dbt compile` with a connection, so a
	// render with one is a run
	ctx["flags"] = map[string]any{"WHICH": "run", "FULL_REFRESH": false, "STORE_FAILURES": false, "WARN_ERROR": false}
	if rc.db == nil {
		ctx["flags"].(map[string]any)["WHICH"] = "compile"
	}
	ctx["exceptions"] = map[string]any{
		"raise_compiler_error": render.Wrap(func(a render.Args) (any, error) {
			return nil, &render.UserError{Msg: strings.TrimSpace(fmt.Sprint(a.Pos...))}
		}),
		"warn": render.Wrap(func(a render.Args) (any, error) {
			if rc.m.log != nil {
				rc.m.log("warning: " + strings.TrimSpace(fmt.Sprint(a.Pos...)))
			}
			return "", nil
		}),
		"raise_not_implemented": render.Wrap(func(a render.Args) (any, error) {
			return nil, fmt.Errorf("not implemented: %s", fmt.Sprint(a.Pos...))
		}),
	}
	compile := func(a render.Args) (*regexp.Regexp, error) {
		if len(a.Pos) == 0 {
			return nil, fmt.Errorf("modules.re needs a pattern")
		}
		return regexp.Compile(fmt.Sprint(a.Pos[0]))
	}
	str := func(a render.Args, i int) string {
		if i < len(a.Pos) {
			return fmt.Sprint(a.Pos[i])
		}
		return ""
	}
	re := map[string]any{
		"sub": render.Wrap(func(a render.Args) (any, error) {
			r, err := compile(a)
			if err != nil {
				return nil, err
			}
			repl := pyReplRe.ReplaceAllString(str(a, 1), `$${$1$2}`)
			return r.ReplaceAllString(str(a, 2), repl), nil
		}),
		"search": render.Wrap(func(a render.Args) (any, error) {
			r, err := compile(a)
			if err != nil {
				return nil, err
			}
			if m := r.FindString(str(a, 1)); m != "" || r.MatchString(str(a, 1)) {
				return m, nil
			}
			return nil, nil
		}),
		"match": render.Wrap(func(a render.Args) (any, error) {
			r, err := compile(a)
			if err != nil {
				return nil, err
			}
			s := str(a, 1)
			if loc := r.FindStringIndex(s); loc != nil && loc[0] == 0 {
				return s[loc[0]:loc[1]], nil
			}
			return nil, nil
		}),
		"findall": render.Wrap(func(a render.Args) (any, error) {
			r, err := compile(a)
			if err != nil {
				return nil, err
			}
			out := []any{}
			for _, m := range r.FindAllString(str(a, 1), -1) {
				out = append(out, m)
			}
			return out, nil
		}),
		"escape": render.Wrap(func(a render.Args) (any, error) { return regexp.QuoteMeta(str(a, 0)), nil }),
	}
	now := func() any {
		t := time.Now()
		return map[string]any{
			"strftime": render.Wrap(func(a render.Args) (any, error) { return strftime(t, str(a, 0)), nil }),
			"isoformat": render.Wrap(func(render.Args) (any, error) {
				return t.Format("2006-01-02T15:04:05.000000"), nil
			}),
			"year": t.Year(), "month": int(t.Month()), "day": t.Day(),
		}
	}
	ctx["modules"] = map[string]any{
		"re": re,
		"datetime": map[string]any{"datetime": map[string]any{
			"now":    render.Wrap(func(render.Args) (any, error) { return now(), nil }),
			"utcnow": render.Wrap(func(render.Args) (any, error) { return now(), nil }),
		}},
	}
}

// strftime formats t with Python's common % directives.
func strftime(t time.Time, f string) string {
	r := strings.NewReplacer("%Y", "2006", "%m", "01", "%d", "02", "%H", "15", "%M", "04", "%S", "05",
		"%y", "06", "%b", "Jan", "%B", "January", "%a", "Mon", "%A", "Monday", "%f", "000000", "%%", "%")
	return t.Format(r.Replace(f))
}

package cli

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/docket-dev/docket/loader/internal/runner"
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// show is `docket show` (dbt show): the selected node's compiled SQL (a
// model with its ephemeral parents as CTEs, an analysis, a test), or the
// --inline SQL compiled as dbt's inline_query node, run on a read-only
// connection of the warehouse; the first --limit rows (5, dbt's default;
// a negative limit shows all) are printed as dbt prints them: an agate
// table after "Previewing node 'x':", or with --output json
// {"node": "x", "show": [rows]}. A seed or snapshot shows its relation's
// rows. Nothing is written: not the warehouse (opened read-only), not
// target/.
func (mr *modelRun) show(ctx context.Context, m *runner.Manifest) int {
	f, stderr := mr.f, mr.stderr
	ids, err := mr.showIDs(m)
	if err != nil {
		fmt.Fprintln(stderr, "docket show:", err)
		return ExitUsage
	}
	if _, err := os.Stat(mr.pp.Warehouse); err != nil {
		fmt.Fprintf(stderr, "docket show: there is no warehouse yet (%s): run `docket build` first\n", mr.pp.Warehouse)
		return ExitUsage
	}
	forRun, err := m.ForRun(runner.RunContext{Selected: ids, Args: map[string]any{"which": "show"}})
	if err != nil {
		fmt.Fprintln(stderr, "docket show:", err)
		return ExitUsage
	}
	compiled, code := compileWithWarehouse(ctx, forRun, ids, mr.pp, mr.udfs, stderr)
	if code != ExitOK {
		return code
	}
	db, code := openReaderWith(ctx, mr.pp, mr.udfs, stderr)
	if db == nil {
		return code
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "docket:", err)
		return ExitFailed
	}
	defer conn.Close()
	if err := runner.Attach(ctx, conn, compiled); err != nil {
		fmt.Fprintln(stderr, "docket:", err)
		return ExitFailed
	}
	if err := runner.Settings(ctx, conn, compiled); err != nil {
		fmt.Fprintln(stderr, "docket:", err)
		return ExitFailed
	}
	failed := false
	for _, id := range ids {
		n := compiled.Node(id)
		q, header, err := showSQL(compiled, n)
		if err == nil {
			err = mr.preview(ctx, conn, n, q, header, f.inline != "")
		}
		if err != nil {
			fmt.Fprintf(stderr, "docket show: %s: %s\n", n.Name, termSafeLines(err.Error()))
			failed = true
		}
	}
	if failed {
		return ExitFailed
	}
	return ExitOK
}

// showIDs are the nodes to preview: the inline node, or the selected
// models, seeds, snapshots, analyses and tests (tests only when selected
// themselves). As dbt's show, a selection of several nodes previews those
// its -s arguments name (-s +orders previews orders alone).
func (mr *modelRun) showIDs(m *runner.Manifest) ([]string, error) {
	f := mr.f
	if f.inline != "" {
		if len(f.selects) > 0 || f.selector != "" {
			return nil, fmt.Errorf("--inline and -s/--selector do not go together (dbt's show takes one or the other)")
		}
		return []string{runner.InlineID(m.Name)}, nil
	}
	if len(f.selects) == 0 && f.selector == "" {
		return nil, fmt.Errorf("give -s MODEL or --inline 'SQL' (dbt's show needs one)")
	}
	ids, err := f.choose(m, "empty", mr.stderr, runner.Model, runner.Seed, runner.Snapshot, runner.Analysis, runner.Test)
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("the selection matched no model, seed, snapshot, analysis or test (try `docket ls` with the same -s)")
	}
	if len(ids) == 1 {
		return ids, nil
	}
	var named []string
	for _, id := range ids {
		name := m.Node(id).Name
		for _, s := range f.selects {
			if strings.Trim(s, "+@0123456789") == name {
				named = append(named, id)
				break
			}
		}
	}
	if len(named) > 0 && len(named) < len(ids) {
		fmt.Fprintf(mr.stderr, "docket show: %d other selected node%s not previewed (as dbt's show, only the nodes -s names)\n",
			len(ids)-len(named), modelsPlural(len(ids)-len(named)))
		return named, nil
	}
	return ids, nil
}

// showSQL is the query that previews n and the sql_header to run before
// it (as dbt's show runs a model's).
func showSQL(m *runner.Manifest, n *runner.Node) (q, header string, err error) {
	switch {
	case n.Language == "python":
		return "", "", fmt.Errorf("a Python model is not compiled (docket does not run Python): show its table with `docket sql`")
	case n.ResourceType == runner.Seed || n.ResourceType == runner.Snapshot:
		return "select * from " + n.Relation, "", nil
	case n.CompiledCode == "":
		return "", "", fmt.Errorf("%s has no query to preview", n.ResourceType)
	}
	return n.CompiledCode, n.Config.SQLHeader, nil
}

// showColumn is one previewed column: its name and how dbt's type tester
// would type its values.
type showColumn struct {
	name string
	typ  compiler.AgateType
}

// showTypes are q's columns' DuckDB types as DuckDB binds them (DESCRIBE
// runs nothing); nil when q cannot be described (every column with a value
// is then Text, JSON gives strings).
func showTypes(ctx context.Context, conn *sql.Conn, q string) []string {
	rows, err := conn.QueryContext(ctx, "describe "+q)
	if err != nil {
		return nil
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var name, typ string
		var rest [4]any
		if rows.Scan(&name, &typ, &rest[0], &rest[1], &rest[2], &rest[3]) != nil {
			return nil
		}
		out = append(out, typ)
	}
	return out
}

// preview runs q (after its sql_header) and prints its first rows.
func (mr *modelRun) preview(ctx context.Context, conn *sql.Conn, n *runner.Node, q, header string, inline bool) error {
	if header != "" {
		if _, err := conn.ExecContext(ctx, header); err != nil {
			return fmt.Errorf("sql_header: %w", err)
		}
	}
	inner := strings.TrimRight(strings.TrimSpace(q), "; \t\n")
	dbTypes := showTypes(ctx, conn, inner)
	// A negative limit shows every row, read from the same subquery as any
	// limit, so a statement that is no query (COPY ... TO) is refused either way.
	q = fmt.Sprintf("select * from (\n%s\n)", inner)
	if mr.f.limit >= 0 {
		q += fmt.Sprintf(" limit %d", mr.f.limit)
	}
	typed := pythonShown(dbTypes)
	rows, done, err := queryAsText(ctx, conn, q, typed...)
	defer done()
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, table, err := scanShown(rows, dbTypes, typed)
	if err != nil {
		return err
	}
	if len(dbTypes) != len(cols) {
		dbTypes = make([]string, len(cols)) // unknown: Text
	}
	has := make([]bool, len(cols))
	for _, row := range table {
		for i, v := range row {
			has[i] = has[i] || v != nil
		}
	}
	for i, typ := range compiler.AgateTypes(dbTypes, has) {
		cols[i].typ = typ
	}
	name := n.Name
	if n.Version != "" {
		name += ".v" + n.Version
	}
	if mr.f.output == "json" {
		return writeShowJSON(mr.stdout, name, inline, cols, table)
	}
	if inline {
		fmt.Fprintln(mr.info, "Previewing inline node:")
	} else {
		fmt.Fprintf(mr.info, "Previewing node '%s':\n", name)
	}
	writeAgateTable(mr.stdout, cols, table)
	return nil
}

// writeAgateTable prints rows as dbt show's text output does: agate's
// print_table with max_rows=None (the rows are --limit's already) and
// agate's other defaults, 6 columns and 20 characters a value; booleans as
// Python prints them (True, False).
func writeAgateTable(w io.Writer, cols []showColumn, table [][]*string) {
	agate := make([]compiler.AgateColumn, len(cols))
	for i, c := range cols {
		agate[i] = compiler.AgateColumn{Name: termSafe(c.name), Type: c.typ}
	}
	cells := make([][]*string, len(table))
	for r, row := range table {
		cells[r] = make([]*string, len(row))
		for i, v := range row {
			if v == nil {
				continue
			}
			s := termSafe(*v)
			if cols[i].typ == compiler.AgateBoolean {
				s = strings.ToUpper(s[:min(1, len(s))]) + s[min(1, len(s)):]
			}
			cells[r][i] = &s
		}
	}
	fmt.Fprintln(w, compiler.AgateTable(agate, cells, compiler.AgateLimits{Rows: -1, Columns: 6, Width: 20}))
	fmt.Fprintln(w)
}

// writeShowJSON prints dbt show's --output json: {"node": name, "show":
// [{column: value}]} ({"show": ...} for --inline), numbers and booleans as
// JSON's, other values as DuckDB prints them, NULL as null.
func writeShowJSON(w io.Writer, name string, inline bool, cols []showColumn, table [][]*string) error {
	rows := make([]json.RawMessage, 0, len(table))
	for _, row := range table {
		var b strings.Builder
		b.WriteString("{")
		for i, v := range row {
			if i > 0 {
				b.WriteString(", ")
			}
			k, _ := json.Marshal(cols[i].name)
			b.Write(k)
			b.WriteString(": ")
			switch {
			case v == nil:
				b.WriteString("null")
			case (cols[i].typ == compiler.AgateBoolean || cols[i].typ == compiler.AgateInteger || cols[i].typ == compiler.AgateNumber) && json.Valid([]byte(*v)):
				b.WriteString(*v)
			default:
				s, _ := json.Marshal(*v)
				b.Write(s)
			}
		}
		b.WriteString("}")
		rows = append(rows, json.RawMessage(b.String()))
	}
	doc := map[string]any{"show": rows}
	if !inline {
		doc["node"] = name
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	fmt.Fprintln(w, string(out))
	return nil
}

// pythonShown are the columns (1-based) whose DuckDB text is not str() of
// the Python value dbt's agate table holds: an INTERVAL (1 day vs
// "1 day, 0:00:00"), a BLOB, a LIST, STRUCT or MAP (json.dumps text), a
// TIME or TIMESTAMP with a fraction (.5 vs .500000) or a time zone (+00 vs
// +00:00). They are read once more as typed values and printed through
// compiler.PythonText, the mapping run_query uses.
func pythonShown(dbTypes []string) []int {
	var out []int
	for i, t := range dbTypes {
		u := strings.ToUpper(t)
		switch {
		case u == "INTERVAL", u == "BLOB", strings.HasSuffix(u, "]"),
			strings.HasPrefix(u, "STRUCT("), strings.HasPrefix(u, "MAP("),
			strings.HasPrefix(u, "TIME"): // TIME, TIMETZ, TIMESTAMP, _S, _MS, _NS, WITH TIME ZONE
			out = append(out, i+1)
		}
	}
	return out
}

// scanShown reads show's rows as text: each column's DuckDB text, and
// for the typed columns (trailing, one each) str() of the Python value.
func scanShown(rows *sql.Rows, dbTypes []string, typed []int) ([]showColumn, [][]*string, error) {
	names, err := rows.Columns()
	if err != nil {
		return nil, nil, err
	}
	n := len(names) - len(typed)
	if len(typed) == 0 || n != len(dbTypes) {
		n, typed = len(names), nil // the statement ran as written: no typed columns
	}
	cols := make([]showColumn, n)
	for i := range cols {
		cols[i].name = names[i]
	}
	var table [][]*string
	for rows.Next() {
		row := make([]*string, n)
		raw := make([]any, len(typed))
		ptrs := make([]any, n+len(typed))
		for i := range row {
			ptrs[i] = &row[i]
		}
		for i := range raw {
			ptrs[n+i] = &raw[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, nil, err
		}
		for k, c := range typed {
			if s, ok := compiler.PythonText(raw[k], dbTypes[c-1]); ok && row[c-1] != nil {
				row[c-1] = &s
			}
		}
		table = append(table, row)
	}
	return cols, table, rows.Err()
}

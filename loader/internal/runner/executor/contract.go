package executor

import (
	"fmt"
	"sort"
	"strings"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// checkContract enforces a model's contract ({enforced: true}) as dbt
// does before it builds: every column the YAML declares has a data_type,
// and the model's SQL returns exactly those columns with types of the
// declared kind (names case-insensitive; types as DuckDB resolves both,
// so `int` and INTEGER agree), with the model's sql_header run first.
// The kind is what dbt-duckdb compares (contractKind): a column the SQL
// gives as INTEGER holds a contract's BIGINT there, and a table is
// built with the declared types, the values cast (x.contractCast); a
// cast that may change values, or a view that keeps the SQL's other
// type, is a warning at the contract's line.
func (x *nodeExec) checkContract(body string) error {
	n := x.n
	if on, _ := n.Contract["enforced"].(bool); !on || n.ResourceType != compiler.Model {
		return nil
	}
	// the describe reads what the create will: a temp macro or SET of the
	// model's sql_header must be there first (dbt-duckdb issue #515)
	if err := x.sqlHeader(); err != nil {
		return err
	}
	rows, err := x.c.QueryContext(x.ctx, "describe select * from (\n"+sqlBody(body)+"\n) as dbt_contract")
	if err != nil {
		return x.sqlErr(err, body, 0)
	}
	got := map[string]string{}
	var order []string
	for rows.Next() {
		var name, typ string
		var null, key, def, extra any
		if err := rows.Scan(&name, &typ, &null, &key, &def, &extra); err != nil {
			rows.Close()
			return err
		}
		got[strings.ToLower(name)] = typ
		order = append(order, name)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	var problems []string
	declared := map[string]bool{}
	for _, name := range compiler.SortedKeys(n.Columns) {
		c := n.Columns[name]
		declared[strings.ToLower(name)] = true
		if c.DataType == "" {
			problems = append(problems, fmt.Sprintf("column %s has no data_type in the YAML", name))
			continue
		}
		want, err := x.resolveType(c.DataType)
		if err != nil {
			problems = append(problems, fmt.Sprintf("column %s: data_type %q is not a DuckDB type", name, c.DataType))
			continue
		}
		have, ok := got[strings.ToLower(name)]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("column %s (%s) is declared but the SQL does not return it", name, want))
		case strings.EqualFold(have, want) || floatEither(c.DataType, have):
		case contractKind(have) == contractKind(want):
			path, line := x.m.ConfigWhere(n, "contract")
			switch mat := n.Config.Materialized; {
			case mat == "table" || mat == "incremental":
				x.contractCast = true
				if !castKeeps(have, want) {
					x.r.Warnings = append(x.r.Warnings, fmt.Sprintf("%s:%d: contract of %s: column %s is %s in the SQL, the contract says %s: the table is built %s and the values cast, which may change them (dbt-duckdb compares only the kind of type, %s, and casts the same way)",
						path, line, n.Name, name, have, want, want, contractKind(want)))
				}
			default:
				x.r.Warnings = append(x.r.Warnings, fmt.Sprintf("%s:%d: contract of %s: column %s is %s in the SQL, the contract says %s: a %s keeps the SQL's type (dbt-duckdb compares only the kind of type, %s)",
					path, line, n.Name, name, have, want, mat, contractKind(want)))
			}
		default:
			problems = append(problems, fmt.Sprintf("column %s is %s, the contract says %s", name, have, want))
		}
	}
	for _, name := range order {
		if !declared[strings.ToLower(name)] {
			problems = append(problems, fmt.Sprintf("column %s (%s) is returned but not declared", name, got[strings.ToLower(name)]))
		}
	}
	if len(problems) == 0 {
		return nil
	}
	sort.Strings(problems)
	return &compiler.DiagnosticError{D: compiler.Diagnostic{Path: n.Path, Line: 1, Col: 1, Msg: "this model has an enforced contract that failed: " + strings.Join(problems, "; ")}}
}

// resolveType is a declared data_type as DuckDB names it.
func (x *nodeExec) resolveType(t string) (string, error) {
	var out string
	err := x.c.QueryRowContext(x.ctx, "select typeof(cast(null as "+t+"))").Scan(&out)
	return out, err
}

// floatEither: a contract's bare `float` accepts a 4- or 8-byte float. A
// seed's `column_types: float` is DOUBLE (compiler.SeedColumnType, as on
// the warehouses dbt projects are written for) while `float` in DuckDB
// SQL is REAL, so a contract written `float` over either one holds, as it
// does under dbt-duckdb, where both are REAL.
func floatEither(declared, have string) bool {
	return strings.EqualFold(strings.TrimSpace(declared), "float") && (strings.EqualFold(have, "FLOAT") || strings.EqualFold(have, "DOUBLE"))
}

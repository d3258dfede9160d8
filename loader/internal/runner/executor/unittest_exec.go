package executor

import (
	"fmt"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// unitTest runs a dbt unit test as dbt-core does: the model's SQL
// rendered with each given input replaced by a CTE of its fixture rows
// (each value cast to the input column's type, columns a row leaves out
// null), and its output compared with the expected rows (cast to the
// output's types) on the columns the expected rows name. The rows that
// differ are the failures: "+" returned but not expected, "-" expected
// but not returned.
func (x *nodeExec) unitTest() error {
	u, n := x.n.Unit, x.n
	t0 := time.Now()
	if x.unitUpToDate() {
		x.markUpToDate()
		return nil
	}
	fail := func(format string, a ...any) error {
		return &compiler.DiagnosticError{D: compiler.Diagnostic{Path: n.Path, Line: n.Pos.Line, Col: n.Pos.Col,
			Msg: fmt.Sprintf("unit test %s: ", n.Name) + fmt.Sprintf(format, a...)}}
	}
	actual, err := x.m.UnitTestSQL(x.ctx, sqlQuerier{x.c}, n)
	if err != nil {
		return fail("%v", err)
	}
	x.r.CompiledCode = actual
	outCols, err := x.describeQuery(actual)
	if err != nil {
		return fail("the model's SQL on the fixtures: %s", compiler.FirstLine(err.Error()))
	}
	expected := u.Expect.SQL
	names := u.Expect.Columns()
	if u.Expect.Format == "sql" {
		ec, err := x.describeQuery(expected)
		if err != nil {
			return fail("expect: %s", compiler.FirstLine(err.Error()))
		}
		names = names[:0]
		for _, c := range ec {
			names = append(names, strings.ToLower(c.Name))
		}
	}
	byName := map[string]compiler.ColType{}
	var accepted []string
	for _, c := range outCols {
		byName[strings.ToLower(c.Name)] = c
		accepted = append(accepted, c.Name)
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
	var cmpCols []compiler.ColType
	for _, c := range outCols {
		if named[strings.ToLower(c.Name)] || len(named) == 0 {
			cmpCols = append(cmpCols, c)
		}
	}
	if u.Expect.Format != "sql" {
		if expected, err = compiler.FixtureSQL(u.Expect.Rows, cmpCols); err != nil {
			return fail("expect: %v", err)
		}
	}
	var list []string
	for _, c := range cmpCols {
		list = append(list, compiler.Quote(c.Name))
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
		return fail("%s", compiler.FirstLine(err.Error()))
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

// unitUpToDate: in build, a unit test that last passed is not run again
// while its model's code and inputs (whose versions stand for their
// Columns' types) and its own entry are unchanged.
func (x *nodeExec) unitUpToDate() bool {
	st, u := x.st, x.n.Unit
	if st == nil {
		return false
	}
	x.fp = st.fingerprint(x.m, u.ModelNode, compiler.UnitTest, x.n.UniqueID, u.Raw)
	if x.fp == "" || x.force || st.command != "build" {
		return false
	}
	st.mu.Lock()
	prev, ok := st.prev[x.n.UniqueID]
	st.mu.Unlock()
	return ok && prev.fingerprint == x.fp && prev.status == StatusPass
}

// describeQuery returns the columns a query returns, with DuckDB's types.
func (x *nodeExec) describeQuery(q string) ([]compiler.ColType, error) {
	return compiler.DescribeWith(x.ctx, sqlQuerier{x.c}, q)
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

package executor

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// external builds a model as dbt-duckdb's external materialization: the
// model into a temporary table, COPY of that table to the file, then the
// model's view over the file (read_parquet / read_csv / read_json, readers
// every DuckDB client has built in).
func (x *nodeExec) external(body, existing string) error {
	n, ext := x.n, x.n.Config.External
	if ext == nil {
		return fmt.Errorf("external model %s has no location", n.Name)
	}
	tmp := compiler.Relation(n.Schema, n.Alias+"__dbt_tmp")
	if _, err := x.exec("drop table if exists " + tmp); err != nil {
		return err
	}
	defer x.exec("drop table if exists " + tmp)
	prefix := "create table " + tmp + " as\n"
	stmt := prefix + sqlBody(body)
	if _, err := x.exec(stmt); err != nil {
		return x.sqlErr(err, stmt, 1)
	}
	rows, err := x.count(tmp)
	if err != nil {
		return err
	}
	dir := ext.Path
	if !ext.Partitioned {
		dir = filepath.Dir(ext.Path)
	}
	if err := os.MkdirAll(filepath.FromSlash(dir), 0o755); err != nil {
		return fmt.Errorf("external model %s: %v", n.Name, err)
	}
	copyStmt := fmt.Sprintf("copy %s to '%s' (%s)", tmp, strings.ReplaceAll(ext.Path, "'", "''"), ext.CopyOptions)
	if _, err := x.exec(copyStmt); err != nil {
		return fmt.Errorf("external model %s: writing %s: %s", n.Name, ext.Path, compiler.FirstLine(err.Error()))
	}
	if err := x.view("select * from "+ext.ReadFrom, existing); err != nil {
		return err
	}
	msg := fmt.Sprintf("COPY %d to %s", rows, ext.Path)
	x.r.AdapterResponse = AdapterResponse{Message: msg, RowsAffected: rows}
	x.r.Message = msg
	return nil
}

// tableFunction builds a model as dbt-duckdb's table_function: a DuckDB
// table macro (create or replace function ... as table), read as
// {{ ref('m') }}(args). Like a view it may not call a Go UDF.
func (x *nodeExec) tableFunction(body string) error {
	n := x.n
	if call := udfCalledParsed(x.ctx, x.m, x.c, body); call.name != "" {
		return &compiler.DiagnosticError{D: compiler.Diagnostic{Path: n.Path, Line: 1, Col: 1,
			Msg: fmt.Sprintf("table function %s calls Go UDF %s(), which only exists inside docket: a table function must work in any DuckDB client", n.Relation, call.name)}}
	}
	var params []string
	if n.Config.TableFunction != nil {
		params = n.Config.TableFunction.Parameters
	}
	prefix := "create or replace function " + n.Relation + "(" + strings.Join(params, ", ") + ") as table (\n"
	stmt := prefix + sqlBody(body) + "\n)"
	if _, err := x.exec(stmt); err != nil {
		return x.sqlErr(err, stmt, 1)
	}
	x.r.AdapterResponse = AdapterResponse{Message: "CREATE MACRO"}
	x.r.Message = "CREATE MACRO"
	return nil
}

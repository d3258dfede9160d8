package executor

import (
	"fmt"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// view creates or replaces the model's view (a view may not call a Go
// UDF: notebooks reading it would break).
func (x *nodeExec) view(body, existing string) error {
	n := x.n
	if call := udfCalledParsed(x.ctx, x.m, x.c, body); call.name != "" {
		d := compiler.Diagnostic{Path: n.Path, Line: 1, Col: 1}
		if call.offset >= 0 {
			// the position is in the compiled SQL
			p := compiler.OffsetPos(body, call.offset)
			d.Path, d.Line, d.Col = x.compiledPath(), p.Line, p.Col
		}
		d.Msg = fmt.Sprintf("view %s calls Go UDF %s(), which only exists inside docket: a view must work in any DuckDB client; materialize this model as a table (config(materialized='table')) or compute it in an upstream table",
			n.Relation, call.name)
		return &compiler.DiagnosticError{D: d}
	}
	prefix := "create or replace view " + n.Relation + " as\n"
	stmt := prefix + sqlBody(body)
	if existing == "BASE TABLE" {
		if _, err := x.exec("begin"); err != nil {
			return err
		}
		if _, err := x.exec("drop table " + n.Relation); err != nil {
			x.exec("rollback")
			return err
		}
		if _, err := x.exec(stmt); err != nil {
			x.exec("rollback")
			return x.sqlErr(err, stmt, 1)
		}
		if _, err := x.exec("commit"); err != nil {
			return err
		}
	} else if _, err := x.exec(stmt); err != nil {
		return x.sqlErr(err, stmt, 1)
	}
	x.r.AdapterResponse = AdapterResponse{Message: "CREATE VIEW"}
	x.r.Message = "CREATE VIEW"
	return nil
}

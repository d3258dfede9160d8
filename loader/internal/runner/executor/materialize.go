package executor

import (
	"fmt"
	"time"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

func (x *nodeExec) model() error {
	n := x.n
	t0 := time.Now()
	existing, err := x.relationType(n.Schema, n.Alias)
	if err != nil {
		return err
	}
	full := x.full && (n.Config.FullRefresh == nil || *n.Config.FullRefresh) // full_refresh: false wins over --full-refresh
	if x.upToDate(existing, x.full) {                                        // --full-refresh runs full_refresh: false models too (incrementally)
		x.timing("compile", t0)
		x.markUpToDate()
		return nil
	}
	incremental := n.Config.Materialized == "incremental" && existing == "BASE TABLE" && !full
	body, err := x.compile(incremental)
	x.timing("compile", t0)
	if err != nil {
		return err
	}
	x.r.CompiledCode = body
	t1 := time.Now()
	defer x.timing("execute", t1)
	if err := x.checkContract(body); err != nil {
		return err
	}
	if err := x.hooks(n.Config.PreHook, incremental); err != nil {
		return err
	}
	switch n.Config.Materialized {
	case "view":
		if err := x.view(body, existing); err != nil {
			return err
		}
	case "table":
		if err := x.table(body, existing); err != nil {
			return err
		}
	case "incremental":
		if incremental {
			err = x.incremental(body)
		} else {
			err = x.table(body, existing)
		}
		if err != nil {
			return err
		}
	default:
		return fmt.Errorf("materialization %q cannot be run", n.Config.Materialized)
	}
	if err := x.hooks(n.Config.PostHook, incremental); err != nil {
		return err
	}
	x.r.Status = StatusSuccess
	return nil
}

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

// swap renames tmp to the node's name in one transaction, dropping the
// previous relation.
func (x *nodeExec) swap(tmp, existing string) error {
	n := x.n
	steps := []string{"begin"}
	switch existing {
	case "BASE TABLE":
		steps = append(steps, "drop table "+n.Relation)
	case "VIEW":
		steps = append(steps, "drop view "+n.Relation)
	}
	steps = append(steps, "alter table "+compiler.Relation(n.Schema, tmp)+" rename to "+compiler.Quote(n.Alias), "record", "commit")
	for _, s := range steps {
		var err error
		if s == "record" {
			err = x.recordInTxn(true)
		} else {
			_, err = x.exec(s)
		}
		if err != nil {
			x.exec("rollback")
			x.exec("drop table if exists " + compiler.Relation(n.Schema, tmp))
			return fmt.Errorf("swap %s into place: %s", n.Relation, compiler.FirstLine(err.Error()))
		}
	}
	return nil
}

func (x *nodeExec) table(body, existing string) error {
	n := x.n
	tmp := n.Alias + "__dbt_tmp"
	if _, err := x.exec("drop table if exists " + compiler.Relation(n.Schema, tmp)); err != nil {
		return err
	}
	if n.HasConstraints() {
		if err := x.constrainedTable(tmp, body); err != nil {
			return err
		}
	} else {
		prefix := "create table " + compiler.Relation(n.Schema, tmp) + " as\n"
		stmt := prefix + sqlBody(body)
		if _, err := x.exec(stmt); err != nil {
			x.exec("drop table if exists " + compiler.Relation(n.Schema, tmp))
			return x.sqlErr(err, stmt, 1)
		}
	}
	rows, err := x.count(compiler.Relation(n.Schema, tmp))
	if err != nil {
		return err
	}
	if err := x.swap(tmp, existing); err != nil {
		return err
	}
	x.r.AdapterResponse = AdapterResponse{Message: fmt.Sprintf("CREATE TABLE %d", rows), RowsAffected: rows}
	x.r.Message = x.r.AdapterResponse.Message
	return nil
}

package executor

import (
	"fmt"
	"strings"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// sqlHeader runs the node's sql_header config on the node's connection
// just before the statement that creates its relation, as dbt-duckdb
// emits it before its create table/view (a SET, a temp macro, ...).
func (x *nodeExec) sqlHeader() error {
	h := strings.TrimSpace(x.n.Config.SQLHeader)
	if h == "" {
		return nil
	}
	if _, err := x.exec(h); err != nil {
		n := x.n
		return &compiler.DiagnosticError{D: compiler.Diagnostic{Path: n.Path, Line: n.ConfigPos.Line, Col: n.ConfigPos.Col,
			Msg: "sql_header: " + compiler.FirstLine(err.Error())}}
	}
	return nil
}

// persistDocs writes the node's descriptions as DuckDB comments when its
// persist_docs config asks, as dbt-duckdb does: COMMENT ON TABLE or VIEW
// with the description (relation: true), and COMMENT ON COLUMN for each
// documented column the relation has (columns: true).
func (x *nodeExec) persistDocs() error {
	n, pd := x.n, x.n.Config.PersistDocs
	if pd == nil {
		return nil
	}
	stmts, err := x.docComments(pd)
	if err != nil {
		return err
	}
	for _, s := range stmts {
		if _, err := x.exec(s); err != nil {
			return fmt.Errorf("persist_docs on %s: %s", n.Relation, compiler.FirstLine(err.Error()))
		}
	}
	return nil
}

// docComments are the COMMENT statements of persistDocs.
func (x *nodeExec) docComments(pd *compiler.PersistDocs) ([]string, error) {
	n := x.n
	var out []string
	if pd.Relation && n.Description != "" {
		kind := "table"
		if n.Config.Materialized == "view" {
			kind = "view"
		}
		out = append(out, "comment on "+kind+" "+n.Relation+" is "+sqlString(n.Description))
	}
	if !pd.Columns || len(n.Columns) == 0 {
		return out, nil
	}
	cols, err := x.columns(n.Relation)
	if err != nil {
		return nil, err
	}
	have := map[string]string{} // DuckDB's names are case-insensitive
	for _, c := range cols {
		have[strings.ToLower(c.name)] = c.name
	}
	for _, c := range n.Columns {
		if name, ok := have[strings.ToLower(c.Name)]; ok {
			out = append(out, "comment on column "+n.Relation+"."+compiler.Quote(name)+" is "+sqlString(c.Description))
		}
	}
	return out, nil
}

// sqlString is s as a SQL string literal.
func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

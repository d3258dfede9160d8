package warehouse

import (
	"database/sql"
	"database/sql/driver"
	"strings"

	"github.com/duckdb/duckdb-go/v2"
)

// col is one column of a landed table, declared once: its position in
// the table's column list is its position in the DDL, in the appender's
// rows and in a shard's Parquet files.
type col[R any] struct {
	name string
	typ  string // DuckDB type
	// extra follows the type in the DDL: "not null", "primary key",
	// "generated always as (...) virtual", a default.
	extra string
	// val gives the column's value from a row the loader lands; nil for
	// columns the writer sets when it merges a batch (run ids, landing
	// times, attempts) or that DuckDB computes (generated).
	val func(R) any
}

// table is a landed table declared once.
type table[R any] struct {
	schema, name string
	cols         []col[R]
	keys         string // table constraint after the columns ("primary key (a, b)"); "" for none
}

// decl is what every landed table offers whatever its row type.
type decl interface {
	qualified() string
	parts() (schema, name string)
	createSQL() string
	// rowCols are the columns a batch carries (those with a value from
	// the landed row), in order.
	rowCols() []string
	// batchSQL creates the table a batch of rows is staged in: the row
	// columns with their types, no constraints.
	batchSQL(name string) string
}

func (t *table[R]) qualified() string { return t.schema + "." + t.name }

func (t *table[R]) parts() (string, string) { return t.schema, t.name }

func (t *table[R]) createSQL() string {
	var b strings.Builder
	b.WriteString("create table if not exists " + t.qualified() + " (\n")
	for i, c := range t.cols {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString("\t" + c.name + " " + c.typ)
		if c.extra != "" {
			b.WriteString(" " + c.extra)
		}
	}
	if t.keys != "" {
		b.WriteString(",\n\t" + t.keys)
	}
	b.WriteString("\n)")
	return b.String()
}

func (t *table[R]) rowCols() []string {
	var out []string
	for _, c := range t.cols {
		if c.val != nil {
			out = append(out, c.name)
		}
	}
	return out
}

func (t *table[R]) batchSQL(name string) string {
	var parts []string
	for _, c := range t.cols {
		if c.val != nil {
			parts = append(parts, c.name+" "+c.typ)
		}
	}
	return "create or replace table " + name + " (" + strings.Join(parts, ", ") + ")"
}

// appendTo appends rows to catalog.schema.name through DuckDB's appender,
// each row the values of the columns that have one, in declared order:
// the target is the table itself when every column has a value, or a
// batch table made by batchSQL. extra columns follow the declared ones.
func (t *table[R]) appendTo(c *sql.Conn, schema, name string, rows []R, extra ...func(R) any) error {
	var vals []func(R) any
	for _, col := range t.cols {
		if col.val != nil {
			vals = append(vals, col.val)
		}
	}
	vals = append(vals, extra...)
	return withAppender(c, schema, name, func(a *duckdb.Appender) error {
		row := make([]driver.Value, len(vals))
		for _, r := range rows {
			for i, v := range vals {
				row[i] = v(r)
			}
			if err := a.AppendRow(row...); err != nil {
				return err
			}
		}
		return nil
	})
}

// columnList joins column names for SQL.
func columnList(cols []string) string { return strings.Join(cols, ", ") }

package executor

import (
	"context"
	"database/sql"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// Database is what Execute needs from the warehouse: connections that
// have the Go UDFs registered. Each thread of the scheduler holds one.
type Database interface {
	Conn(ctx context.Context) (*sql.Conn, error)
}

// sqlQuerier is the Querier of a connection or a pool.
type sqlQuerier struct{ c QueryExecer }

// QueryExecer is what *sql.Conn and *sql.DB have in common here.
type QueryExecer interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
	ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error)
}

func (s sqlQuerier) Exec(ctx context.Context, q string) error {
	_, err := s.c.ExecContext(ctx, catalogInfoSchema(ctx, s.c, q))
	return err
}

func (s sqlQuerier) Query(ctx context.Context, q string, args ...any) ([]string, [][]any, error) {
	return s.rows(ctx, catalogInfoSchema(ctx, s.c, q), args...)
}

// QueryTyped is Query with each column's DuckDB type (DATE, TIME, ...).
func (s sqlQuerier) QueryTyped(ctx context.Context, q string) ([]string, []string, [][]any, error) {
	return s.typedRows(ctx, catalogInfoSchema(ctx, s.c, q))
}

// rows runs q as written.
func (s sqlQuerier) rows(ctx context.Context, q string, args ...any) ([]string, [][]any, error) {
	cols, _, rows, err := s.typedRows(ctx, q, args...)
	return cols, rows, err
}

// typedRows runs q as written: its columns, their types and its rows.
func (s sqlQuerier) typedRows(ctx context.Context, q string, args ...any) ([]string, []string, [][]any, error) {
	rows, err := s.c.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, nil, nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, nil, nil, err
	}
	cts, err := rows.ColumnTypes()
	if err != nil {
		return nil, nil, nil, err
	}
	types := make([]string, len(cts))
	for i, ct := range cts {
		types[i] = ct.DatabaseTypeName()
	}
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, nil, nil, err
		}
		out = append(out, vals)
	}
	return cols, types, out, rows.Err()
}

// SQLQuerier is the Querier of a connection or a pool (`docket compile`'s
// CompileWith, CheckFreshness).
func SQLQuerier(c QueryExecer) compiler.Querier { return sqlQuerier{c} }

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

// rows runs q as written.
func (s sqlQuerier) rows(ctx context.Context, q string, args ...any) ([]string, [][]any, error) {
	rows, err := s.c.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, nil, err
	}
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, nil, err
		}
		out = append(out, vals)
	}
	return cols, out, rows.Err()
}

// SQLQuerier is the Querier of a connection or a pool (`docket compile`'s
// CompileWith, CheckFreshness).
func SQLQuerier(c QueryExecer) compiler.Querier { return sqlQuerier{c} }

package runner

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// The runner links no database driver: the executor reaches the
// warehouse through Database (which *warehouse.DB implements) and knows
// the Go UDFs only by their declarations. TestNoDatabaseDriverLinked
// checks that DuckDB stays out of this package's imports.

// Database is what Execute needs from the warehouse: connections that
// have the Go UDFs registered. Each thread of the scheduler holds one.
type Database interface {
	Conn(ctx context.Context) (*sql.Conn, error)
}

// Function declares one Go UDF the warehouse registers (the declaration
// of warehouse.UDF, without its Go code): the runner keeps it out of
// views, lists it in manifest.json and fingerprints nodes with it.
type Function struct {
	Name     string
	Params   []string
	Result   string
	Version  string
	Doc      string
	Volatile bool
}

// Signature renders "name(T, T) -> R".
func (f Function) Signature() string {
	return fmt.Sprintf("%s(%s) -> %s", f.Name, strings.Join(f.Params, ", "), f.Result)
}

// sqlQuerier is the Querier of a connection or a pool.
type sqlQuerier struct{ c QueryExecer }

// QueryExecer is what *sql.Conn and *sql.DB have in common here.
type QueryExecer interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
	ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error)
}

func (s sqlQuerier) Exec(ctx context.Context, q string) error {
	_, err := s.c.ExecContext(ctx, q)
	return err
}

func (s sqlQuerier) Query(ctx context.Context, q string, args ...any) ([]string, [][]any, error) {
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
func SQLQuerier(c QueryExecer) Querier { return sqlQuerier{c} }

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

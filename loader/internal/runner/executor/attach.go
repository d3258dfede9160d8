package executor

import (
	"context"
	"fmt"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// Attach attaches the target's profiles.yml attach: databases (dbt-duckdb's)
// on c, so that sources with database: <alias> and SQL naming the alias
// read them. An ATTACH holds for the whole DuckDB instance (every
// connection of the run sees it) and is never written into the warehouse
// file: a view reading an attached database is warned at parse (the
// compiler's attachedViews), as a plain client opening the file lacks it.
// A failing ATTACH is an error at its profiles.yml line.
func Attach(ctx context.Context, c QueryExecer, m *compiler.Manifest) error {
	if m.Project == nil {
		return nil
	}
	for _, a := range m.Project.Target.Attach {
		if _, err := c.ExecContext(ctx, a.SQL()); err != nil {
			return fmt.Errorf("%s:%d: attach %s as %s: %w", a.File, a.Line, a.Path, a.Alias, err)
		}
	}
	return nil
}

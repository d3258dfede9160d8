package executor

import (
	"context"
	"fmt"
	"strings"

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

// Settings runs the target's profiles.yml settings: on c as dbt-duckdb
// runs them on every cursor (SET name = 'value', project.Setting), after
// docket's own memory_limit, so the profile's is the one in effect. A
// setting docket's DuckDB does not have (an extension's) is left out:
// UnknownSettings names those for a warning. A value DuckDB refuses is an
// error at its profiles.yml line, as dbt-duckdb's run stops there.
func Settings(ctx context.Context, c QueryExecer, m *compiler.Manifest) error {
	if m.Project == nil || len(m.Project.Target.Settings) == 0 {
		return nil
	}
	known, err := duckdbSettings(ctx, c)
	if err != nil {
		return err
	}
	return applySettings(ctx, c, m, known)
}

// applySettings is Settings with DuckDB's setting names read already
// (a run reads them once for all its connections).
func applySettings(ctx context.Context, c QueryExecer, m *compiler.Manifest, known map[string]bool) error {
	for _, s := range m.Project.Target.Settings {
		if !known[strings.ToLower(s.Name)] {
			continue
		}
		if _, err := c.ExecContext(ctx, s.SQL()); err != nil {
			return fmt.Errorf("%s:%d:1: setting %s = '%s': %w", m.RelPath(s.File), s.Line, s.Name, s.Value, err)
		}
	}
	return nil
}

// UnknownSettings are the target's settings docket's DuckDB has no such
// setting for (duckdb_settings()), as warnings at their lines: an
// extension's (httpfs's s3_region, ...), which docket does not load.
func UnknownSettings(ctx context.Context, c QueryExecer, m *compiler.Manifest) ([]string, error) {
	if m.Project == nil || len(m.Project.Target.Settings) == 0 {
		return nil, nil
	}
	known, err := duckdbSettings(ctx, c)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, s := range m.Project.Target.Settings {
		if !known[strings.ToLower(s.Name)] {
			out = append(out, fmt.Sprintf("%s:%d:1: setting %s of output %q (profile %q) is read but not applied: docket's DuckDB has no such setting "+
				"(an extension's? docket loads none beyond parquet, json and icu)", m.RelPath(s.File), s.Line, s.Name, m.Project.Target.Name, m.Project.Target.ProfileName))
		}
	}
	return out, nil
}

// duckdbSettings are the names (lower case) of DuckDB's settings.
func duckdbSettings(ctx context.Context, c QueryExecer) (map[string]bool, error) {
	rows, err := c.QueryContext(ctx, "select lower(name) from duckdb_settings()")
	if err != nil {
		return nil, fmt.Errorf("runner: duckdb_settings(): %w", err)
	}
	defer rows.Close()
	known := map[string]bool{}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		known[n] = true
	}
	return known, rows.Err()
}

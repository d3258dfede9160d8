package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSQLPrintsValuesAsDuckDB: docket sql prints each value as DuckDB's own
// CLI does. It printed the Go driver's values with Go's formatting: a DATE
// as "2024-01-31 00:00:00 +0000 UTC", an INTERVAL as "{3 0 0}", a list as
// "[1 2]", a struct as "map[a:1]", a DECIMAL(4,2) 1.50 as "1.5". A statement
// that is not a query still runs (SHOW TABLES), and an error is the
// query's own.
func TestSQLPrintsValuesAsDuckDB(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"dbt_project.yml": "name: sf\nversion: '1'\nconfig-version: 2\nprofile: p\n",
		"profiles.yml":    "p:\n  target: dev\n  outputs:\n    dev: {type: duckdb, path: sf.duckdb, schema: main}\n",
		"models/a.sql":    "{{ config(materialized='table') }} select 1 as id",
	}
	for f, b := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755)
		os.WriteFile(filepath.Join(dir, f), []byte(b), 0o644)
	}
	must(t, dir, "build")
	got := query(t, dir, "select date '2024-01-31' as d, interval 3 day as i, time '10:11:12' as t, "+
		"timestamp '2024-01-01 10:00:00.5' as ts, 1.5::decimal(4,2) as dec, [1, 2] as l, {'a': 1} as s, null as n;")
	if want := "2024-01-31  3 days  10:11:12  2024-01-01 10:00:00.5  1.50  [1, 2]  {'a': 1}  NULL"; len(got) != 1 || strings.Join(strings.Fields(got[0]), " ") != strings.Join(strings.Fields(want), " ") {
		t.Errorf("docket sql printed %q, want %q", got, want)
	}
	if out := must(t, dir, "sql", "show tables"); !strings.Contains(out, "a") {
		t.Errorf("show tables:\n%s", out)
	}
	if out, code := run(t, dir, "sql", "selec 1"); code == 0 || !strings.Contains(out, `syntax error at or near "selec"`) {
		t.Errorf("a bad query: exit %d\n%s", code, out)
	}
}

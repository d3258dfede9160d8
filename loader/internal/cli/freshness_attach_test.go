package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSourceFreshnessOfAnAttachedSource: a source with database: <alias
// of profiles.yml's attach:> is checked where build reads it. source
// freshness opened the warehouse without the profile's ATTACH, so every
// such source was an error ("Catalog lake does not exist"), on a real
// dbt-duckdb project whose raw tables live in an attached lakehouse.
func TestSourceFreshnessOfAnAttachedSource(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"dbt_project.yml": "name: fa\nversion: '1'\nconfig-version: 2\nprofile: p\n",
		"profiles.yml":    "p:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n      path: fa.duckdb\n      attach:\n        - path: lake.duckdb\n          alias: lake\n",
		"models/sources.yml": "version: 2\nsources:\n  - name: raw\n    database: lake\n    schema: raw\n    loaded_at_field: loaded_at\n" +
			"    freshness:\n      error_after: {count: 1, period: day}\n    tables:\n      - name: events\n",
		"macros/land.sql": "{% macro land() %}{% do run_query('create schema if not exists lake.raw') %}" +
			"{% do run_query('create or replace table lake.raw.events as select now() - interval 1 hour as loaded_at') %}{% endmacro %}\n",
	}
	for f, b := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755)
		os.WriteFile(filepath.Join(dir, f), []byte(b), 0o644)
	}
	must(t, dir, "run-operation", "land")
	out, code := run(t, dir, "source", "freshness")
	if code != 0 || !strings.Contains(out, "PASS freshness of raw.events") {
		t.Errorf("a source in the attached lake loaded an hour ago passes (exit 0), got %d:\n%s", code, out)
	}
}

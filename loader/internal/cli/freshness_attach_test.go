package cli_test

import (
	"encoding/json"
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
	dir := attachedSourceProject(t)
	out, code := run(t, dir, "source", "freshness")
	if code != 0 || !strings.Contains(out, "PASS freshness of raw.events") {
		t.Errorf("a source in the attached lake loaded an hour ago passes (exit 0), got %d:\n%s", code, out)
	}
}

// TestDocsCatalogOfAnAttachedSource: docs generate describes a source in
// an attached database in catalog.json (its columns and rows, database
// the alias); it listed it under errors as "not in the warehouse".
func TestDocsCatalogOfAnAttachedSource(t *testing.T) {
	dir := attachedSourceProject(t)
	must(t, dir, "docs", "generate", "--no-images")
	b, err := os.ReadFile(filepath.Join(dir, "target", "catalog.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cat struct {
		Sources map[string]struct {
			Metadata struct{ Database, Schema, Name string }
			Columns  map[string]any
		}
		Errors []string
	}
	if err := json.Unmarshal(b, &cat); err != nil {
		t.Fatal(err)
	}
	s, ok := cat.Sources["source.fa.raw.events"]
	if !ok || s.Metadata.Database != "lake" || s.Metadata.Schema != "raw" || s.Metadata.Name != "events" || s.Columns["loaded_at"] == nil || len(cat.Errors) > 0 {
		t.Errorf("catalog source %+v (found %v), errors %q; want lake.raw.events with its column loaded_at", s, ok, cat.Errors)
	}
}

// attachedSourceProject is a dbt project whose source raw.events lives in
// profiles.yml's attached lake.duckdb, landed there an hour ago.
func attachedSourceProject(t *testing.T) string {
	t.Helper()
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
	return dir
}

package runner

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestStoreFailuresSchema: a test's schema config (dbt_project.yml
// `data_tests: +schema: audit`) places its stored failures as dbt places
// a test node: <target schema>_audit, or what the project's
// generate_schema_name makes of it (here: the name as written). It was
// ignored in silence: always <target schema>_dbt_test__audit.
func TestStoreFailuresSchema(t *testing.T) {
	macro := "{% macro generate_schema_name(custom_schema_name, node) -%}" +
		"{%- if custom_schema_name is none -%}{{ target.schema }}{%- else -%}{{ custom_schema_name | trim }}{%- endif -%}{%- endmacro %}\n"
	for _, tc := range []struct {
		name, schema string
		macros       bool
	}{{"default", "test_schema_audit", false}, {"macro", "audit", true}} {
		t.Run(tc.name, func(t *testing.T) {
			files := shapeProject("sf", map[string]string{
				"models/a.sql":       "{{ config(materialized='table') }} select * from (values (1), (null)) t(id)",
				"models/schema.yml":  "version: 2\nmodels:\n  - name: a\n    columns:\n      - name: id\n        data_tests: [not_null]\n",
				"tests/no_nulls.sql": "select * from {{ ref('a') }} where id is null",
			})
			files["dbt_project.yml"] += "data_tests:\n  +store_failures: true\n  +schema: audit\n"
			if tc.macros {
				files["macros/generate_schema_name.sql"] = macro
			}
			dir := writeProbe(t, files)
			m, diags := parseProbe(t, dir)
			for _, d := range diags {
				t.Fatal(d)
			}
			db, _ := buildProbe(t, m)
			got := queryStrings(t, db.SQL(), "select table_schema || '.' || table_name from information_schema.tables where table_name in ('not_null_a_id', 'no_nulls') order by all")
			if want := tc.schema + ".no_nulls " + tc.schema + ".not_null_a_id"; len(got) != 2 || got[0]+" "+got[1] != want {
				t.Errorf("stored failures in %v, want %s", got, want)
			}
		})
	}
}

// TestStoreFailuresTwice: a stored test runs again (the next build) and
// switches between table and view. Its "drop view if exists" before a
// table is an error in DuckDB when a table is there, so every second run
// of a test with store_failures failed ("Existing object ... is of type
// Table, trying to drop type View"), on a real project's second build.
func TestStoreFailuresTwice(t *testing.T) {
	ctx := context.Background()
	yml := func(as string) string {
		return "version: 2\nmodels:\n  - name: a\n    columns:\n      - name: id\n        data_tests:\n          - not_null:\n              config: {store_failures_as: " + as + "}\n"
	}
	dir := writeProbe(t, shapeProject("sf", map[string]string{
		"models/a.sql":      "{{ config(materialized='table') }} select * from (values (1), (null)) t(id)",
		"models/schema.yml": yml("table"),
	}))
	m, _ := parseProbe(t, dir)
	db, _ := buildProbe(t, m)
	for _, as := range []string{"table", "view", "view", "table"} {
		writeFile(t, filepath.Join(dir, "models/schema.yml"), []byte(yml(as)))
		m, _ := parseProbe(t, dir)
		rr, err := executor.Execute(ctx, m, db, executor.RunOptions{Command: "build", Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rr.Results {
			if r.Status == executor.StatusError {
				t.Errorf("store_failures_as %s: %s %s", as, r.UniqueID, r.Message)
			}
		}
		got := queryStrings(t, db.SQL(), "select table_type from information_schema.tables where table_name = 'not_null_a_id'")
		if want := map[string]string{"table": "BASE TABLE", "view": "VIEW"}[as]; len(got) != 1 || got[0] != want {
			t.Errorf("store_failures_as %s: stored as %v", as, got)
		}
	}
}

package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/executor"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// TestEmptyBuild: --empty (dbt 1.8) builds every model with its columns
// and no rows: each ref and source reads a subquery of none (an alias
// written after the ref stays valid, ephemeral models inline as usual);
// the seeds load. The next plain build is not "up to date": it fills them.
func TestEmptyBuild(t *testing.T) {
	files := shapeProject("em", map[string]string{
		"seeds/people.csv":  peopleCSV(1, 5),
		"models/src.yml":    "version: 2\nsources:\n  - name: raw\n    schema: test_schema\n    tables: [{name: people}]\n",
		"models/a.sql":      "{{ config(materialized='table') }} select id, name from {{ source('raw', 'people') }}",
		"models/e.sql":      "{{ config(materialized='ephemeral') }} select id from {{ ref('a') }} as x where id > 1",
		"models/b.sql":      "{{ config(materialized='incremental', unique_key='id') }} select x.id, x.name from {{ ref('a') }} as x join {{ ref('e') }} as e on e.id = x.id",
		"models/schema.yml": "version: 2\nmodels:\n  - name: b\n    columns:\n      - name: id\n        tests: [not_null, unique]\n",
	})
	dir := writeProbe(t, files)
	db := shapeDB(t, dir)
	_, rr := parseBuild(t, dir, db, true)
	for _, r := range rr.Results {
		if r.Failed() {
			t.Errorf("--empty: %s %s: %s", r.UniqueID, r.Status, r.Message)
		}
	}
	if a, b, seed := countRows(t, db, "test_schema.a"), countRows(t, db, "test_schema.b"), countRows(t, db, "test_schema.people"); a != 0 || b != 0 || seed != 5 {
		t.Errorf("after --empty: a %d rows, b %d, seed %d; want 0 0 5", a, b, seed)
	}
	if got := queryStrings(t, db.SQL(), "select column_name from duckdb_columns() where table_name = 'b' order by column_index"); len(got) != 2 || got[1] != "name" {
		t.Errorf("b's columns %v", got)
	}
	shapeRun(t, db, dir, "build", nil)
	if a, b := countRows(t, db, "test_schema.a"), countRows(t, db, "test_schema.b"); a != 5 || b != 4 {
		t.Errorf("after a plain build: a %d rows, b %d; want 5 4", a, b)
	}
}

// TestEmptyBuiltinTests: under --empty a built-in test reads its model as
// no rows (a seed loads whole, its not_null test still sees none), as
// dbt's test macros render {{ model }} through ref(); a plain build then
// finds the null and the values not accepted.
func TestEmptyBuiltinTests(t *testing.T) {
	files := shapeProject("emt", map[string]string{
		"seeds/people.csv": peopleCSV(1, 3) + "4,,1990-01-01T00:00:00\n",
		"models/a.sql":     "select id, name from {{ ref('people') }}",
		"seeds/schema.yml": "version: 2\nseeds:\n  - name: people\n    columns:\n      - name: name\n        tests: [{not_null: {config: {severity: warn}}}]\n",
		"models/schema.yml": "version: 2\nmodels:\n  - name: a\n    columns:\n      - name: id\n        tests:\n" +
			"          - relationships: {to: ref('people'), field: id}\n          - accepted_values: {values: [1, 2], quote: false}\n",
	})
	dir := writeProbe(t, files)
	db := shapeDB(t, dir)
	m, rr := parseBuild(t, dir, db, true)
	tests := 0
	for _, r := range rr.Results {
		test := strings.HasPrefix(r.UniqueID, "test.")
		if test {
			tests++
		}
		if r.Failed() || (test && r.Status != executor.StatusPass) {
			t.Errorf("--empty: %s %s: %s", r.UniqueID, r.Status, r.Message)
		}
	}
	if tests != 3 || countRows(t, db, "test_schema.people") != 4 {
		t.Errorf("--empty ran %d tests (want 3), seed %d rows (want 4)", tests, countRows(t, db, "test_schema.people"))
	}
	rr, err := executor.Execute(context.Background(), m, db, executor.RunOptions{Command: "build", Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]string{}
	for _, r := range rr.Results {
		status[r.UniqueID] = string(r.Status)
	}
	if status["test.emt.not_null_people_name"] != "warn" || status["test.emt.accepted_values_a_id__False__1__2"] != "fail" ||
		status["test.emt.relationships_a_id__id__ref_people_"] != "pass" {
		t.Errorf("plain build: %v; want not_null warn, accepted_values fail, relationships pass", status)
	}
}

// parseBuild parses dir and builds it into db (with --empty when empty).
func parseBuild(t *testing.T, dir string, db *warehouse.DB, empty bool) (*compiler.Manifest, *executor.RunResults) {
	t.Helper()
	m, diags := parseProbe(t, dir)
	for _, d := range diags {
		t.Fatal(d)
	}
	rr, err := executor.Execute(context.Background(), m, db, executor.RunOptions{Command: "build", Threads: 2, Empty: empty})
	if err != nil {
		t.Fatal(err)
	}
	return m, rr
}

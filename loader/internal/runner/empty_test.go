package runner

import (
	"context"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
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
	m, diags := parseProbe(t, dir)
	for _, d := range diags {
		t.Fatal(d)
	}
	rr, err := executor.Execute(context.Background(), m, db, executor.RunOptions{Command: "build", Threads: 2, Empty: true})
	if err != nil {
		t.Fatal(err)
	}
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

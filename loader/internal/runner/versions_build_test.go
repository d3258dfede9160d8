package runner

import (
	"testing"
)

// TestModelVersionsBuild: a dbt project with a versioned model builds
// each version to its own relation (dim_v1, dim_v2 in the target schema,
// as dbt-duckdb), a model reading ref('dim') reads the latest, the
// versions' tests pass, and manifest.json validates against dbt's schema.
// Before, versions: was not applied: dim_v1.sql built a model dim_v1 and
// dim.sql one named dim.
func TestModelVersionsBuild(t *testing.T) {
	dir := writeProbe(t, shapeProject("vers", map[string]string{
		"models/dim_v1.sql": "select 1 as id, 'a' as old_col",
		"models/dim_v2.sql": "select 1 as id, 'b' as new_col union all select 2, 'c'",
		"models/latest.sql": "select * from {{ ref('dim') }}",
		"models/pinned.sql": "select * from {{ ref('dim', v=1) }}",
		"models/schema.yml": "version: 2\nmodels:\n  - name: dim\n    config: {materialized: table}\n    columns:\n      - name: id\n        tests: [unique, not_null]\n" +
			"    versions:\n      - v: 1\n      - v: 2\n",
	}))
	m, diags := parseProbe(t, dir)
	for _, d := range diags {
		t.Fatal(d)
	}
	validateManifest(t, m)
	db := shapeDB(t, dir)
	rr := shapeRun(t, db, dir, "build", nil)
	if len(rr.Results) != 8 {
		t.Errorf("%d results, want 2 versions, 2 readers, 4 tests", len(rr.Results))
	}
	for rel, want := range map[string]int{"test_schema.dim_v1": 1, "test_schema.dim_v2": 2, "test_schema.latest": 2, "test_schema.pinned": 1} {
		if got := countRows(t, db, rel); got != want {
			t.Errorf("%s has %d rows, want %d", rel, got, want)
		}
	}
}

package runner

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
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

// TestUnitTestsOfVersions: a unit test of a versioned model runs against
// each version (unit_test.<p>.dim.<name>_v<N>, as dbt), or the ones its
// versions: include / exclude keeps; a given ref('dim', v=1) feeds a
// model's pinned ref. Before, it ran against the latest version only and
// a pinned given fed the unpinned name.
func TestUnitTestsOfVersions(t *testing.T) {
	dir := writeProbe(t, shapeProject("uv", map[string]string{
		"models/src.sql":    "select 1 as id",
		"models/dim_v1.sql": "select id from {{ ref('src') }}",
		"models/dim_v2.sql": "select id, id * 2 as twice from {{ ref('src') }}",
		"models/use.sql":    "select id + 10 as id from {{ ref('dim', v=1) }}",
		"models/schema.yml": "version: 2\nmodels:\n  - name: dim\n    versions:\n      - v: 1\n      - v: 2\n" +
			"unit_tests:\n  - name: keeps_ids\n    model: dim\n    given:\n      - input: ref('src')\n        rows: [{id: 5}]\n    expect:\n      rows: [{id: 5}]\n" +
			"  - name: doubles\n    model: dim\n    versions: {include: [2]}\n    given:\n      - input: ref('src')\n        rows: [{id: 5}]\n    expect:\n      rows: [{id: 5, twice: 10}]\n" +
			"  - name: reads_v1\n    model: use\n    given:\n      - input: ref('dim', v=1)\n        rows: [{id: 1}]\n    expect:\n      rows: [{id: 11}]\n",
	}))
	m, diags := parseProbe(t, dir)
	for _, d := range diags {
		t.Fatal(d)
	}
	_, rr := buildProbe(t, m)
	got := map[string]string{}
	for _, r := range rr.Results {
		if strings.HasPrefix(r.UniqueID, "unit_test.") {
			got[r.UniqueID] = r.Status + " " + r.Message
		}
	}
	want := []string{"unit_test.uv.dim.keeps_ids_v1", "unit_test.uv.dim.keeps_ids_v2", "unit_test.uv.dim.doubles_v2", "unit_test.uv.use.reads_v1"}
	if len(got) != len(want) {
		t.Errorf("unit tests %v, want %v", got, want)
	}
	for _, id := range want {
		if !strings.HasPrefix(got[id], executor.StatusPass) {
			t.Errorf("%s: %q, want pass", id, got[id])
		}
	}
}

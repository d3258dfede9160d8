package runner

import (
	"context"
	"fmt"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestProjectTestsConfig: dbt_project.yml's data_tests: (or tests:) configs
// apply to tests by their folders as dbt's test fqn (the schema file's
// folders under models/, a singular test's under tests/): a project-wide
// +severity: warn, a folder's +severity: error and +where, below the
// test's own YAML config. Before, the key was read and silently not
// applied: every failing test was an error, unfiltered.
func TestProjectTestsConfig(t *testing.T) {
	files := shapeProject("tp", map[string]string{
		"models/a.sql":          "select 1 as id, null as v, 'y' as w union all select 2, null, 'y'",
		"models/schema.yml":     "version: 2\nmodels:\n  - name: a\n    columns:\n      - name: v\n        tests: [not_null]\n      - name: w\n        tests: [{accepted_values: {values: [x], config: {severity: error}}}]\n",
		"models/strict/b.sql":   "select 1 as id, null as v union all select 2, null",
		"models/strict/b.yml":   "version: 2\nmodels:\n  - name: b\n    columns:\n      - name: v\n        tests: [not_null]\n",
		"tests/loose.sql":       "select * from {{ ref('a') }}",
		"tests/strict/hard.sql": "select * from {{ ref('b') }}",
	})
	files["dbt_project.yml"] += "data_tests:\n  +severity: warn\n  tp:\n    strict:\n      +severity: error\n      +where: \"id > 1\"\n"
	dir := writeProbe(t, files)
	m, diags := parseProbe(t, dir)
	for _, d := range diags {
		t.Fatal(d)
	}
	db := shapeDB(t, dir)
	rr, err := executor.Execute(context.Background(), m, db, executor.RunOptions{Command: "build", Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range rr.Results {
		if r.Failures != nil {
			got[r.UniqueID] = fmt.Sprintf("%s %d", r.Status, *r.Failures)
		}
	}
	for id, want := range map[string]string{
		"test.tp.not_null_a_v":           "warn 2",
		"test.tp.accepted_values_a_w__x": "fail 1", // its YAML severity wins (one value, two rows)
		"test.tp.not_null_b_v":           "fail 1",
		"test.tp.loose":                  "warn 2",
		"test.tp.hard":                   "fail 2", // where filters generic tests only, as dbt
	} {
		if got[id] != want {
			t.Errorf("%s: %q, want %q (all: %v)", id, got[id], want, got)
		}
	}
}

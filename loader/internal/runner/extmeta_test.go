package runner

import (
	"context"
	"testing"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestExternalLocationUnderConfigMeta: dbt 1.10 moved meta under config,
// and dbt-duckdb's docs write external sources so (config: meta:
// external_location:, on the source or a table; a real project's raw CSV
// files read in place). docket read only meta: and config:, took the
// sources for tables of the database, and skipped every node reading them
// ("does not exist yet") while the build said it completed successfully.
func TestExternalLocationUnderConfigMeta(t *testing.T) {
	files := shapeProject("cm", map[string]string{
		"data/raw_people.csv": "id,name\n1,a\n2,b\n",
		"data/odd.csv":        "id,name\n7,x\n",
		"models/sources.yml": "sources:\n  - name: raw\n    config:\n      meta:\n        external_location: \"read_csv('data/raw_{name}.csv', header = true, all_varchar = true)\"\n" +
			"    tables:\n      - name: people\n        columns:\n          - name: id\n            data_tests: [unique, not_null]\n" +
			"      - name: other\n        config:\n          meta:\n            external_location: \"data/odd.csv\"\n",
		"models/m.sql": "{{ config(materialized='table') }}\nselect id::int as id, name from {{ source('raw', 'people') }} union all select id, name from {{ source('raw', 'other') }}",
	})
	dir, _, ws := probeWarnings(t, files, "")
	for _, w := range ws {
		t.Errorf("warning: %s", w)
	}
	t.Chdir(dir) // a relative path inside read_csv is DuckDB's, from where the build runs (the project folder, as dbt is run)
	db := shapeDB(t, dir)
	rr := shapeRun(t, db, dir, "build", nil)
	for _, r := range rr.Results {
		if r.Status != StatusPass && r.Status != StatusSuccess {
			t.Errorf("%s: %s %s", r.UniqueID, r.Status, r.Message)
		}
	}
	if n := countRows(t, db, "test_schema.m"); n != 3 {
		t.Errorf("m: %d rows, want 3 (2 from data/raw_people.csv, 1 from data/odd.csv)", n)
	}
}

// TestMissingSourceFailsTheBuild: a source nothing builds (not docket
// load's, no seed or model of the project) that is absent is missing data:
// its tests error as dbt's do (Catalog Error), the models reading it are
// skipped, the build fails. docket skipped the tests ("does not exist
// yet"), then every model downstream, and said "Completed successfully"
// (exit 0) on a build that built nothing: the real project above did so
// before its external sources were read.
func TestMissingSourceFailsTheBuild(t *testing.T) {
	files := shapeProject("ms", map[string]string{
		"models/sources.yml": "sources:\n  - name: landing\n    tables:\n      - name: orders\n        columns:\n          - name: id\n            data_tests: [not_null]\n",
		"models/m.sql":       "{{ config(materialized='table') }}\nselect * from {{ source('landing', 'orders') }}",
	})
	dir := writeProbe(t, files)
	db := shapeDB(t, dir)
	p, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, diags, err := compiler.Parse(p, compiler.ParseOptions{Owned: testOwned})
	if err != nil || len(diags) > 0 {
		t.Fatal(err, diags)
	}
	rr, err := executor.Execute(context.Background(), m, db, executor.RunOptions{Command: "build", Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range rr.Results {
		got[r.Name] = r.Status
	}
	if got["source_not_null_landing_orders_id"] != StatusError || got["m"] != StatusSkipped {
		t.Errorf("results: %v, want the source's test an error, m skipped", got)
	}
}

package runner

import "testing"

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

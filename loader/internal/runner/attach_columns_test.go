package runner

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// TestColumnsOfAnAttachedSource: the database-reading Jinja looks a
// relation up in its own database, an attached one included. It looked in
// the warehouse only, so for a source with database: <attach alias>
// adapter.get_columns_in_relation gave no columns, dbt_utils.star wrote
// none ("select 0 as n, from lake.raw.t" builds in DuckDB: silently
// wrong), load_relation and get_relation(database=...) found nothing, and
// a unit test's given input there "does not exist yet".
func TestColumnsOfAnAttachedSource(t *testing.T) {
	ctx := context.Background()
	files := map[string]string{
		"dbt_project.yml": "name: acs\nversion: '1'\nconfig-version: 2\nprofile: p\n",
		"profiles.yml": "p:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n      path: acs.duckdb\n      attach:\n" +
			"        - path: lake.duckdb\n          alias: lake\n",
		"models/sources.yml": "version: 2\nsources:\n  - name: raw\n    database: lake\n    schema: raw\n    tables:\n      - name: events\n",
		"models/cols.sql": "{{ config(materialized='table') }}\n" +
			"{% set cols = adapter.get_columns_in_relation(source('raw', 'events')) %}\n" +
			"{% set loaded = load_relation(source('raw', 'events')) %}\n" +
			"{% set got = adapter.get_relation(database='lake', schema='raw', identifier='events') %}\n" +
			"select '{{ cols | map(attribute='name') | join(',') }}' as names, {{ loaded is not none }} as loaded, " +
			"'{{ got }}' as got, (select count(*) from {{ got }}) as n",
		"models/doubled.sql":    "{{ config(materialized='table') }}\nselect id * 2 as twice from {{ source('raw', 'events') }}",
		"models/unit_tests.yml": "unit_tests:\n  - name: doubles\n    model: doubled\n    given:\n      - input: source('raw', 'events')\n        rows:\n          - {id: 3}\n    expect:\n      rows:\n        - {twice: 6}\n",
	}
	dir := writeProbe(t, files)
	lake, err := warehouse.Open(ctx, filepath.Join(dir, "lake.duckdb"), warehouse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lake.SQL().Exec("create schema raw; create table raw.events as select * from (values (1, 'a'), (2, 'b')) v(id, label)"); err != nil {
		t.Fatal(err)
	}
	lake.Close()
	m, _ := parseProbe(t, dir)
	db, rr := buildProbe(t, m)
	for _, r := range rr.Results {
		if r.Status != executor.StatusSuccess && r.Status != executor.StatusPass {
			t.Errorf("%s: %s %s", r.UniqueID, r.Status, r.Message)
		}
	}
	var names, got string
	var loaded bool
	var n int
	if err := db.SQL().QueryRow("select names, loaded, got, n from main.cols").Scan(&names, &loaded, &got, &n); err != nil {
		t.Fatal(err)
	}
	if names != "id,label" || !loaded || !strings.Contains(got, "lake") || n != 2 {
		t.Errorf("columns %q, load_relation found %v, get_relation %q with %d rows; want id,label, true, lake.raw.events, 2", names, loaded, got, n)
	}
}

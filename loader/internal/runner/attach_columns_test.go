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
// a unit test's given input there "does not exist yet". check_schema_exists
// and list_schemas read their database argument too (review31), and a
// database named in another case is the attached one, as in DuckDB.
func TestColumnsOfAnAttachedSource(t *testing.T) {
	ctx := context.Background()
	files := map[string]string{
		"dbt_project.yml": "name: acs\nversion: '1'\nconfig-version: 2\nprofile: p\n",
		"profiles.yml": "p:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n      path: acs.duckdb\n      attach:\n" +
			"        - path: lake.duckdb\n          alias: lake\n",
		"models/sources.yml": "version: 2\nsources:\n  - name: raw\n    database: lake\n    schema: landing\n    tables:\n      - name: events\n" +
			"  - name: upper\n    database: LAKE\n    schema: landing\n    tables:\n      - name: events\n",
		"models/cols.sql": "{{ config(materialized='table') }}\n" +
			"{% set cols = adapter.get_columns_in_relation(source('raw', 'events')) %}\n" +
			"{% set upper = adapter.get_columns_in_relation(source('upper', 'events')) %}\n" +
			"{% set loaded = load_relation(source('raw', 'events')) %}\n" +
			"{% set got = adapter.get_relation(database='lake', schema='landing', identifier='events') %}\n" +
			"select '{{ cols | map(attribute='name') | join(',') }}' as names, {{ loaded is not none }} as loaded, " +
			"'{{ got }}' as got, (select count(*) from {{ got }}) as n, {{ upper | length }} as upper_cols, " +
			"{{ adapter.check_schema_exists('lake', 'landing') }} as has_raw, '{{ adapter.list_schemas('lake') | join(',') }}' as schemas",
		"models/doubled.sql":    "{{ config(materialized='table') }}\nselect id * 2 as twice from {{ source('raw', 'events') }}",
		"models/unit_tests.yml": "unit_tests:\n  - name: doubles\n    model: doubled\n    given:\n      - input: source('raw', 'events')\n        rows:\n          - {id: 3}\n    expect:\n      rows:\n        - {twice: 6}\n",
	}
	dir := writeProbe(t, files)
	lake, err := warehouse.Open(ctx, filepath.Join(dir, "lake.duckdb"), warehouse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lake.SQL().Exec("create schema landing; create table landing.events as select * from (values (1, 'a'), (2, 'b')) v(id, label)"); err != nil {
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
	var names, got, schemas string
	var loaded, hasRaw bool
	var n, upper int
	if err := db.SQL().QueryRow("select names, loaded, got, n, upper_cols, has_raw, schemas from main.cols").Scan(&names, &loaded, &got, &n, &upper, &hasRaw, &schemas); err != nil {
		t.Fatal(err)
	}
	if names != "id,label" || !loaded || !strings.Contains(got, "lake") || n != 2 || upper != 2 {
		t.Errorf("columns %q, load_relation found %v, get_relation %q with %d rows, %d columns of database: LAKE; want id,label, true, lake.landing.events, 2, 2", names, loaded, got, n, upper)
	}
	if !hasRaw || !strings.Contains(","+schemas+",", ",landing,") {
		t.Errorf("check_schema_exists('lake', 'landing') = %v, list_schemas('lake') = %q; want true and landing among them", hasRaw, schemas)
	}
}

package runner

import (
	"strings"
	"testing"
)

// TestCheckSnapshotUpdatedAt: a check snapshot that names updated_at (a
// real project's drivers history, frizzleqq/f1-dbt-duckdb) stamps its
// versions with that column, as dbt's snapshot_check_strategy does
// (updated_at = config.get('updated_at', snapshot_get_time())): valid from
// the row's load date, the changed version closed at the new one's. docket
// stamped them with the run's clock and said nothing.
func TestCheckSnapshotUpdatedAt(t *testing.T) {
	files := shapeProject("cu", map[string]string{
		"models/src.sql": "{{ config(materialized='table') }}\n{% set n = var('n', 1) | int %}\n" +
			"select 'ham' as driver_id, 'HAM' as code, date '2024-01-01' as load_date\n" +
			"union all select 'alo', {% if n == 1 %}'ALO', date '2024-01-01'{% else %}'AL1', date '2024-02-01'{% endif %}",
		"snapshots/hist.sql": "{% snapshot hist %}\n{{ config(strategy='check', unique_key='driver_id', check_cols=['code'], updated_at='load_date') }}\n" +
			"select * from {{ ref('src') }}\n{% endsnapshot %}\n",
	})
	dir, _, ws := probeWarnings(t, files, "")
	for _, w := range ws {
		t.Errorf("warning: %s", w)
	}
	db := shapeDB(t, dir)
	shapeRun(t, db, dir, "build", nil)
	shapeRun(t, db, dir, "build", map[string]any{"n": 2})
	got := strings.Join(queryStrings(t, db.SQL(), "select driver_id || ':' || code || ':' || strftime(dbt_valid_from, '%Y-%m-%d') || ':' || coalesce(strftime(dbt_valid_to, '%Y-%m-%d'), '-') || ':' || strftime(dbt_updated_at, '%Y-%m-%d') from test_schema.hist order by driver_id, dbt_valid_from"), " ")
	if want := "alo:ALO:2024-01-01:2024-02-01:2024-01-01 alo:AL1:2024-02-01:-:2024-02-01 ham:HAM:2024-01-01:-:2024-01-01"; got != want {
		t.Errorf("history: %s\nwant %s", got, want)
	}
}

// TestSnapshotStampedByTheClockRunsAgain: a timestamp snapshot whose
// updated_at is the clock (`current_timestamp as updated_at`, a real
// project's customers history, rafarngt/dbt-duckdb-analytics-kit) records
// a new version of every row on each run in dbt; docket skipped it as up to
// date ("inputs unchanged") and its history never grew.
func TestSnapshotStampedByTheClockRunsAgain(t *testing.T) {
	files := shapeProject("ck", map[string]string{
		"models/src.sql": "{{ config(materialized='table') }}\nselect 1 as id, 'a' as name",
		"snapshots/hist.sql": "{% snapshot hist %}\n{{ config(strategy='timestamp', unique_key='id', updated_at='updated_at') }}\n" +
			"select *, current_timestamp as updated_at from {{ ref('src') }}\n{% endsnapshot %}\n",
	})
	dir, _, _ := probeWarnings(t, files, "")
	db := shapeDB(t, dir)
	shapeRun(t, db, dir, "build", nil)
	rr := shapeRun(t, db, dir, "build", nil)
	for _, r := range rr.Results {
		if strings.Contains(r.UniqueID, "hist") && strings.Contains(r.Message, "up to date") {
			t.Errorf("%s: %s", r.UniqueID, r.Message)
		}
	}
	if got := strings.Join(queryStrings(t, db.SQL(), "select count(*) || ' versions, ' || count(dbt_valid_to) || ' closed' from test_schema.hist"), ""); got != "2 versions, 1 closed" {
		t.Errorf("after two builds: %s, want 2 versions, 1 closed", got)
	}
}

// TestSnapshotOfAnUnversionedTableRunsAgain: a snapshot whose query reads a
// schema-qualified table that is neither a ref nor a source (raw data a
// loader writes) has no data version to compare: it must run on every
// build, as a model reading one does. docket skipped it as up to date and
// the rows changed in that table never reached the history.
func TestSnapshotOfAnUnversionedTableRunsAgain(t *testing.T) {
	files := shapeProject("uv", map[string]string{
		"snapshots/hist.sql": "{% snapshot hist %}\n{{ config(strategy='check', unique_key='id', check_cols='all') }}\n" +
			"select * from landing.people\n{% endsnapshot %}\n",
	})
	dir, _, _ := probeWarnings(t, files, "")
	db := shapeDB(t, dir)
	if _, err := db.SQL().Exec("create schema landing; create table landing.people as select 1 as id, 'a' as name"); err != nil {
		t.Fatal(err)
	}
	shapeRun(t, db, dir, "build", nil)
	if _, err := db.SQL().Exec("update landing.people set name = 'b'"); err != nil {
		t.Fatal(err)
	}
	shapeRun(t, db, dir, "build", nil)
	got := strings.Join(queryStrings(t, db.SQL(), "select name || ':' || (dbt_valid_to is null) from test_schema.hist order by dbt_valid_from"), " ")
	if want := "a:false b:true"; got != want {
		t.Errorf("history: %s, want %s", got, want)
	}
}

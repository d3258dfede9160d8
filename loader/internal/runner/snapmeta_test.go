package runner

import (
	"strings"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// TestSnapshotMetaColumnNames: dbt 1.9's snapshot_meta_column_names
// renames the snapshot's meta columns (dbt_scd_id, dbt_updated_at,
// dbt_valid_from, dbt_valid_to, dbt_is_deleted) in the table and in
// every statement of a later run; a name left out keeps dbt's. It was
// warned as an unknown config key and the dbt_ names were written.
// Two runs: id 1 changes, id 2 is deleted (hard_deletes new_record).
func TestSnapshotMetaColumnNames(t *testing.T) {
	base := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	calls := 0
	compiler.SnapshotNow = func() time.Time { calls++; return base.Add(time.Duration(calls) * time.Hour) }
	defer func() { compiler.SnapshotNow = time.Now }()
	files := shapeProject("sm", map[string]string{
		"models/src.sql": "{{ config(materialized='table') }}\n{% set n = var('n', 1) | int %}\n" +
			"select 1 as id, case when {{ n }} = 1 then 'a' else 'b' end as v, timestamp '2026-01-01' + interval ({{ n }}) day as changed_at\n" +
			"union all select 2, 'c', timestamp '2026-01-02' where {{ n }} = 1",
		"snapshots/snaps.yml": "snapshots:\n  - name: named\n    relation: ref('src')\n    config:\n      unique_key: id\n      strategy: timestamp\n" +
			"      updated_at: changed_at\n      hard_deletes: new_record\n      snapshot_meta_column_names:\n        dbt_scd_id: scd_id\n" +
			"        dbt_updated_at: updated\n        dbt_valid_from: valid_from\n        dbt_valid_to: Valid_To\n        dbt_is_deleted: is_deleted\n",
		"snapshots/part.sql": "{% snapshot part %}\n{{ config(unique_key='id', strategy='check', check_cols=['v'], hard_deletes='invalidate',\n" +
			"  snapshot_meta_column_names={'dbt_valid_to': 'valid_to'}) }}\nselect * from {{ ref('src') }}\n{% endsnapshot %}\n",
	})
	dir, _, ws := probeWarnings(t, files, "")
	for _, w := range ws {
		t.Errorf("warning: %s", w)
	}
	db := shapeDB(t, dir)
	shapeRun(t, db, dir, "build", nil)
	shapeRun(t, db, dir, "build", map[string]any{"n": 2})
	cols := func(rel string) string {
		return strings.Join(queryStrings(t, db.SQL(), "select column_name from (describe "+rel+")"), ",")
	}
	if got, want := cols("test_schema.named"), "id,v,changed_at,scd_id,updated,valid_from,Valid_To,is_deleted"; got != want {
		t.Errorf("named's columns %s, want %s", got, want)
	}
	if got, want := cols("test_schema.part"), "id,v,changed_at,dbt_scd_id,dbt_updated_at,dbt_valid_from,valid_to"; got != want {
		t.Errorf("part's columns %s, want %s", got, want)
	}
	rows := func(q string) string { return strings.Join(queryStrings(t, db.SQL(), q), " ") }
	if got, want := rows("select id || v || ':' || is_deleted || ':' || (valid_to is null) || ':' || (scd_id is not null) || ':' || (updated = valid_from) from test_schema.named order by id, valid_from"),
		"1a:False:false:true:true 1b:False:true:true:true 2c:False:false:true:true 2c:True:true:true:true"; got != want {
		t.Errorf("named after two runs: %s\nwant %s", got, want)
	}
	if got, want := rows("select id || v || ':' || (valid_to is null) from test_schema.part order by id, dbt_valid_from"),
		"1a:false 1b:true 2c:false"; got != want {
		t.Errorf("part after two runs: %s\nwant %s", got, want)
	}
}

// TestSnapshotMetaColumnNameClashes: two meta columns given one name is
// an error at the config; a query column named like a meta column fails
// the snapshot's run naming it (it was DuckDB's error at the create).
func TestSnapshotMetaColumnNameClashes(t *testing.T) {
	dir := writeProbe(t, shapeProject("sc", map[string]string{
		"models/src.sql": "select 1 as id, 2 as valid_from",
		"snapshots/snaps.yml": "snapshots:\n  - name: twice\n    relation: ref('src')\n    config:\n      unique_key: id\n      strategy: check\n" +
			"      check_cols: all\n      snapshot_meta_column_names:\n        dbt_valid_from: vf\n        dbt_valid_to: VF\n",
	}))
	if _, diags := parseProbe(t, dir); len(diags) != 1 || !strings.Contains(diags[0].String(), "snapshots/snaps.yml:8:7: snapshot twice: snapshot_meta_column_names: dbt_valid_from and dbt_valid_to both name column \"VF\"") {
		t.Errorf("diagnostics %v", diags)
	}
	dir = writeProbe(t, shapeProject("sc", map[string]string{
		"models/src.sql": "select 1 as id, 2 as valid_from",
		"snapshots/snaps.yml": "snapshots:\n  - name: clash\n    relation: ref('src')\n    config:\n      unique_key: id\n      strategy: check\n" +
			"      check_cols: all\n      snapshot_meta_column_names:\n        dbt_valid_from: valid_from\n",
	}))
	rr, _ := runDir(t, dir)
	for _, r := range rr.Results {
		if r.Name == "clash" && (r.Status != "error" || !strings.Contains(r.Message, `snapshots/snaps.yml:8:7: snapshot clash: the query has a column "valid_from"`)) {
			t.Errorf("clash: %s %q", r.Status, r.Message)
		}
	}
}

// TestSnapshotCheckAllOfKeyColumns: check_cols 'all' compares every column
// of the query, the unique key's too, as dbt's
// snapshot_check_all_get_existing_columns (get_columns_in_query). docket
// left the key's columns out, so a snapshot whose unique_key lists every
// column (Fatombe/dbt_amelin's dim_aircraft_seats) compared nothing: its
// second run was a syntax error at "()". Two runs: a new row, then none.
func TestSnapshotCheckAllOfKeyColumns(t *testing.T) {
	files := shapeProject("ka", map[string]string{
		"models/src.sql": "{{ config(materialized='table') }}\nselect * from (values ('773', '1A'), ('SU9', '2D')) v(aircraft_code, seat_no) where {{ var('n', 1) }} > 1 or aircraft_code = '773'",
		"snapshots/seats.sql": "{% snapshot seats %}\n{{ config(unique_key=['aircraft_code', 'seat_no'], strategy='check', check_cols='all') }}\n" +
			"select * from {{ ref('src') }}\n{% endsnapshot %}\n",
	})
	dir, _, _ := probeWarnings(t, files, "")
	db := shapeDB(t, dir)
	shapeRun(t, db, dir, "build", nil)
	shapeRun(t, db, dir, "build", map[string]any{"n": 2})
	shapeRun(t, db, dir, "build", map[string]any{"n": 2})
	rows := strings.Join(queryStrings(t, db.SQL(), "select aircraft_code || seat_no || ':' || (dbt_valid_to is null) from test_schema.seats order by 1"), " ")
	if want := "7731A:true SU92D:true"; rows != want {
		t.Errorf("seats after three runs: %s, want %s", rows, want)
	}
}

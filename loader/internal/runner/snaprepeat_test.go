package runner

import (
	"strings"
	"testing"
)

// TestSnapshotRepeatedKey: a timestamp snapshot whose query gives a key
// twice, an older and a newer row (a real project's policies and their
// renewals, Saurabh-DS/datavault-dbt-duckdb-medallion), keeps what dbt's
// merge keeps on a later run: the older version closed at the newer's
// time, the newer one current, once. main closed the newer version too
// (valid from and to the same instant) and inserted it again with the
// same dbt_scd_id, and the project's overlap test failed on 942 rows.
func TestSnapshotRepeatedKey(t *testing.T) {
	files := shapeProject("rk", map[string]string{
		"models/src.sql": "{{ config(materialized='table') }}\n{% set n = var('n', 1) | int %}\n" +
			"select 'P' as k, 1 as v, timestamp '2019-01-27 09:00:00' as updated_at\n" +
			"union all select 'P', 2, timestamp '2020-01-28 09:00:00'\n" +
			"union all select 'Q', 3, timestamp '2021-01-01 00:00:00' where {{ n }} = 2",
		"snapshots/snaps.yml": "snapshots:\n  - name: hist\n    relation: ref('src')\n    config:\n      unique_key: k\n      strategy: timestamp\n" +
			"      updated_at: updated_at\n      hard_deletes: invalidate\n",
	})
	dir, _, ws := probeWarnings(t, files, "")
	for _, w := range ws {
		t.Errorf("warning: %s", w)
	}
	db := shapeDB(t, dir)
	shapeRun(t, db, dir, "build", nil)
	shapeRun(t, db, dir, "build", map[string]any{"n": 2})
	shapeRun(t, db, dir, "build", map[string]any{"n": 2})
	got := strings.Join(queryStrings(t, db.SQL(), "select k || v || ':' || strftime(dbt_valid_from, '%Y') || ':' || coalesce(strftime(dbt_valid_to, '%Y-%m-%d'), '-') from test_schema.hist order by k, dbt_valid_from, dbt_valid_to nulls last"), " ")
	if want := "P1:2019:2020-01-28 P2:2020:- Q3:2021:-"; got != want {
		t.Errorf("history after three runs: %s\nwant %s", got, want)
	}
	if dup := strings.Join(queryStrings(t, db.SQL(), "select count(*) - count(distinct dbt_scd_id) from test_schema.hist"), ""); dup != "0" {
		t.Errorf("%s repeated dbt_scd_id", dup)
	}
}

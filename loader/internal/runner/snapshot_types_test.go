package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestSnapshotKeepsUpdatedAtType: a timestamp snapshot's dbt_updated_at,
// dbt_valid_from and dbt_valid_to are its updated_at column as the query
// has it (dbt's build_snapshot_table selects updated_at as them, and
// dbt_valid_to is coalesce(nullif(updated_at, updated_at),
// dbt_valid_to_current)): a DATE stays a DATE. docket cast them to
// TIMESTAMP, so the history of a daily source read 2026-01-02 00:00:00
// and its scd_id hashed that text. Two runs: id 1 changes, id 2 is
// deleted (invalidate), then a run with nothing new.
func TestSnapshotKeepsUpdatedAtType(t *testing.T) {
	files := shapeProject("st", map[string]string{
		"models/src.sql": "{{ config(materialized='table') }}\n{% set n = var('n', 1) | int %}\n" +
			"select 1 as id, case when {{ n }} = 1 then 'a' else 'b' end as v, date '2026-01-01' + {{ n }} as changed_on\n" +
			"union all select 2, 'c', date '2026-01-02' where {{ n }} = 1",
		"snapshots/snaps.yml": "snapshots:\n  - name: daily\n    relation: ref('src')\n    config:\n      unique_key: id\n      strategy: timestamp\n" +
			"      updated_at: changed_on\n      hard_deletes: invalidate\n" +
			"  - name: forever\n    relation: ref('src')\n    config:\n      unique_key: id\n      strategy: timestamp\n" +
			"      updated_at: changed_on\n      dbt_valid_to_current: \"date '9999-12-31'\"\n",
	})
	dir, _, ws := probeWarnings(t, files, "")
	for _, w := range ws {
		t.Errorf("warning: %s", w)
	}
	db := shapeDB(t, dir)
	shapeRun(t, db, dir, "build", nil)
	shapeRun(t, db, dir, "build", map[string]any{"n": 2})
	shapeRun(t, db, dir, "build", map[string]any{"n": 2})
	types := func(rel string) string {
		return strings.Join(queryStrings(t, db.SQL(), "select column_name || ' ' || column_type from (describe "+rel+") where column_name like 'dbt_%' and column_name <> 'dbt_scd_id'"), ", ")
	}
	for _, rel := range []string{"test_schema.daily", "test_schema.forever"} {
		if got, want := types(rel), "dbt_updated_at DATE, dbt_valid_from DATE, dbt_valid_to DATE"; got != want {
			t.Errorf("%s: %s, want %s", rel, got, want)
		}
	}
	rows := func(q string) string { return strings.Join(queryStrings(t, db.SQL(), q), " ") }
	if got, want := rows("select id || v || ':' || dbt_valid_from || ':' || coalesce(dbt_valid_to::varchar, '-') || ':' || (dbt_scd_id = md5(id || '|' || dbt_valid_from)) from test_schema.daily order by id, dbt_valid_from"),
		"1a:2026-01-02:2026-01-03:true 1b:2026-01-03:-:true"; !strings.HasPrefix(got, want) || !strings.Contains(got, " 2c:2026-01-02:") {
		t.Errorf("daily after three runs: %s\nwant %s and 2c closed", got, want)
	}
	if got, want := rows("select id || v || ':' || dbt_valid_from || ':' || dbt_valid_to from test_schema.forever order by id, dbt_valid_from"),
		"1a:2026-01-02:2026-01-03 1b:2026-01-03:9999-12-31 2c:2026-01-02:9999-12-31"; got != want {
		t.Errorf("forever after three runs: %s\nwant %s", got, want)
	}
}

// TestSnapshotStepErrorPlace: a DuckDB error from a statement docket
// writes around a snapshot's query (here: a later run's query turns v
// from an integer into text the history's INTEGER column cannot take) is
// placed at the snapshot's config in the user's file and names the step;
// it was target/compiled/.../s.sql:2:90, a line and column of docket's own
// statement (a blank line of the compiled query).
func TestSnapshotStepErrorPlace(t *testing.T) {
	files := shapeProject("se", map[string]string{
		"models/src.sql": "{% if var('n', 1) == 1 %}select 1 as id, 1 as v{% else %}select 1 as id, 'abc' as v{% endif %}",
		"snapshots/s.sql": "{% snapshot s %}\n{{ config(unique_key='id', strategy='check', check_cols=['v']) }}\n" +
			"select * from {{ ref('src') }}\n{% endsnapshot %}\n",
	})
	dir := writeProbe(t, files)
	db := shapeDB(t, dir)
	shapeRun(t, db, dir, "build", nil)
	p, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := compiler.Parse(p, compiler.ParseOptions{Owned: testOwned, Vars: map[string]any{"n": 2}})
	if err != nil {
		t.Fatal(err)
	}
	rr, err := executor.Execute(context.Background(), m, db, executor.RunOptions{Command: "build", Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := "snapshots/s.sql:2:4: snapshot s: comparing the query's rows with the current versions in test_schema.s: Conversion Error: Could not convert string 'abc' to INT32"
	found := false
	for _, r := range rr.Results {
		if r.UniqueID == "snapshot.se.s" {
			found = true
			if !strings.HasPrefix(r.Message, want) {
				t.Errorf("s: %s %q\nwant %q", r.Status, r.Message, want)
			}
		}
	}
	if !found {
		t.Errorf("no result for snapshot s: %+v", rr.Results)
	}
}

package runner

import (
	"strings"
	"testing"
)

// TestUnqualifiedRawTableRunsAgain: a snapshot and a model reading a
// table named without a schema that is neither ref nor source (from
// people_raw, in the default schema) have no data version: they run
// again on every build, so the snapshot records the change and the model
// has the new rows. A CTE's name is no such table: a model reading only
// its own CTE stays up to date. Before, an unqualified name was never
// checked: both were "up to date: inputs unchanged" after people_raw
// changed (history a:true, the model's rows a).
func TestUnqualifiedRawTableRunsAgain(t *testing.T) {
	files := shapeProject("uq", map[string]string{
		"snapshots/hist.sql": "{% snapshot hist %}\n{{ config(strategy='check', unique_key='id', check_cols='all') }}\n" +
			"select * from people_raw\n{% endsnapshot %}\n",
		"models/m.sql":   "{{ config(materialized='table') }}\nselect * from people_raw",
		"models/cte.sql": "{{ config(materialized='table') }}\nwith people_cte as (select 1 as id) select * from people_cte",
	})
	dir, _, _ := probeWarnings(t, files, "")
	db := shapeDB(t, dir)
	if _, err := db.SQL().Exec("create table people_raw as select 1 as id, 'a' as name"); err != nil {
		t.Fatal(err)
	}
	shapeRun(t, db, dir, "build", nil)
	if _, err := db.SQL().Exec("update people_raw set name = 'b'"); err != nil {
		t.Fatal(err)
	}
	rr := shapeRun(t, db, dir, "build", nil)
	got := strings.Join(queryStrings(t, db.SQL(), "select name || ':' || (dbt_valid_to is null) from test_schema.hist order by dbt_valid_from"), " ")
	if want := "a:false b:true"; got != want {
		t.Errorf("history: %s, want %s", got, want)
	}
	if got := strings.Join(queryStrings(t, db.SQL(), "select name from test_schema.m"), " "); got != "b" {
		t.Errorf("model m: %s, want b", got)
	}
	for _, r := range rr.Results {
		upToDate := strings.Contains(r.Message, "up to date")
		if r.UniqueID == "model.uq.cte" && !upToDate || r.UniqueID != "model.uq.cte" && upToDate {
			t.Errorf("%s: %s %s", r.UniqueID, r.Status, r.Message)
		}
	}
}

package runner

import (
	"testing"
)

// TestRowsCountedAfterPostHooks: a table model's "CREATE TABLE n" counts
// the rows its post-hooks wrote into it too, whether the hook is a
// statement or inserts through run_query while it renders (the batched
// full builds of macros/batching.sql): before, n was the model
// statement's rows, the first batch's.
func TestRowsCountedAfterPostHooks(t *testing.T) {
	files := shapeProject("hookrows", map[string]string{
		"models/stmt_hook.sql": `{{ config(materialized='table', post_hook="insert into {{ this }} select 2 as id") }}
select 1 as id
`,
		"models/rendered_hook.sql": `{{ config(materialized='incremental', unique_key='id',
    post_hook="{% if not is_incremental() %}{% do run_query('insert into ' ~ this ~ ' select i from range(2, 6) t(i)') %}{% endif %}") }}
select 1 as id
`,
	})
	rr, err, _ := hookRun(t, files)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"stmt_hook": 2, "rendered_hook": 5} // the table's rows; its own statement wrote 1
	for _, r := range rr.Results {
		w, ok := want[r.Name]
		if !ok {
			continue
		}
		delete(want, r.Name)
		if a := r.AdapterResponse; r.Status != "success" || a.RowsAffected != w || a.StatementRows == nil || *a.StatementRows != 1 {
			t.Errorf("%s: %s %q rows %d (statement %v), want %d (statement 1)", r.Name, r.Status, r.Message, a.RowsAffected, a.StatementRows, w)
		}
	}
	if len(want) > 0 {
		t.Errorf("no result for %v", want)
	}
}

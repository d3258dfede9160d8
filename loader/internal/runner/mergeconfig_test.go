package runner

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestMergeConfigsApplied: dbt's merge_update_columns,
// merge_exclude_columns and incremental_predicates (and its older name
// predicates) are applied as dbt-duckdb does, with the target and the new
// rows aliased DBT_INTERNAL_DEST and DBT_INTERNAL_SOURCE; they were
// warned as unknown config keys and the merge updated every column.
// Two runs: the first writes ids 1-3 (a = 'a1', b = 'b1'), the second
// ids 1-3 again (a = 'a2', b = 'b2') and 4.
func TestMergeConfigsApplied(t *testing.T) {
	body := " select id, 'a' || {{ var('n', 1) }} as a, 'b' || {{ var('n', 1) }} as b from range(1, 3 + {{ var('n', 1) }}) t(id)"
	cfg := func(c string) string {
		return "{{ config(materialized='incremental', unique_key='id', " + c + ") }}" + body
	}
	files := shapeProject("mc", map[string]string{
		"models/upd.sql":      cfg("incremental_strategy='merge', merge_update_columns=['a']"),
		"models/excl.sql":     cfg("incremental_strategy='merge', merge_exclude_columns=['B']"),
		"models/pred.sql":     cfg("incremental_strategy='merge', incremental_predicates=['DBT_INTERNAL_DEST.id != 2', 'DBT_INTERNAL_SOURCE.id > 0']"),
		"models/oldpred.sql":  cfg("incremental_strategy='merge', predicates=['DBT_INTERNAL_DEST.id != 2']"),
		"models/delpred.sql":  cfg("incremental_strategy='delete+insert', incremental_predicates='id != 2'"),
		"models/delqpred.sql": cfg("incremental_strategy='delete+insert', incremental_predicates=['DBT_INTERNAL_DEST.id != 2']"),
	})
	dir, _, ws := probeWarnings(t, files, "")
	for _, w := range ws {
		t.Errorf("warning: %s", w)
	}
	db := shapeDB(t, dir)
	shapeRun(t, db, dir, "run", nil)
	shapeRun(t, db, dir, "run", map[string]any{"n": 2})
	rows := func(model string) string {
		got := queryStrings(t, db.SQL(), "select string_agg(id || ':' || a || b, ' ' order by id, a) from test_schema."+model)
		return strings.Join(got, "|")
	}
	want := map[string]string{
		"upd":      "1:a2b1 2:a2b1 3:a2b1 4:a2b2",        // only a updated
		"excl":     "1:a2b1 2:a2b1 3:a2b1 4:a2b2",        // b excluded, case-insensitively
		"pred":     "1:a2b2 2:a1b1 2:a2b2 3:a2b2 4:a2b2", // id 2 never matches: inserted again
		"oldpred":  "1:a2b2 2:a1b1 2:a2b2 3:a2b2 4:a2b2",
		"delpred":  "1:a2b2 2:a1b1 2:a2b2 3:a2b2 4:a2b2", // the old id 2 is not deleted
		"delqpred": "1:a2b2 2:a1b1 2:a2b2 3:a2b2 4:a2b2",
	}
	for model, w := range want {
		if got := rows(model); got != w {
			t.Errorf("%s after two runs: %s, want %s", model, got, w)
		}
	}
}

// TestMergeConfigMistakes: merge_update_columns with
// merge_exclude_columns is an error (dbt: "Model cannot specify
// merge_update_columns and merge_exclude_columns"); a merge column the
// model does not have fails its run naming it; merge columns or
// predicates on a strategy that does not use them are a warning at the
// place they are written (dbt ignores them there).
func TestMergeConfigMistakes(t *testing.T) {
	dir := writeProbe(t, shapeProject("mm", map[string]string{
		"models/both.sql": "{{ config(materialized='incremental', unique_key='id', incremental_strategy='merge',\n merge_update_columns=['a'], merge_exclude_columns=['a']) }} select 1 as id, 2 as a",
	}))
	if _, diags := parseProbe(t, dir); len(diags) != 1 || !strings.Contains(diags[0].String(), "merge_update_columns and merge_exclude_columns") ||
		!strings.HasPrefix(diags[0].String(), "models/both.sql:1:") {
		t.Errorf("both: %v", diags)
	}
	dir = writeProbe(t, shapeProject("mm", map[string]string{
		"models/app.sql": "{{ config(materialized='incremental',\n incremental_predicates=['id > 0']) }} select 1 as id",
		"models/del.sql": "{{ config(materialized='incremental', unique_key='id',\n merge_exclude_columns=['a']) }} select 1 as id, 2 as a",
		"models/tbl.sql": "{{ config(materialized='table', merge_update_columns=['a'], incremental_predicates=['id > 0']) }} select 1 as id, 2 as a",
		"seeds/s.csv":    "id\n1\n",
		"seeds/s.yml":    "seeds:\n  - name: s\n    config:\n      predicates: ['id > 0']\n",
	}))
	m, diags := parseProbe(t, dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	var ws []string
	for _, w := range m.Warnings {
		ws = append(ws, w.String())
	}
	all := strings.Join(ws, "\n")
	for _, want := range []string{"models/app.sql:1:4: config incremental_predicates is not applied by incremental_strategy \"append\"",
		"models/del.sql:1:4: config merge_exclude_columns is not applied by incremental_strategy \"delete+insert\"",
		"models/tbl.sql:1:4: config merge_update_columns is not applied to a table model (an incremental model's merge uses it)",
		"models/tbl.sql:1:4: config incremental_predicates is not applied to a table model (an incremental model's merge and delete+insert uses it)",
		"seeds/s.yml:4:7: config predicates is not applied to a seed (an incremental model's merge and delete+insert uses it)"} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings\n%s\nwant %s", all, want)
		}
	}
	gone := "{{ config(materialized='incremental', unique_key='id', incremental_strategy='merge', merge_update_columns=['nope']) }} select 1 as id, 2 as a"
	dir = writeProbe(t, shapeProject("mm", map[string]string{"models/gone.sql": gone}))
	db := shapeDB(t, dir)
	shapeRun(t, db, dir, "run", nil)
	db.Close()
	writeFile(t, filepath.Join(dir, "models", "gone.sql"), []byte(gone+"\n-- edited\n"))
	rr, _ := runDir(t, dir)
	if len(rr.Results) != 1 || rr.Results[0].Status != "error" || !strings.Contains(rr.Results[0].Message, `"nope"`) {
		t.Errorf("gone's incremental run: %s, want an error naming nope", idStatuses(rr))
	}
}

package runner

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestRefOnlyWhenIncrementalIsAnError: a ref made only under
// is_incremental() is not in the node's depends_on (the parse renders
// with is_incremental() false), so the DAG does not order it; as dbt
// ("unable to infer all dependencies"), the incremental run of the model
// is an error naming the hint, not a read of whatever the relation holds.
func TestRefOnlyWhenIncrementalIsAnError(t *testing.T) {
	files := shapeProject("ir", map[string]string{"models/a.sql": "{{ config(materialized='table') }} select 1 as id",
		"models/b.sql": "{{ config(materialized='incremental') }} select 2 as id {% if is_incremental() %} union all select id from {{ ref('a') }} {% endif %}"})
	dir := writeProbe(t, files)
	db := shapeDB(t, dir)
	shapeRun(t, db, dir, "build", nil)
	// b edited (a comment): it runs again, incrementally
	writeFile(t, filepath.Join(dir, "models", "b.sql"), []byte(files["models/b.sql"]+"\n-- edited\n"))
	m, diags := parseProbe(t, dir)
	for _, d := range diags {
		t.Fatal(d)
	}
	rr, err := executor.Execute(context.Background(), m, db, executor.RunOptions{Command: "build", Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rr.Results {
		if r.UniqueID == "model.ir.b" {
			if r.Status != "error" || !strings.Contains(r.Message, "depends_on") {
				t.Errorf("incremental b with a ref the parse did not see: %s %q, want an error with the depends_on hint", r.Status, r.Message)
			}
			return
		}
	}
	t.Fatal("no result for b")
}

// TestEmptyUniqueKeyAppends: an empty unique_key (a blank string or []) is no key, as dbt's
// `{% if unique_key %}` reads it: the second run appends (dbt-tests-adapter
// BaseIncrementalUniqueKey, empty_str_unique_key); it failed with
// `unique_key column "" is not in the model's output`.
func TestEmptyUniqueKeyAppends(t *testing.T) {
	body := " select {{ var('n', 1) }} as id"
	files := shapeProject("ek", map[string]string{
		"models/empty_str.sql":  "{{ config(materialized='incremental', unique_key='') }}" + body,
		"models/empty_list.sql": "{{ config(materialized='incremental', unique_key=[]) }}" + body,
	})
	dir := writeProbe(t, files)
	db := shapeDB(t, dir)
	shapeRun(t, db, dir, "run", nil)
	shapeRun(t, db, dir, "run", map[string]any{"n": 2})
	for _, m := range []string{"empty_str", "empty_list"} {
		if got := queryStrings(t, db.SQL(), "select string_agg(id::varchar, ',' order by id) from test_schema."+m); len(got) != 1 || got[0] != "1,2" {
			t.Errorf("%s after two runs: %v, want [1,2] (appended)", m, got)
		}
	}
	// a list holding a blank is not "no key" (truthy in dbt, whose
	// delete+insert then fails on the blank column): an error, never a
	// silent merge on the other columns
	files["models/blank_in_list.sql"] = "{{ config(materialized='incremental', unique_key=['id', '']) }}" + body
	dir = writeProbe(t, files)
	m, diags := parseProbe(t, dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if n := m.Nodes["model.ek.blank_in_list"]; n == nil {
		t.Error("no model blank_in_list")
	} else if !slices.Equal(n.Config.UniqueKey, []string{"id", ""}) {
		t.Errorf("unique_key ['id', ''] read as %q, want [id ''] kept", n.Config.UniqueKey)
	}
}

package runner

import (
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestFlagsFullRefreshAtRun: a model, and an incremental model's branch,
// that read dbt's flags.FULL_REFRESH see the invocation's --full-refresh
// (dbt41's finding: the flag was always False, the render at parse kept).
func TestFlagsFullRefreshAtRun(t *testing.T) {
	files := shapeProject("flagsfr", map[string]string{
		"models/m/fr.sql": "{{ config(materialized='table') }}\nselect {{ 1 if flags.FULL_REFRESH else 0 }} as fr, " +
			"'{{ flags[\"FULL_REFRESH\"] }}' as item",
		"models/m/inc.sql": "{{ config(materialized='incremental') }}\n" +
			"select {% if flags.FULL_REFRESH %}'full'{% else %}'delta'{% endif %} as how",
	})
	dir := writeProbe(t, files)
	db := shapeDB(t, dir)
	q := shapeQuery(t, db)
	build := func(full bool) {
		t.Helper()
		rr, err := executeDir(t, dir, db, executor.RunOptions{Command: "build", Threads: 1, FullRefresh: full})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rr.Results {
			if r.Status != executor.StatusSuccess {
				t.Fatalf("%s: %s %s", r.Name, r.Status, r.Message)
			}
		}
	}
	build(false)
	if s := q("select fr || ' ' || item from test_schema.fr"); s != "0 False" {
		t.Errorf("a build: fr %q, want 0 False", s)
	}
	build(true)
	if s := q("select fr || ' ' || item from test_schema.fr"); s != "1 True" {
		t.Errorf("--full-refresh: fr %q, want 1 True", s)
	}
	if s := q("select string_agg(how, ',') from test_schema.inc"); s != "full" {
		t.Errorf("--full-refresh incremental rows %q, want full (rebuilt with the flag's branch)", s)
	}
	build(false)
	if s := q("select string_agg(how, ',' order by how) from test_schema.inc"); s != "delta,full" {
		t.Errorf("an incremental run after it: %q, want delta,full", s)
	}
	if s := q("select fr from test_schema.fr"); s != "0" {
		t.Errorf("a build after --full-refresh: fr %q, want 0", s)
	}
}

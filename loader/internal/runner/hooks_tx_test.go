package runner

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// hookTxModel is a model whose hooks are written the ways dbt allows:
// plain strings (inside the transaction), before_begin/after_commit
// (outside) and the {"sql": ..., "transaction": false} mapping of
// dbt_project.yml (a folder's +pre-hook, which comes first).
func hookTxModel(materialized string) string {
	ins := func(step string) string { return `"insert into {{ ref('log') }} values ('` + step + `')"` }
	return "{{ config(materialized='" + materialized + "', label='x',\n" +
		"  pre_hook=[" + ins("pre_in") + ", before_begin(" + ins("pre_out") + ")],\n" +
		"  post_hook=[after_commit(" + ins("post_out") + "), " + ins("post_in") + "]) }}\n" +
		"-- depends_on: {{ ref('log') }}\nselect 1 as id"
}

const hookTxProject = `models:
  ht:
    hooked:
      +pre-hook:
        - sql: "insert into {{ ref('log') }} values ('proj_out')"
          transaction: false
on-run-start:
  - sql: "create table {{ target.schema }}.started as select 1 as n"
    transaction: false
  - "{{ before_begin('create table ' ~ target.schema ~ '.started2 as select 2 as n') }}"
`

// TestHooksOutsideTransaction: hooks with transaction: false run as in
// dbt: the built-in materializations run the outside pre-hooks before the
// inside ones and the outside post-hooks after the inside ones; a custom
// materialization's run_hooks(hooks, inside_transaction=False) runs only
// those; on-run-start takes the mapping and a before_begin() hook;
// manifest.json records each hook's transaction. Before, every hook was
// transaction=true: a before_begin() hook ran its JSON as SQL and the
// mapping form was lost.
func TestHooksOutsideTransaction(t *testing.T) {
	files := shapeProject("ht", map[string]string{
		"macros/mats.sql":     swapTable,
		"models/log.sql":      "{{ config(materialized='table') }} select 'init' as step",
		"models/hooked/t.sql": hookTxModel("table"),
		"models/hooked/c.sql": hookTxModel("swap_table"),
	})
	files["dbt_project.yml"] += hookTxProject
	for _, sel := range []string{"model.ht.t", "model.ht.c"} {
		dir := writeProbe(t, files)
		rr, err := runDir(t, dir, "model.ht.log", sel)
		if err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		for _, r := range rr.Results {
			if r.Status != executor.StatusSuccess {
				t.Fatalf("%s\n%s %s: %s", idStatuses(rr), r.UniqueID, r.Status, r.Message)
			}
		}
		db := shapeDB(t, dir)
		q := shapeQuery(t, db)
		if got, want := q("select string_agg(step, ',' order by rowid) from test_schema.log"), "init,proj_out,pre_out,pre_in,post_in,post_out"; got != want {
			t.Errorf("%s: hooks ran %s, want %s", sel, got, want)
		}
		if got := q("select (select n from test_schema.started)::varchar || (select n from test_schema.started2)::varchar"); got != "12" {
			t.Errorf("on-run-start: %s", got)
		}
		db.Close()
		var man struct {
			Nodes map[string]struct {
				Config struct {
					PreHook []struct {
						SQL         string `json:"sql"`
						Transaction bool   `json:"transaction"`
					} `json:"pre-hook"`
				} `json:"config"`
			} `json:"nodes"`
		}
		b, err := os.ReadFile(filepath.Join(dir, "target", "manifest.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &man); err != nil {
			t.Fatal(err)
		}
		pre := man.Nodes[sel].Config.PreHook
		if len(pre) != 3 || pre[0].Transaction || !pre[1].Transaction || pre[2].Transaction || !strings.Contains(pre[2].SQL, "pre_out") {
			t.Errorf("%s manifest pre-hook: %+v", sel, pre)
		}
	}
}

// TestYAMLHookRenderingToJSON: a YAML hook written "{{ after_commit('...') }}"
// (dbt keeps it unrendered, so its transaction flag is unknown until it
// runs) runs the SQL inside, with a warning that it ran where an inside
// hook runs.
func TestYAMLHookRenderingToJSON(t *testing.T) {
	files := shapeProject("hj", map[string]string{
		"models/log.sql":      "{{ config(materialized='table') }} select 'init' as step",
		"models/hooked/t.sql": "-- depends_on: {{ ref('log') }}\nselect 1 as id",
	})
	files["dbt_project.yml"] += "models:\n  hj:\n    hooked:\n      +post-hook: '{{ after_commit(\"insert into \" ~ ref(''log'') ~ \" values (''late'')\") }}'\n"
	rr, err, dir := hookRun(t, files)
	if err != nil {
		t.Fatal(err)
	}
	var warned []string
	for _, r := range rr.Results {
		if r.Status != executor.StatusSuccess {
			t.Fatalf("%s %s: %s", r.UniqueID, r.Status, r.Message)
		}
		warned = append(warned, r.Warnings...)
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "hook 1 of t renders to a hook with transaction: false") {
		t.Errorf("warnings: %q", warned)
	}
	db := shapeDB(t, dir)
	var s string
	if err := db.SQL().QueryRowContext(context.Background(), "select string_agg(step, ',' order by rowid) from test_schema.log").Scan(&s); err != nil || s != "init,late" {
		t.Errorf("log: %q %v", s, err)
	}
}

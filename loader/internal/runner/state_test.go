package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/executor"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// upToDateProject reads the loader's tables through sources: a view, a
// table, an incremental model that only adds new documents (a changed
// title inserts nothing), a table downstream of it, a seed branch that no
// load touches, and tests.
var upToDateProject = map[string]string{
	"project.yaml": "version: 1\nname: fixture\n",
	"models/sources.yml": `version: 2
sources:
  - name: raw
    schema: raw
    tables: [{name: documents}]
  - name: ops
    schema: ops
    tables: [{name: load_runs}]
`,
	"models/staging/stg_docs.sql":   "select doc_id, title, status from {{ source('raw', 'documents') }} where status <> 'deleted'\n",
	"models/curated/doc_titles.sql": "{{ config(materialized='table') }}\nselect doc_id, upper(title) as title from {{ ref('stg_docs') }}\n",
	// its pre-hooks: an upgrade, a scratch temp table of the indexed ids
	// (read by the delete and the model; no data change), a retraction
	"models/curated/landed_ids.sql": `{{ config(materialized='incremental', unique_key='doc_id',
    pre_hook=["{% if is_incremental() %}alter table {{ this }} add column if not exists doc_id varchar{% endif %}",
        "{% if is_incremental() %}create or replace temp table landed_known as select doc_id from {{ this }}{% endif %}",
        "{% if is_incremental() %}delete from {{ this }} where doc_id in (select doc_id from temp.landed_known except select doc_id from {{ ref('stg_docs') }} where status = 'landed'){% endif %}"]) }}
select doc_id from {{ ref('stg_docs') }} where status = 'landed'
{% if is_incremental() %}and doc_id not in (select doc_id from temp.landed_known){% endif %}
`,
	// a full build reads a scratch temp table its pre-hook made (as
	// curated.chunk_dup_index's batches do)
	"models/curated/landed_first.sql": `-- depends_on: {{ ref('stg_docs') }}
{{ config(materialized='incremental', unique_key='doc_id',
    pre_hook="{% if not is_incremental() %}create or replace temp table landed_first_ids as select doc_id from {{ ref('stg_docs') }} where status = 'landed'{% endif %}",
    post_hook="{% if not is_incremental() %}drop table if exists temp.landed_first_ids{% endif %}") }}
{% if is_incremental() %}select doc_id from {{ ref('stg_docs') }} where status = 'landed' and doc_id not in (select doc_id from {{ this }})
{% else %}select doc_id from temp.landed_first_ids{% endif %}
`,
	"models/curated/id_count.sql":       "{{ config(materialized='table') }}\nselect count(*) as n from {{ ref('landed_ids') }}\n",
	"models/curated/colors_upper.sql":   "{{ config(materialized='table') }}\nselect upper(name) as name from {{ ref('colors') }}\n",
	"seeds/colors.csv":                  "name\nred\nblue\n",
	"models/curated/schema.yml":         "version: 2\nmodels:\n  - name: doc_titles\n    columns:\n      - name: doc_id\n        tests: [not_null, unique]\n",
	"tests/titles_not_empty.sql":        "select * from {{ ref('doc_titles') }} where title = ''\n",
	"models/curated/doc_titles_v.sql":   "{{ config(materialized='view') }}\nselect * from {{ ref('doc_titles') }}\n",
	"models/curated/colors_count.sql":   "{{ config(materialized='table') }}\nselect count(*) as n from {{ ref('colors_upper') }}\n",
	"models/curated/landed_count_v.sql": "{{ config(materialized='view') }}\nselect * from {{ ref('id_count') }}\n",
	"models/curated/runs.sql":           "{{ config(materialized='table') }}\nselect count(*) as n from {{ source('ops', 'load_runs') }}\n",
	// the clock is not an input; a file and a table named without ref or
	// source are, and have no data version: never up to date
	"models/curated/stamped.sql":   "{{ config(materialized='table') }}\nselect current_date as day, n, g from {{ ref('id_count') }}, generate_series(1, 2) as s(g)\n",
	"models/curated/from_file.sql": "{{ config(materialized='table') }}\nselect * from read_csv('DIR/seeds/colors.csv')\n",
	"models/curated/unnamed.sql":   "{{ config(materialized='table') }}\nselect count(*) as n from main.extra\n",
}

// alwaysRun are the fixture's models that can never be up to date.
var alwaysRun = map[string]bool{"from_file": true, "unnamed": true}

// TestNoOpBuildSkipsAndChangeRebuilds: a second build with nothing
// changed runs no model, seed or test and rewrites no table; after a load
// that changes one document the nodes reading it rebuild, the others
// (and the readers of an incremental model that inserted nothing) are up
// to date, and every relation equals a --full-refresh build.
func TestNoOpBuildSkipsAndChangeRebuilds(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	for name, body := range upToDateProject {
		writeFile(t, filepath.Join(dir, name), []byte(strings.ReplaceAll(body, "DIR/", dir+"/")))
	}
	p, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	db, err := warehouse.Open(ctx, p.Warehouse, warehouse.Options{UDFs: testUDFs})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.EnsureSchema(ctx); err != nil {
		t.Fatal(err)
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.SQL().ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	load := func(id string, landed int, stmts ...string) { // what `docket load` does around its writes
		t.Helper()
		now := time.Now()
		if err := db.StartRun(ctx, warehouse.Run{ID: id, StartedAt: now}); err != nil {
			t.Fatal(err)
		}
		for _, q := range stmts {
			exec(q)
		}
		if err := db.FinishRun(ctx, warehouse.Run{ID: id, StartedAt: now, FinishedAt: time.Now(), Status: "completed", Landed: landed}); err != nil {
			t.Fatal(err)
		}
	}
	load("r1", 2, `insert into raw.documents (doc_id, source_name, rel_path, source_uri, title, status, first_seen_at, last_seen_at, last_run_id) values
		('d1','s','a.txt','file:///a.txt','alpha','landed',now(),now(),'r1'), ('d2','s','b.txt','file:///b.txt','beta','landed',now(),now(),'r1')`)

	build := func(opts executor.RunOptions) map[string]executor.Result {
		t.Helper()
		m, diags, err := compiler.Parse(p, compiler.ParseOptions{Owned: testOwned, UDFs: testFuncs})
		if err != nil || len(diags) > 0 {
			t.Fatalf("parse: %v %v", err, diags)
		}
		opts.Command, opts.Threads = "build", 2
		rr, err := executor.Execute(ctx, m, db, opts)
		if err != nil {
			t.Fatal(err)
		}
		target := filepath.Join(dir, "target")
		if err := executor.WriteArtifacts(m, target, rr); err != nil {
			t.Fatal(err)
		}
		validateTarget(t, target)
		out := map[string]executor.Result{}
		for _, r := range rr.Results {
			if r.Failed() || r.Status == executor.StatusSkipped {
				t.Fatalf("%s %s: %s", r.UniqueID, r.Status, r.Message)
			}
			out[r.Name] = r
		}
		return out
	}
	// oids: a table rebuilt under a temporary name and swapped in gets a
	// new one; an incremental insert changes its estimated size.
	oids := func() map[string]string {
		t.Helper()
		rows, err := db.SQL().QueryContext(ctx, `select schema_name || '.' || table_name, table_oid::varchar || '/' || estimated_size::varchar
			from duckdb_tables() where schema_name in ('curated', 'seeds', 'main')`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		out := map[string]string{}
		for rows.Next() {
			var k, v string
			rows.Scan(&k, &v)
			out[k] = v
		}
		return out
	}
	contents := func() map[string]string {
		t.Helper()
		out := map[string]string{}
		for _, rel := range []string{"staging.stg_docs", "curated.doc_titles", "curated.landed_ids", "curated.id_count",
			"curated.colors_upper", "curated.colors_count", "curated.doc_titles_v", "curated.landed_count_v", "seeds.colors"} {
			var s string
			if err := db.SQL().QueryRowContext(ctx, "select coalesce(string_agg(t::varchar, ';' order by t::varchar), '') from "+rel+" t").Scan(&s); err != nil {
				t.Fatalf("%s: %v", rel, err)
			}
			out[rel] = s
		}
		return out
	}

	exec("create table main.extra as select 1 as x") // read by a model without ref or source
	first := build(executor.RunOptions{})
	for name, r := range first {
		if r.UpToDate {
			t.Errorf("first build: %s up to date", name)
		}
	}
	before := oids()

	// Nothing changed: every node is up to date, no table is rewritten,
	// run_results.json says so with a dbt status.
	second := build(executor.RunOptions{})
	if len(second) != len(first) {
		t.Fatalf("second build ran %d nodes, first %d", len(second), len(first))
	}
	for name, r := range second {
		if alwaysRun[name] {
			if r.UpToDate {
				t.Errorf("no-op build: %s reported up to date", name)
			}
			delete(before, "curated."+name)
			continue
		}
		if !r.UpToDate || r.Message != executor.UpToDateMessage {
			t.Errorf("no-op build: %s %s %q, want up to date", name, r.Status, r.Message)
		}
	}
	after := oids()
	for name := range alwaysRun {
		delete(after, "curated."+name)
	}
	if fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("no-op build rewrote tables:\nbefore %v\nafter  %v", before, after)
	}
	var doc struct {
		Results []map[string]any `json:"results"`
	}
	b, _ := os.ReadFile(filepath.Join(dir, "target", "run_results.json"))
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for _, r := range doc.Results {
		if name, _ := r["unique_id"].(string); alwaysRun[name[strings.LastIndex(name, ".")+1:]] {
			continue
		}
		if r["message"] != executor.UpToDateMessage || (r["status"] != executor.StatusSuccess && r["status"] != executor.StatusPass) {
			t.Errorf("run_results.json: %v %v %q", r["unique_id"], r["status"], r["message"])
		}
	}

	// One document changes (its title): what reads it rebuilds; the seed
	// branch and id_count (landed_ids inserted nothing) stay up to date.
	// A load that found nothing new: only what reads ops.load_runs runs.
	load("r2", 0)
	for name, r := range build(executor.RunOptions{}) {
		if r.UpToDate == (name == "runs" || alwaysRun[name]) {
			t.Errorf("after a no-op load: %s up to date = %v (%s)", name, r.UpToDate, r.Message)
		}
	}

	load("r3", 1, `update raw.documents set title = 'gamma', last_seen_at = now(), last_run_id = 'r3' where doc_id = 'd2'`)
	third := build(executor.RunOptions{})
	wantRun := map[string]bool{"runs": true, "stg_docs": true, "doc_titles": true, "landed_ids": true, "landed_first": true, "doc_titles_v": true,
		"not_null_doc_titles_doc_id": true, "unique_doc_titles_doc_id": true, "titles_not_empty": true}
	for name, r := range third {
		if r.UpToDate == (wantRun[name] || alwaysRun[name]) {
			t.Errorf("after a change: %s up to date = %v, want %v (%s)", name, r.UpToDate, !wantRun[name], r.Message)
		}
	}
	if r := third["landed_ids"]; r.AdapterResponse.RowsAffected != 0 {
		t.Errorf("landed_ids inserted %d rows for a changed title", r.AdapterResponse.RowsAffected)
	}
	if got := contents(); !strings.Contains(got["curated.doc_titles"], "GAMMA") {
		t.Fatalf("doc_titles did not pick up the change: %s", got["curated.doc_titles"])
	}

	// A document is deleted: landed_ids' pre-hook retracts it (inserting
	// nothing), which changes its rows, so id_count rebuilds.
	load("r4", 0, `update raw.documents set status = 'deleted', last_run_id = 'r4' where doc_id = 'd1'`)
	exec("update ops.load_runs set deleted = 1 where run_id = 'r4'")
	if r := build(executor.RunOptions{})["id_count"]; r.UpToDate {
		t.Error("id_count up to date after landed_ids' pre-hook retracted a row")
	}
	incremental := contents()
	if incremental["curated.id_count"] != "{'n': 1}" {
		t.Errorf("id_count after the deletion: %s", incremental["curated.id_count"])
	}

	// A relation dropped behind the runner's back is rebuilt, not trusted.
	exec("drop table curated.colors_count")
	if r := build(executor.RunOptions{})["colors_count"]; r.UpToDate {
		t.Error("a dropped table was reported up to date")
	}

	// A lost record (a crash before it was written) rebuilds the node, and
	// its readers with it: its new data version is one they never saw.
	exec("delete from " + compiler.StateTable + " where unique_id = 'model.fixture.doc_titles'")
	lost := build(executor.RunOptions{})
	for _, name := range []string{"doc_titles", "doc_titles_v", "unnamed", "titles_not_empty"} {
		if lost[name].UpToDate {
			t.Errorf("after losing doc_titles' record: %s up to date", name)
		}
	}
	if !lost["landed_ids"].UpToDate || !lost["colors_upper"].UpToDate {
		t.Error("losing doc_titles' record rebuilt unrelated models")
	}

	full := build(executor.RunOptions{FullRefresh: true})
	for name, r := range full {
		if r.UpToDate {
			t.Errorf("--full-refresh: %s up to date", name)
		}
	}
	if got := contents(); fmt.Sprint(got) != fmt.Sprint(incremental) {
		t.Errorf("skipping build differs from --full-refresh:\nskipping %v\nfull     %v", incremental, got)
	}
}

package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/executor"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// docsView is a materialization written as dbt's guide to new
// materializations shows it: api.Relation.create from identifier, schema
// and database, statement('main') and the relations returned.
const docsView = `{%- materialization my_view, default -%}
  {%- set target_relation = api.Relation.create(
        identifier=identifier, schema=schema, database=database,
        type='view') -%}
  {{ run_hooks(pre_hooks) }}
  {% call statement('main') -%}
    {{ create_view_as(target_relation, sql) }}
  {%- endcall %}
  {{ run_hooks(post_hooks) }}
  {{ return({'relations': [target_relation]}) }}
{%- endmaterialization -%}
`

// swapTable builds a table the way dbt's own table materialization does:
// through an intermediate relation, the existing one moved to a backup
// and dropped after, hooks outside and inside the transaction, config
// read with config.get / require, docs and grants as dbt calls them.
const swapTable = `{% materialization swap_table, adapter='duckdb' %}
  {%- set existing_relation = load_cached_relation(this) -%}
  {%- set target_relation = this.incorporate(type='table') -%}
  {%- set intermediate_relation = make_intermediate_relation(target_relation) -%}
  {%- set preexisting_intermediate_relation = load_cached_relation(intermediate_relation) -%}
  {%- set backup_relation_type = 'table' if existing_relation is none else existing_relation.type -%}
  {%- set backup_relation = make_backup_relation(target_relation, backup_relation_type) -%}
  {%- set preexisting_backup_relation = load_cached_relation(backup_relation) -%}
  {%- set grant_config = config.get('grants') -%}
  {%- set label = config.require('label') -%}
  {{ drop_relation_if_exists(preexisting_intermediate_relation) }}
  {{ drop_relation_if_exists(preexisting_backup_relation) }}
  {{ run_hooks(pre_hooks, inside_transaction=False) }}
  {{ run_hooks(pre_hooks, inside_transaction=True) }}
  {% call statement('main') -%}
    {{ create_table_as(False, intermediate_relation, compiled_code) }}
  {%- endcall %}
  {% if existing_relation is not none %}
    {{ adapter.rename_relation(existing_relation, backup_relation) }}
  {% endif %}
  {{ adapter.rename_relation(intermediate_relation, target_relation) }}
  {% do create_indexes(target_relation) %}
  {{ run_hooks(post_hooks, inside_transaction=True) }}
  {% do apply_grants(target_relation, grant_config, should_revoke=should_revoke(existing_relation, full_refresh_mode=True)) %}
  {% do persist_docs(target_relation, model) %}
  {{ adapter.commit() }}
  {{ drop_relation_if_exists(backup_relation) }}
  {{ run_hooks(post_hooks, inside_transaction=False) }}
  {{ return({'relations': [target_relation]}) }}
{% endmaterialization %}
`

// TestCustomMaterializationsRun: a model whose materialized names a
// {% materialization %} block is built by running it (it was an error at
// the model's config): the docs-style view and a table built the way
// dbt's table materialization builds one (run twice, so the second run
// moves the existing table aside); hooks run once each, in order;
// run_results names the relation the block returned.
func TestCustomMaterializationsRun(t *testing.T) {
	files := shapeProject("cm", map[string]string{
		"macros/mats.sql": docsView + swapTable,
		"models/log.sql":  "{{ config(materialized='table') }} select 'init' as step",
		"models/v.sql":    "{{ config(materialized='my_view') }} select 1 as id union all select 2",
		"models/t.sql": "{{ config(materialized='swap_table', label='x', pre_hook=\"insert into {{ ref('log') }} values ('pre')\",\n" +
			"  post_hook=[\"insert into {{ ref('log') }} values ('post1')\", \"insert into {{ ref('log') }} values ('post2')\"]) }}\n" +
			"select id * 10 as id from {{ ref('v') }}",
	})
	rr, err, dir := hookRun(t, files)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rr.Results {
		if r.Status != executor.StatusSuccess {
			t.Fatalf("%s %s: %s", r.UniqueID, r.Status, r.Message)
		}
		if r.UniqueID == "model.cm.t" && (r.RelationName != "test_schema.t" || !strings.Contains(r.Message, "swap_table")) {
			t.Errorf("t's result: relation %q, message %q", r.RelationName, r.Message)
		}
	}
	// again: t exists, so the block renames it to the backup and drops that
	if rr, err = runDir(t, dir, "model.cm.t"); err != nil || rr.Results[0].Status != executor.StatusSuccess {
		t.Fatalf("second run: %v %+v", err, rr.Results)
	}
	db := shapeDB(t, dir)
	q := shapeQuery(t, db)
	if got := q("select string_agg(table_name || ':' || table_type, ',' order by table_name) from information_schema.tables where table_schema = 'test_schema'"); got != "log:BASE TABLE,t:BASE TABLE,v:VIEW" {
		t.Errorf("relations: %s", got)
	}
	if got := q("select string_agg(id::varchar, ',' order by id) from test_schema.t"); got != "10,20" {
		t.Errorf("t: %s", got)
	}
	if got := q("select string_agg(step, ',') from test_schema.log"); got != "init,pre,post1,post2,pre,post1,post2" {
		t.Errorf("hooks ran: %s", got)
	}
}

// TestCustomMaterializationMistakes: a block that returns no relations,
// or fails inside, fails its model with the block's file and line.
func TestCustomMaterializationMistakes(t *testing.T) {
	files := shapeProject("cm", map[string]string{
		"macros/mats.sql": "{% materialization quiet, default %}\n" +
			"  {% call statement('main') %}select 1{% endcall %}\n{% endmaterialization %}\n" +
			"{% materialization broken, default %}\n\n  {{ exceptions.raise_compiler_error('no way') }}\n{% endmaterialization %}\n",
		"models/a.sql": "{{ config(materialized='quiet') }} select 1 as id",
		"models/b.sql": "{{ config(materialized='broken') }} select 1 as id",
	})
	rr, _, _ := hookRun(t, files)
	got := map[string]string{}
	for _, r := range rr.Results {
		got[r.UniqueID] = r.Status + " " + r.Message
	}
	if a := got["model.cm.a"]; !strings.HasPrefix(a, "error macros/mats.sql:1:1: materialization quiet (macros/mats.sql:1): did not explicitly return a list of relations") {
		t.Errorf("a: %s", a)
	}
	if b := got["model.cm.b"]; !strings.HasPrefix(b, "error models/b.sql:1:") || !strings.Contains(b, "macros/mats.sql:6") || !strings.Contains(b, "no way") {
		t.Errorf("b: %s", b)
	}
}

// TestCustomMaterializedViewCallingUDF: a view a materialization builds
// keeps docket's rule for views (no Go UDF: it only exists inside
// docket): the model fails and the view is dropped.
func TestCustomMaterializedViewCallingUDF(t *testing.T) {
	ctx := context.Background()
	dir := writeProbe(t, shapeProject("cm", map[string]string{
		"macros/mats.sql": docsView,
		"models/v.sql":    "{{ config(materialized='my_view') }} select shout('a') as s",
	}))
	p, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	db, err := warehouse.Open(ctx, p.Warehouse, warehouse.Options{UDFs: testUDFs})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m, diags, err := compiler.Parse(p, compiler.ParseOptions{Owned: testOwned, UDFs: testFuncs})
	if err != nil || len(diags) > 0 {
		t.Fatal(err, diags)
	}
	rr, _ := executor.Execute(ctx, m, db, executor.RunOptions{Command: "run", Threads: 1})
	if r := rr.Results[0]; r.Status != executor.StatusError || !strings.Contains(r.Message, "calls Go UDF shout()") {
		t.Errorf("v: %s %s", r.Status, r.Message)
	}
	var n int
	if err := db.SQL().QueryRowContext(ctx, "select count(*) from duckdb_views() where view_name = 'v'").Scan(&n); err != nil || n != 0 {
		t.Errorf("view v left: %d %v", n, err)
	}
}

// TestCustomMaterializationUnrunHooksWarn: a block that never calls
// run_hooks() leaves the model's hooks unrun (as dbt does); that is said
// as a warning at the model's config naming the hooks and the block (it
// was silent). A block that runs them says nothing.
func TestCustomMaterializationUnrunHooksWarn(t *testing.T) {
	files := shapeProject("cm", map[string]string{
		"macros/mats.sql": docsView + "{% materialization bare, default %}\n" +
			"  {%- set rel = this.incorporate(type='table') -%}\n" +
			"  {% call statement('main') -%}{{ create_table_as(False, rel, sql) }}{%- endcall %}\n" +
			"  {{ return({'relations': [rel]}) }}\n{% endmaterialization %}\n",
		"models/a.sql": "{{ config(materialized='bare', pre_hook='select 1', post_hook=['select 2', 'select 3']) }}\nselect 1 as id",
		"models/v.sql": "{{ config(materialized='my_view', pre_hook='select 1') }}\nselect 1 as id",
	})
	rr, err, _ := hookRun(t, files)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rr.Results {
		if r.Status != executor.StatusSuccess {
			t.Fatalf("%s %s: %s", r.UniqueID, r.Status, r.Message)
		}
		switch r.UniqueID {
		case "model.cm.a":
			if len(r.Warnings) != 1 || !strings.HasPrefix(r.Warnings[0], "models/a.sql:1: pre_hook 1, post_hook 1, post_hook 2 of a not run: materialization bare (macros/mats.sql:") {
				t.Errorf("a's warnings: %q", r.Warnings)
			}
		case "model.cm.v":
			if len(r.Warnings) != 0 {
				t.Errorf("v ran its hooks, but: %q", r.Warnings)
			}
		}
	}
}

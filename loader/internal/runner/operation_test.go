package runner

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// opProbe is a project whose macros run-operation calls: one writes
// through statement and run_query with its keyword arguments, one renders
// SQL text it never runs and returns a value (both discarded, as dbt
// discards them), one raises, and a package's macro of the same name as a
// root one.
var opProbe = map[string]string{
	"models/m/a.sql": "{{ config(materialized='table') }} select 1 as id",
	"macros/ops.sql": `{% macro log_grant(role, n=1, tags=[]) %}
{% call statement('mk') %}create table if not exists {{ target.schema }}.grants (role varchar, n int, tags varchar){% endcall %}
{% set top = run_query('select max(id) from ' ~ ref('a')).columns[0].values()[0] %}
{% do run_query("insert into " ~ target.schema ~ ".grants values ('" ~ role ~ "', " ~ (n + top) ~ ", '" ~ (tags | join('+')) ~ "')") %}
{% endmacro %}
{% macro only_text() %}
drop table {{ ref('a') }}
{{ return('ignored') }}
{% endmacro %}
{% macro boom() %}
{{ exceptions.raise_compiler_error('no grants today') }}
{% endmacro %}
{% macro tx_idioms() %}
{% do run_query("create table " ~ target.schema ~ ".kept as select 1 as x") %}{% do run_query('commit') %}
{% do run_query('begin') %}{% do run_query("create table " ~ target.schema ~ ".undone as select 1 as x") %}{% do run_query('rollback;') %}
{% call statement('b') %}BEGIN TRANSACTION{% endcall %}{% do run_query("create table " ~ target.schema ~ ".committed as select 1 as x") %}{% call statement('c') %}commit;{% endcall %}
{% do run_query('begin') %}{% do run_query("create table " ~ target.schema ~ ".left_open as select 1 as x") %}
{% endmacro %}
{% macro twin() %}{% do run_query("create table " ~ target.schema ~ ".twin_root as select 1 as x") %}{% endmacro %}
{% macro echo_kwargs() %}{% do run_query("create table " ~ target.schema ~ ".echoed as select '" ~ kwargs['if'] ~ "|" ~ kwargs['bad key'] ~ "' as v") %}{% endmacro %}
`,
	"dbt_packages/p/dbt_project.yml": "name: p\nversion: '1'\nconfig-version: 2\n",
	"dbt_packages/p/macros/p.sql": `{% macro tx_idioms() %}
{% do run_query("create table " ~ target.schema ~ ".kept as select 1 as x") %}{% do run_query('commit') %}
{% do run_query('begin') %}{% do run_query("create table " ~ target.schema ~ ".undone as select 1 as x") %}{% do run_query('rollback;') %}
{% call statement('b') %}BEGIN TRANSACTION{% endcall %}{% do run_query("create table " ~ target.schema ~ ".committed as select 1 as x") %}{% call statement('c') %}commit;{% endcall %}
{% do run_query('begin') %}{% do run_query("create table " ~ target.schema ~ ".left_open as select 1 as x") %}
{% endmacro %}
{% macro twin() %}{% do run_query("create table " ~ target.schema ~ ".twin_p as select 1 as x") %}{% endmacro %}
{% macro p_only() %}{% do run_query("create table " ~ target.schema ~ ".p_only as select 1 as x") %}{% endmacro %}`,
}

// TestRunOperation: run-operation as dbt's: the macro runs once with the
// --args mapping as keyword arguments and a connection for statement and
// run_query; its rendered text and return value are discarded; a failing
// macro is one error result (failures 1, its message); a macro no package
// has is UndefinedMacroError; pkg.name and a bare name resolve as dbt's
// find_macro_by_name (root first, then packages).
func TestRunOperation(t *testing.T) {
	ctx := context.Background()
	m, diags := parseProbe(t, writeProbe(t, opProbe))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	db, rr := buildProbe(t, m)
	if rr.Failed() {
		t.Fatalf("build: %+v", rr.Results)
	}
	run := func(macro string, args map[string]any) executor.Result {
		t.Helper()
		op, err := m.FindOperation(macro)
		if err != nil {
			t.Fatalf("%s: %v", macro, err)
		}
		rr, err := executor.RunOperation(ctx, m, db, op, args)
		if err != nil {
			t.Fatalf("%s: %v", macro, err)
		}
		if len(rr.Results) != 1 {
			t.Fatalf("%s: %d results, want 1", macro, len(rr.Results))
		}
		return rr.Results[0]
	}
	r := run("log_grant", map[string]any{"role": "reporter", "n": 41, "tags": []any{"x", "y"}})
	if r.Status != executor.StatusSuccess || r.UniqueID != "macro.probe.log_grant" || r.Failures == nil || *r.Failures != 0 {
		t.Fatalf("log_grant: %+v", r)
	}
	var got string
	if err := db.SQL().QueryRow("select role || ':' || n || ':' || tags from main.grants").Scan(&got); err != nil || got != "reporter:42:x+y" {
		t.Errorf("grants: %q %v, want reporter:42:x+y (args as keyword arguments, run_query's value)", got, err)
	}
	if r := run("probe.only_text", nil); r.Status != executor.StatusSuccess {
		t.Errorf("only_text: %+v", r)
	}
	var n int
	if err := db.SQL().QueryRow("select count(*) from m.a").Scan(&n); err != nil || n != 1 {
		t.Errorf("m.a after only_text: %d %v: the macro's rendered text must not run", n, err)
	}
	r = run("boom", nil)
	if r.Status != executor.StatusError || r.Failures == nil || *r.Failures != 1 || !strings.Contains(r.Message, "no grants today") {
		t.Errorf("boom: %+v", r)
	}
	run("twin", nil)
	run("p.twin", nil)
	run("p_only", nil)
	for _, tbl := range []string{"twin_root", "twin_p", "p_only"} {
		if err := db.SQL().QueryRow("select count(*) from main." + tbl).Scan(&n); err != nil {
			t.Errorf("%s: %v", tbl, err)
		}
	}
	if r := run("p.twin", nil); r.UniqueID != "macro.p.twin" {
		t.Errorf("p.twin's unique_id %q", r.UniqueID)
	}
	for _, name := range []string{"nope", "p.log_grant", "q.twin"} {
		_, err := m.FindOperation(name)
		var ue *compiler.UndefinedMacroError
		if !errors.As(err, &ue) {
			t.Errorf("%s: %v, want UndefinedMacroError", name, err)
		}
	}
	// dbt's transaction idioms: a commit with none open is nothing, a
	// begin/rollback undoes, a begin never ended is rolled back at the end
	if r := run("tx_idioms", nil); r.Status != executor.StatusSuccess {
		t.Errorf("tx_idioms: %+v", r)
	}
	var tables string
	db.SQL().QueryRow("select string_agg(table_name, ',' order by table_name) from information_schema.tables where table_name in ('kept', 'undone', 'committed', 'left_open')").Scan(&tables)
	if tables != "committed,kept" {
		t.Errorf("tables after tx_idioms: %q, want committed,kept", tables)
	}
	if r := run("log_grant", map[string]any{"bad key": 1}); r.Status != executor.StatusError {
		t.Errorf("a key that is no name: %+v", r)
	}
	// the mapping reaches the macro as dbt's macro(**args): a key that is a
	// Jinja keyword or no name at all is the macro's unexpected keyword
	// argument (not a template parse error), and a macro reading kwargs
	// gets it
	if r := run("log_grant", map[string]any{"if": 1, "role": "r"}); r.Status != executor.StatusError || !strings.Contains(r.Message, "keyword argument 'if'") {
		t.Errorf("a Jinja keyword as a key: %+v, want the macro's unexpected keyword argument 'if'", r)
	}
	if r := run("echo_kwargs", map[string]any{"if": "a", "bad key": "b"}); r.Status != executor.StatusSuccess {
		t.Errorf("echo_kwargs: %+v", r)
	}
	if err := db.SQL().QueryRow("select v from main.echoed").Scan(&got); err != nil || got != "a|b" {
		t.Errorf("echoed: %q %v, want a|b (keys as kwargs)", got, err)
	}
	if r := run("log_grant", map[string]any{"nobody": 1, "role": "r"}); r.Status != executor.StatusError {
		t.Errorf("an argument the macro lacks: %+v", r)
	}
}

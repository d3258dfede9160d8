package cli_test

import (
	"strings"
	"testing"
)

// TestFlagsAsTheCommandHasThem: dbt's flags.WHICH is the subcommand
// (dbt-core's Flags: WHICH = the invoked subcommand's name) and
// flags.FULL_REFRESH the invocation's --full-refresh, compile included.
// docket's WHICH was "run" for build and run-operation, and `docket
// compile --full-refresh` rendered FULL_REFRESH False (review41 LOW 8).
// They are the invocation's at parse too, where config() is decided
// (review42): a materialization chosen on flags.WHICH == 'build' or on
// flags.FULL_REFRESH was a view under build / --full-refresh (parse saw
// 'compile' and False), and ls's WHICH is dbt's 'list'.
func TestFlagsAsTheCommandHasThem(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"dbt_project.yml":   "name: fl\nversion: '1'\nconfig-version: 2\nprofile: p\n",
		"profiles.yml":      "p:\n  target: dev\n  outputs:\n    dev: {type: duckdb, path: fl.duckdb, schema: main}\n",
		"models/f.sql":      "{{ config(materialized='table') }} select '{{ flags.WHICH }}' as which, {{ flags.FULL_REFRESH }} as fr",
		"macros/w.sql":      "{% macro which() %}{{ log('which=' ~ flags.WHICH ~ ' fr=' ~ flags.FULL_REFRESH, info=True) }}{% endmacro %}\n",
		"models/mat.sql":    "{{ config(materialized=('table' if flags.WHICH == 'build' else 'view')) }} select 1 as id",
		"models/frm.sql":    "{{ config(materialized=('table' if flags.FULL_REFRESH else 'view')) }} select 1 as id",
		"models/tagged.sql": "{{ config(tags=[flags.WHICH]) }} select 1 as id",
	})
	kinds := func() string {
		return must(t, dir, "sql", "select string_agg(table_name || ':' || table_type, ' ' order by table_name) as k from information_schema.tables where table_name in ('mat', 'frm')")
	}
	must(t, dir, "build")
	if got := must(t, dir, "sql", "select which || ':' || fr as w from main.f"); !strings.Contains(got, "build:false") {
		t.Errorf("build wrote %s, want build:false", got)
	}
	if got := kinds(); !strings.Contains(got, "frm:VIEW mat:BASE TABLE") {
		t.Errorf("after build: %s, want frm a view, mat a table", got)
	}
	must(t, dir, "run", "--full-refresh")
	if got := kinds(); !strings.Contains(got, "frm:BASE TABLE mat:VIEW") {
		t.Errorf("after run --full-refresh: %s, want frm a table, mat a view", got)
	}
	if out := must(t, dir, "ls", "-s", "tag:list"); !strings.Contains(out, "tagged") {
		t.Errorf("ls -s tag:list (flags.WHICH under ls):\n%s", out)
	}
	if got := must(t, dir, "sql", "select which || ':' || fr as w from main.f"); !strings.Contains(got, "run:true") {
		t.Errorf("run --full-refresh wrote %s, want run:true", got)
	}
	if out := must(t, dir, "compile", "-s", "f"); !strings.Contains(out, "select 'compile' as which, False as fr") {
		t.Errorf("compile:\n%s", out)
	}
	if out := must(t, dir, "compile", "--full-refresh", "-s", "f"); !strings.Contains(out, "select 'compile' as which, True as fr") {
		t.Errorf("compile --full-refresh:\n%s", out)
	}
	if out := must(t, dir, "run-operation", "which"); !strings.Contains(out, "which=run-operation fr=False") {
		t.Errorf("run-operation:\n%s", out)
	}
}

package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunOperation: `docket run-operation MACRO --args '{...}'` as dbt's:
// the macro runs with its keyword arguments and a connection (what it
// writes is published for readers), run_results.json holds its one result
// (macro.<project>.<name>, valid against dbt's schema); a failing macro
// exits 1 with its error, a macro no package has and --args that is no
// mapping exit 2. Fails on main (no such command: exit 2).
func TestRunOperation(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"dbt_project.yml": "name: ops\nversion: '1'\nconfig-version: 2\nprofile: p\n",
		"profiles.yml":    "p:\n  target: dev\n  outputs:\n    dev: {type: duckdb, path: ops.duckdb, schema: main}\n",
		"models/a.sql":    "{{ config(materialized='table') }} select 1 as id",
		"macros/grant.sql": "{% macro grant_to(role, days=1) %}\n" +
			"{% do run_query('create or replace table ' ~ target.schema ~ '.granted as select ' ~ \"'\" ~ role ~ \"'\" ~ ' as role, ' ~ days ~ ' as days, (select count(*) from ' ~ ref('a') ~ ') as n') %}\n" +
			"{{ log('granted to ' ~ role, info=True) }}\n" +
			"{% endmacro %}\n" +
			"{% macro boom() %}{{ exceptions.raise_compiler_error('no grants today') }}{% endmacro %}\n",
	}
	for f, b := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755)
		os.WriteFile(filepath.Join(dir, f), []byte(b), 0o644)
	}
	must(t, dir, "build")
	out := must(t, dir, "run-operation", "grant_to", "--args", "{role: reporter, days: 7}")
	if !strings.Contains(out, "granted to reporter") {
		t.Errorf("the macro's log line is missing:\n%s", out)
	}
	got := must(t, dir, "sql", "select role || ':' || days || ':' || n as r from main.granted")
	if !strings.Contains(got, "reporter:7:1") {
		t.Errorf("what the macro wrote, as readers see it:\n%s", got)
	}
	b, err := os.ReadFile(filepath.Join(dir, "target", "run_results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rr struct {
		Results []struct {
			UniqueID string `json:"unique_id"`
			Status   string
			Failures int
		}
	}
	if json.Unmarshal(b, &rr) != nil || len(rr.Results) != 1 || rr.Results[0].UniqueID != "macro.ops.grant_to" || rr.Results[0].Status != "success" {
		t.Errorf("run_results.json: %s", b)
	}
	validateDBTArtifacts(t, filepath.Join(dir, "target"))

	if out, code := run(t, dir, "run-operation", "boom"); code != 1 || !strings.Contains(out, "no grants today") {
		t.Errorf("a failing macro: exit %d, want 1 with its error:\n%s", code, out)
	}
	if out, code := run(t, dir, "run-operation", "no_such_macro"); code != 2 || !strings.Contains(out, "could not find a macro with the name 'no_such_macro'") {
		t.Errorf("an unknown macro: exit %d, want 2:\n%s", code, out)
	}
	if out, code := run(t, dir, "run-operation", "grant_to", "--args", "[1, 2]"); code != 2 || !strings.Contains(out, "--args is not a YAML mapping") {
		t.Errorf("--args not a mapping: exit %d, want 2:\n%s", code, out)
	}
}

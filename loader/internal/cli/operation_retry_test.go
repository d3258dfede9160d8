package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRetryRunOperation: `docket retry` after a run-operation that failed
// runs the operation again with its --args, as dbt's retry does (it said
// it could not repeat it); after a success there is nothing to retry. The
// macro shows its table with agate's print_table().
func TestRetryRunOperation(t *testing.T) {
	dir := t.TempDir()
	macro := func(body string) {
		os.WriteFile(filepath.Join(dir, "macros", "note.sql"), []byte("{% macro note(msg, n=1) %}\n"+body+"\n{% endmacro %}\n"), 0o644)
	}
	files := map[string]string{
		"dbt_project.yml": "name: ops\nversion: '1'\nconfig-version: 2\nprofile: p\n",
		"profiles.yml":    "p:\n  target: dev\n  outputs:\n    dev: {type: duckdb, path: ops.duckdb, schema: main}\n",
		"models/a.sql":    "{{ config(materialized='table') }} select 1 as id",
	}
	for f, b := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755)
		os.WriteFile(filepath.Join(dir, f), []byte(b), 0o644)
	}
	os.MkdirAll(filepath.Join(dir, "macros"), 0o755)
	macro("{{ exceptions.raise_compiler_error('not today') }}")
	must(t, dir, "build")
	if out, code := run(t, dir, "run-operation", "note", "--args", "{msg: hello, n: 3}"); code != 1 || !strings.Contains(out, "not today") {
		t.Fatalf("the failing operation: exit %d\n%s", code, out)
	}
	macro("{% do run_query(\"create or replace table main.notes as select '\" ~ msg ~ \"' as msg, \" ~ n ~ \" as n\") %}\n" +
		"{% do run_query('select * from main.notes').print_table() %}")
	out := must(t, dir, "retry")
	if !strings.Contains(out, "Retrying `docket run-operation note`") || !strings.Contains(out, "| msg   | n |") || !strings.Contains(out, "| hello | 3 |") {
		t.Fatalf("retry should run the operation with its args and print its table:\n%s", out)
	}
	if got := query(t, dir, "select msg || n from main.notes"); got[0] != "hello3" {
		t.Errorf("notes after the retry: %v", got)
	}
	if out := must(t, dir, "retry"); !strings.Contains(out, "Nothing to retry") {
		t.Errorf("second retry:\n%s", out)
	}
}

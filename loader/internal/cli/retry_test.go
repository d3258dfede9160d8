package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// martsProject is a loaded tinyProject with table models marts.<name>
// (name → SQL); it returns the folder and the models' folder.
func martsProject(t *testing.T, sql map[string]string) (dir, models string) {
	t.Helper()
	dir = tinyProject(t)
	models = filepath.Join(dir, "models", "marts")
	os.MkdirAll(models, 0o755)
	for name, q := range sql {
		os.WriteFile(filepath.Join(models, name+".sql"), []byte("{{ config(materialized='table') }}\n"+q+"\n"), 0o644)
	}
	must(t, dir, "load", "--quiet")
	return dir, models
}

// TestRetryAndResultSelectors: a build where one model errors and its
// child is skipped; result: selectors read that run (--state DIR); after
// the fix, docket retry re-runs exactly the errored and skipped nodes with
// the same command, and then has nothing left to retry.
func TestRetryAndResultSelectors(t *testing.T) {
	dir, models := martsProject(t, map[string]string{"ok": "select 1 as id", "bad": "select * from no_such_table",
		"child": "select * from {{ ref('bad') }}"})
	out, code := run(t, dir, "build")
	if code != 1 {
		t.Fatalf("build with a broken model should exit 1, got %d:\n%s", code, out)
	}
	state := filepath.Join(t.TempDir(), "state")
	os.CopyFS(state, os.DirFS(filepath.Join(dir, "target")))

	if out := must(t, dir, "ls", "-s", "result:error", "--state", state); strings.TrimSpace(out) != "model\tmarts.bad\ttable" {
		t.Fatalf("ls -s result:error:\n%s", out)
	}
	if out := must(t, dir, "ls", "-s", "result:skipped", "--state", state); strings.TrimSpace(out) != "model\tmarts.child\ttable" {
		t.Fatalf("ls -s result:skipped:\n%s", out)
	}
	if out := must(t, dir, "ls", "-s", "result:fail", "--state", state); strings.TrimSpace(out) != "" {
		t.Fatalf("nothing failed a test, but result:fail selected:\n%s", out)
	}
	if _, code := run(t, dir, "ls", "-s", "result:broken", "--state", state); code != 2 {
		t.Fatal("an unknown result status should be a usage error")
	}

	os.WriteFile(filepath.Join(models, "bad.sql"), []byte("{{ config(materialized='table') }}\nselect 2 as id\n"), 0o644)
	out = must(t, dir, "retry")
	if !strings.Contains(out, "Retrying `docket build` for 2 nodes that failed or were skipped: bad child") {
		t.Fatalf("retry should name what it re-runs:\n%s", out)
	}
	if !strings.Contains(out, "marts.bad") || !strings.Contains(out, "marts.child") || strings.Contains(out, "marts.ok") || !strings.Contains(out, "TOTAL=2") {
		t.Fatalf("retry should run bad and child only:\n%s", out)
	}
	if !strings.Contains(out, "published warehouse.read.duckdb") {
		t.Fatalf("a successful retry publishes:\n%s", out)
	}
	if out := must(t, dir, "retry"); !strings.Contains(out, "Nothing to retry") {
		t.Fatalf("second retry:\n%s", out)
	}
	if n := query(t, dir, "select count(*) from marts.child"); n[0] != "1" {
		t.Fatalf("child after retry has %v rows", n)
	}
}

// TestBuildEmptyAndRetry: `docket build --empty` builds the models with
// no rows wherever they read a ref (a model of constants keeps its row),
// run_results.json says empty, and docket retry re-runs what failed with
// --empty too.
func TestBuildEmptyAndRetry(t *testing.T) {
	dir, models := martsProject(t, map[string]string{"a": "select 1 as id", "b": "select * from {{ ref('a') }} as x",
		"bad": "select * from {{ ref('a') }} join no_such_table using (id)"})
	if out, code := run(t, dir, "build", "--empty", "-s", "marts"); code != 1 {
		t.Fatalf("build --empty with a broken model should exit 1, got %d:\n%s", code, out)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "target", "run_results.json"))
	if !strings.Contains(string(b), `"empty": true`) {
		t.Errorf("run_results.json args lack empty: true")
	}
	os.WriteFile(filepath.Join(models, "bad.sql"), []byte("{{ config(materialized='table') }}\nselect * from {{ ref('a') }}\n"), 0o644)
	if out := must(t, dir, "retry"); !strings.Contains(out, "TOTAL=1") {
		t.Fatalf("retry should run bad only:\n%s", out)
	}
	if n := query(t, dir, "select (select count(*) from marts.a) || ' ' || (select count(*) from marts.b) || ' ' || (select count(*) from marts.bad)"); n[0] != "1 0 0" {
		t.Fatalf("rows of a, b, bad after build --empty and its retry: %v, want 1 0 0", n)
	}
}

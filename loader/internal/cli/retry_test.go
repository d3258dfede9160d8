package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRetryAndResultSelectors: a build where one model errors and its
// child is skipped; result: selectors read that run (--state DIR); after
// the fix, docket retry re-runs exactly the errored and skipped nodes with
// the same command, and then has nothing left to retry.
func TestRetryAndResultSelectors(t *testing.T) {
	dir := tinyProject(t)
	models := filepath.Join(dir, "models", "marts")
	os.MkdirAll(models, 0o755)
	os.WriteFile(filepath.Join(models, "ok.sql"), []byte("{{ config(materialized='table') }}\nselect 1 as id\n"), 0o644)
	os.WriteFile(filepath.Join(models, "bad.sql"), []byte("{{ config(materialized='table') }}\nselect * from no_such_table\n"), 0o644)
	os.WriteFile(filepath.Join(models, "child.sql"), []byte("{{ config(materialized='table') }}\nselect * from {{ ref('bad') }}\n"), 0o644)
	must(t, dir, "load", "--quiet")
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

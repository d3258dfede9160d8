package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDeferReadsUnbuiltParentsFromState: a dev target (another DuckDB
// file) builds one changed model; with --defer --state its parent, which
// the dev file lacks and the run does not build, is read from the
// relation the prod run's manifest records (prod's file, attached
// read-only); a parent the dev file has wins unless --favor-state.
func TestDeferReadsUnbuiltParentsFromState(t *testing.T) {
	dir := tinyProject(t)
	os.WriteFile(filepath.Join(dir, "dbt_project.yml"), []byte("name: tiny\nversion: '1.0'\nprofile: tiny\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "profiles.yml"), []byte(`tiny:
  target: prod
  outputs:
    prod: {type: duckdb, path: warehouse.duckdb}
    dev: {type: duckdb, path: dev.duckdb}
`), 0o644)
	models := filepath.Join(dir, "models", "marts")
	os.MkdirAll(models, 0o755)
	write := func(name, body string) { os.WriteFile(filepath.Join(models, name), []byte(body), 0o644) }
	write("a.sql", "{{ config(materialized='table') }}\nselect * from range(2) t(id)\n")
	write("b.sql", "{{ config(materialized='table') }}\nselect count(*) as n from {{ ref('a') }}\n")
	must(t, dir, "build")
	state := filepath.Join(t.TempDir(), "prod-target")
	os.CopyFS(state, os.DirFS(filepath.Join(dir, "target")))

	write("b.sql", "{{ config(materialized='table') }}\nselect count(*) * 10 as n from {{ ref('a') }}\n")
	if out, code := run(t, dir, "build", "--target", "dev", "-s", "b"); code != 1 {
		t.Fatalf("without --defer, b's parent is missing in dev: want exit 1, got %d\n%s", code, out)
	}
	out := must(t, dir, "build", "--target", "dev", "-s", "b", "--defer", "--state", state)
	if !strings.Contains(out, "Deferred 1 unbuilt parent to the state's relations: a") {
		t.Fatalf("the run should say what it deferred:\n%s", out)
	}
	dev := "attach '" + filepath.Join(dir, "dev.duckdb") + "' as dev (read_only); "
	n := func() string {
		t.Helper()
		out := must(t, dir, "sql", "--allow-external", dev+"select 'n=' || n from dev.main.b")
		return strings.TrimSpace(strings.Split(strings.TrimSpace(out), "\n")[1])
	}
	if got := n(); got != "n=20" {
		t.Fatalf("dev's b should count prod's 2 rows of a times 10, got %s", got)
	}
	if out := must(t, dir, "sql", "--allow-external", dev+"select count(*) from information_schema.tables where table_catalog = 'dev' and table_name = 'a'"); !strings.Contains(out, "0") {
		t.Fatalf("--defer must not build a in dev:\n%s", out)
	}

	// dev builds its own a (5 rows): now the target has it, so it wins ...
	write("a.sql", "{{ config(materialized='table') }}\nselect * from range(5) t(id)\n")
	must(t, dir, "build", "--target", "dev", "-s", "a")
	out = must(t, dir, "build", "--target", "dev", "-s", "b", "--defer", "--state", state)
	if strings.Contains(out, "Deferred") {
		t.Fatalf("a parent the target has is not deferred:\n%s", out)
	}
	if got := n(); got != "n=50" {
		t.Fatalf("dev's b should read dev's a, got %s", got)
	}
	// ... unless --favor-state
	must(t, dir, "build", "--target", "dev", "-s", "b", "--defer", "--favor-state", "--state", state)
	if got := n(); got != "n=20" {
		t.Fatalf("--favor-state: dev's b should read prod's a, got %s", got)
	}
	if out, code := run(t, dir, "build", "--target", "dev", "-s", "b", "--defer"); code != 2 || !strings.Contains(out, "--state") {
		t.Fatalf("--defer without --state is a usage error naming --state, got %d:\n%s", code, out)
	}
}

package project

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestProfileJinjaRendered: profiles.yml values are Jinja as dbt renders
// them, not only a bare env_var(): victoru2/duck-quant's
// path: "{{ '../' ~ env_var('DATABASE_PATH') }}" was refused ("docket
// renders only env_var('NAME'[, default])"), a hand edit for every user.
// A missing env var without a default is still an error naming it.
func TestProfileJinjaRendered(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "dbt_project.yml", "name: q\nprofile: q\n")
	writeFile(t, dir, "profiles.yml", `q:
  target: "{{ env_var('Q_TARGET', 'dev') | lower }}"
  outputs:
    dev:
      type: duckdb
      path: "{{ '../' ~ env_var('Q_DB_PATH') }}"
      schema: "{{ 'raw' if env_var('Q_RAW', '') else 'main' }}"
      threads: "{{ 1 + 1 }}"
`)
	t.Setenv("DBT_PROFILES_DIR", dir)
	t.Setenv("Q_TARGET", "DEV")
	t.Setenv("Q_DB_PATH", "database.duckdb")
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(filepath.Dir(dir), "database.duckdb"); p.Warehouse != want || p.Target.Schema != "main" || p.Target.Threads != 2 || p.Target.Name != "dev" {
		t.Errorf("warehouse %s (want %s), schema %s, threads %d, target %s", p.Warehouse, want, p.Target.Schema, p.Target.Threads, p.Target.Name)
	}
	t.Setenv("Q_DB_PATH", "")
	if _, err := Load(dir); err != nil {
		t.Errorf("an env var set to '' is a value: %v", err)
	}
	writeFile(t, dir, "profiles.yml", "q:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n      path: \"{{ '../' ~ env_var('Q_UNSET_PATH') }}\"\n")
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "Q_UNSET_PATH") {
		t.Errorf("a missing env var: %v", err)
	}
}

package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompileReadsTheWarehouse: `docket compile` of a model whose
// template reads the database renders it as dbt parses it (execute=false,
// with a note) while there is no warehouse, and with the warehouse's
// data once there is one, as dbt compiles with its connection; a unit
// test's SQL (its fixtures typed as its inputs' columns) is compiled once
// the warehouse exists and shown when it alone is selected.
func TestCompileReadsTheWarehouse(t *testing.T) {
	dir := tinyProject(t)
	os.MkdirAll(filepath.Join(dir, "models", "marts"), 0o755)
	os.MkdirAll(filepath.Join(dir, "seeds"), 0o755)
	os.WriteFile(filepath.Join(dir, "seeds", "s.csv"), []byte("id\n1\n7\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "models", "marts", "top.sql"), []byte(
		"{% set r = run_query('select max(id) from ' ~ ref('s')) %}\nselect {{ r.columns[0].values()[0] if execute else 0 }} as top\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "models", "marts", "twice.sql"), []byte("select id * 2 as twice from {{ ref('s') }}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "models", "marts", "u.yml"), []byte("unit_tests:\n  - name: doubles\n    model: twice\n"+
		"    given: [{input: \"ref('s')\", rows: [{id: 3}]}]\n    expect: {rows: [{twice: 6}]}\n"), 0o644)
	out := must(t, dir, "compile", "-s", "top")
	if !strings.Contains(out, "select 0 as top") || !strings.Contains(out, "1 node reads the database while rendering and there is no warehouse yet") {
		t.Errorf("compile without a warehouse:\n%s", out)
	}
	if out := must(t, dir, "compile"); !strings.Contains(out, "1 unit test not compiled") {
		t.Errorf("compile of the unit test without a warehouse:\n%s", out)
	}
	must(t, dir, "seed")
	out = must(t, dir, "compile", "-s", "top")
	if !strings.Contains(out, "select 7 as top") || strings.Contains(out, "no warehouse yet") {
		t.Errorf("compile with the warehouse:\n%s", out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "target", "compiled", "tiny", "models", "marts", "top.sql"))
	if err != nil || !strings.Contains(string(b), "select 7 as top") {
		t.Errorf("compiled file: %q %v", b, err)
	}
	out = must(t, dir, "compile", "-s", "doubles")
	if !strings.Contains(out, `__dbt__cte__s as (`) || !strings.Contains(out, "cast(3 as INTEGER) as id") || !strings.Contains(out, `from __dbt__cte__s`) {
		t.Errorf("compile of the unit test:\n%s", out)
	}
	b, err = os.ReadFile(filepath.Join(dir, "target", "compiled", "tiny", "models", "marts", "u.yml", "doubles.sql"))
	if err != nil || !strings.Contains(string(b), "__dbt__cte__s") {
		t.Errorf("unit test's compiled file: %q %v", b, err)
	}
}

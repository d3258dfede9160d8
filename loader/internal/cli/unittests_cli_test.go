package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnitTestsFromTheCLI: `docket build` runs a model's unit tests before
// it, `docket test -s test_type:unit` runs only them, `docket ls` lists
// them, and a failing one exits 1 showing the rows that differ.
func TestUnitTestsFromTheCLI(t *testing.T) {
	dir := tinyProject(t)
	models := filepath.Join(dir, "models", "marts")
	os.MkdirAll(models, 0o755)
	write := func(name, body string) { os.WriteFile(filepath.Join(models, name), []byte(body), 0o644) }
	write("a.sql", "select 1 as id\n")
	write("b.sql", "select id, id * 10 as tens from {{ ref('a') }}\n")
	write("u.yml", "version: 2\nunit_tests:\n  - name: tens_ok\n    model: b\n    given: [{input: \"ref('a')\", rows: [{id: 2}]}]\n    expect: {rows: [{id: 2, tens: 20}]}\n")
	out := must(t, dir, "build", "-s", "marts")
	if !strings.Contains(out, "PASS tens_ok") || !strings.Contains(out, "1 unit test") {
		t.Fatalf("build did not run the unit test:\n%s", out)
	}
	if i, j := strings.Index(out, "PASS tens_ok"), strings.Index(out, "model marts.b"); i < 0 || j < 0 || i > j {
		t.Errorf("the unit test runs before its model:\n%s", out)
	}
	out = must(t, dir, "test", "-s", "test_type:unit")
	if !strings.Contains(out, "1 of 1 PASS tens_ok") {
		t.Errorf("test -s test_type:unit:\n%s", out)
	}
	if out := must(t, dir, "ls", "--resource-type", "unit_test"); strings.TrimSpace(out) != "unit_test\ttens_ok\tb" {
		t.Errorf("ls --resource-type unit_test: %q", out)
	}
	write("u.yml", "version: 2\nunit_tests:\n  - name: tens_ok\n    model: b\n    given: [{input: \"ref('a')\", rows: [{id: 2}]}]\n    expect: {rows: [{id: 2, tens: 21}]}\n")
	out, code := run(t, dir, "test", "-s", "test_type:unit")
	if code != 1 || !strings.Contains(out, "1 row returned but not expected (+), 1 row expected but not returned (-)") || !strings.Contains(out, "diff | id | tens") {
		t.Errorf("a failing unit test exits 1 with its differing rows, got %d:\n%s", code, out)
	}
}

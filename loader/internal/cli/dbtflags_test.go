package cli_test

import (
	"strings"
	"testing"
)

// TestDbtFlagsParsedAlike: every command that takes dbt's --vars,
// --target and --target-dir (the model commands, run-operation, source
// freshness, docs generate) registers them in one place (addDbtFlags) and
// reads them the same way: the three listed by -h, an unknown target and
// --vars that are no YAML mapping refused with the same words before
// anything runs.
func TestDbtFlagsParsedAlike(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"dbt_project.yml": "name: fl\nversion: '1'\nconfig-version: 2\nprofile: p\n",
		"profiles.yml":    "p:\n  target: dev\n  outputs:\n    dev: {type: duckdb, path: fl.duckdb, schema: main}\n",
		"models/f.sql":    "select 1 as id",
		"macros/m.sql":    "{% macro m() %}{% endmacro %}\n",
	})
	commands := [][]string{{"build"}, {"run"}, {"test"}, {"seed"}, {"snapshot"}, {"compile"}, {"ls"}, {"show", "-s", "f"},
		{"run-operation", "m"}, {"source", "freshness"}, {"docs", "generate"}}
	for _, c := range commands {
		name := strings.Join(c, " ")
		out, code := run(t, dir, append(append([]string{}, c...), "-h")...)
		for _, fl := range []string{"-vars", "-target", "-target-dir"} {
			if !strings.Contains(out, "  "+fl+" string") {
				t.Errorf("%s -h (exit %d) does not list %s:\n%s", name, code, fl, out)
			}
		}
		out, code = run(t, dir, append(append([]string{}, c...), "--target", "nosuch")...)
		if code != 2 || !strings.Contains(out, `"nosuch"`) {
			t.Errorf("%s --target nosuch: exit %d\n%s", name, code, out)
		}
		out, code = run(t, dir, append(append([]string{}, c...), "--vars", "[1, 2]")...)
		if code != 2 || !strings.Contains(out, "--vars is not a YAML mapping") {
			t.Errorf("%s --vars '[1, 2]': exit %d\n%s", name, code, out)
		}
	}
}

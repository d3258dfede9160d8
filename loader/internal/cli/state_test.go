package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStateSelectors: against a previous run's manifest (--state DIR),
// state:new selects added nodes, state:modified those whose SQL or config
// changed (and the new ones), with + for their children.
func TestStateSelectors(t *testing.T) {
	dir := tinyProject(t)
	models := filepath.Join(dir, "models", "marts")
	os.MkdirAll(models, 0o755)
	write := func(name, body string) { os.WriteFile(filepath.Join(models, name), []byte(body), 0o644) }
	write("a.sql", "select 1 as id\n")
	write("b.sql", "select * from {{ ref('a') }}\n")
	write("c.sql", "select 3 as id\n")
	write("d.sql", "select 4 as id\n")
	must(t, dir, "compile")
	state := filepath.Join(t.TempDir(), "state")
	os.CopyFS(state, os.DirFS(filepath.Join(dir, "target")))

	write("a.sql", "select 1 as id, 'changed' as note\n")                                        // body
	write("schema.yml", "version: 2\nmodels:\n  - name: c\n    config: {materialized: table}\n") // config
	write("e.sql", "select 5 as id\n")                                                           // new
	names := func(out string) string {
		var n []string
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			if f := strings.Fields(l); len(f) >= 2 {
				n = append(n, f[1])
			}
		}
		return strings.Join(n, " ")
	}
	for sel, want := range map[string]string{
		"state:new":              "marts.e",
		"state:modified":         "marts.a marts.c marts.e",
		"state:modified.body":    "marts.a marts.e",
		"state:modified.configs": "marts.c marts.e",
		"state:modified+":        "marts.a marts.b marts.c marts.e",
	} {
		out := must(t, dir, "ls", "--resource-type", "model", "-s", sel, "--state", state)
		if got := names(out); got != want {
			t.Errorf("-s %s selected %q, want %q", sel, got, want)
		}
	}
	if out, code := run(t, dir, "ls", "-s", "state:modified"); code != 2 || !strings.Contains(out, "--state") {
		t.Fatalf("state: without --state should say it needs one (exit 2), got %d:\n%s", code, out)
	}
}

// TestStateModifiedMacrosAndContract: state:modified.macros selects the
// models calling a changed macro, through another macro and inside a
// package; state:modified.contract those whose contract config changed
// or, with an enforced contract, whose column data types did; a data type
// change without an enforced contract is not a change; state:modified.relation
// those whose relation (here the alias) changed.
func TestStateModifiedMacrosAndContract(t *testing.T) {
	dir := tinyProject(t)
	write := func(rel, body string) {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	write("macros/h.sql", "{% macro double(x) %}{{ x }} * {{ times() }}{% endmacro %}\n{% macro times() %}2{% endmacro %}\n")
	write("dbt_packages/mypkg/dbt_project.yml", "name: mypkg\nversion: '1.0'\n")
	write("dbt_packages/mypkg/macros/m.sql", "{% macro triple(x) %}{{ x }} * {{ factor() }}{% endmacro %}\n{% macro factor() %}3{% endmacro %}\n")
	write("models/marts/a.sql", "select {{ double('1') }} as v\n")
	write("models/marts/b.sql", "select 1 as id\n")
	write("models/marts/c.sql", "select {{ mypkg.triple('1') }} as v\n")
	write("models/marts/d.sql", "select 1 as id\n")
	write("models/marts/e.sql", "select 1 as id\n")
	schema := func(dType, eType, bContract string) string {
		alias := ""
		if eType == "bigint" {
			alias = "\n    config: {alias: e2}"
		}
		return "version: 2\nmodels:\n" +
			"  - name: b\n    config: {contract: {enforced: " + bContract + "}}\n    columns: [{name: id, data_type: integer}]\n" +
			"  - name: d\n    config: {contract: {enforced: true}}\n    columns: [{name: id, data_type: " + dType + "}]\n" +
			"  - name: e" + alias + "\n    columns: [{name: id, data_type: " + eType + "}]\n"
	}
	write("models/marts/schema.yml", schema("integer", "integer", "false"))
	must(t, dir, "compile")
	state := filepath.Join(t.TempDir(), "state")
	os.CopyFS(state, os.DirFS(filepath.Join(dir, "target")))
	sel := func(s string) string {
		out := must(t, dir, "ls", "--resource-type", "model", "-s", s, "--state", state)
		var n []string
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			if f := strings.Fields(l); len(f) >= 2 && f[0] == "model" { // not the "contract not applied" warnings
				n = append(n, f[1])
			}
		}
		return strings.Join(n, " ")
	}
	if got := sel("state:modified"); got != "" {
		t.Fatalf("nothing changed yet, state:modified selected %q", got)
	}
	write("macros/h.sql", "{% macro double(x) %}{{ x }} * {{ times() }}{% endmacro %}\n{% macro times() %}4{% endmacro %}\n")
	write("dbt_packages/mypkg/macros/m.sql", "{% macro triple(x) %}{{ x }} * {{ factor() }}{% endmacro %}\n{% macro factor() %}5{% endmacro %}\n")
	write("models/marts/schema.yml", schema("bigint", "bigint", "true"))
	for s, want := range map[string]string{
		"state:modified.macros":   "marts.a marts.c",
		"state:modified.contract": "marts.b marts.d",
		"state:modified.configs":  "marts.b marts.e",
		"state:modified.relation": "marts.e",
		"state:modified.body":     "",
		"state:modified":          "marts.a marts.b marts.c marts.d marts.e",
	} {
		if got := sel(s); got != want {
			t.Errorf("-s %s selected %q, want %q", s, got, want)
		}
	}
}

package runner

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// TestCompiledLogsShowWhenTheNodeRuns: log(info=True) shows once while
// parsing (execute false) and once more when the node runs (execute
// true), as dbt's. The compiled render of every node happens at parse,
// and its lines showed there: a parse (docket ls) showed each macro's log
// twice, for nodes no command ran. An ephemeral model's show with the
// node that reads it; each shows once.
func TestCompiledLogsShowWhenTheNodeRuns(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"dbt_project.yml": "name: cl\nversion: '1'\nconfig-version: 2\nprofile: p\n",
		"profiles.yml":    "p:\n  target: dev\n  outputs:\n    dev: {type: duckdb, path: cl.duckdb, schema: main}\n",
		"macros/say.sql":  "{% macro say(x) %}{{ log(x ~ ' ' ~ execute, info=True) }}{% endmacro %}",
		"models/eph.sql":  "{{ config(materialized='ephemeral') }}{{ say('eph') }} select 1 as id",
		"models/a.sql":    "{{ say('a') }}{{ print('printed a ' ~ execute) }} select * from {{ ref('eph') }}",
		"models/b.sql":    "{{ say('b') }} select 2 as id",
	})
	p, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var logged []string
	m, _, err := compiler.Parse(p, compiler.ParseOptions{Owned: testOwned, Log: func(s string) { logged = append(logged, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(logged, ", "), "a False, printed a False, b False, eph False"; got != want {
		t.Errorf("parse showed %q, want %q", got, want)
	}
	logged = nil
	m.ShowCompileLogs(m.Nodes["model.cl.a"])
	m.ShowCompileLogs(m.Nodes["model.cl.a"])
	if got, want := strings.Join(logged, ", "), "eph True, a True, printed a True"; got != want {
		t.Errorf("running a showed %q, want %q", got, want)
	}
}

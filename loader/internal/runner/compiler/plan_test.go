package compiler_test

import (
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"

	"reflect"
	"testing"
)

// TestPlan: what each command runs and what each node waits for, from
// the manifest alone (no database, the project in memory): in build a
// Unit test waits for its model's parents and the model for it, a tested
// node's children wait for its tests; in test nothing waits; run runs
// models only.
func TestPlan(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"project.yaml":   "version: 1\nname: probe\n",
		"models/m/a.sql": "select 1 as id",
		"models/m/b.sql": "select * from {{ ref('a') }}",
		"models/m/s.yml": "version: 2\nmodels:\n  - name: a\n    columns: [{name: id, tests: [not_null]}]\n" +
			"unit_tests:\n  - {name: u, model: b, given: [{input: \"ref('a')\", rows: [{id: 1}]}], expect: {rows: [{id: 1}]}}\n",
	})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	const a, b, u, nn = "model.probe.a", "model.probe.b", "unit_test.probe.b.u", "test.probe.not_null_a_id"
	keys := func(s map[string]bool) []string { return compiler.SortedKeys(s) }
	exec, deps, err := m.Plan("build", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := keys(exec); !reflect.DeepEqual(got, []string{a, b, nn, u}) {
		t.Errorf("build runs %v", got)
	}
	for id, want := range map[string][]string{a: {}, nn: {a}, u: {a}, b: {a, nn, u}} {
		if got := keys(deps[id]); !reflect.DeepEqual(got, want) {
			t.Errorf("build: %s waits for %v, want %v", id, got, want)
		}
	}
	_, deps, _ = m.Plan("test", nil)
	for id, d := range deps {
		if len(d) > 0 {
			t.Errorf("test: %s waits for %v", id, keys(d))
		}
	}
	exec, _, _ = m.Plan("run", []string{a, u})
	if got := keys(exec); !reflect.DeepEqual(got, []string{a}) {
		t.Errorf("run of a and u runs %v, want models only", got)
	}
	if _, _, err := m.Plan("nope", nil); err == nil {
		t.Error("an unknown command is an error")
	}
}

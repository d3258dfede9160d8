package compiler_test

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestRefToPackageModel: refs resolve as dbt-core's resolve_ref: with a
// package, only that package (ref('p', 'dim', v=1) is p's version 1 even
// when the root has a dim); without, the root project first, then the
// node's own package, then any package. A ref to a disabled package model
// is the error a disabled root model gives; a package that is not
// installed, or has no such model, is an error at the call.
func TestRefToPackageModel(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"project.yaml":                   "version: 1\nname: mem\nmodels:\n  p:\n    off:\n      +enabled: false\n",
		"dbt_packages/p/dbt_project.yml": "name: p\nversion: '1'\nconfig-version: 2\n",
		"dbt_packages/p/models/dim.sql":  "select 1 as id",
		"dbt_packages/p/models/dim.yml":  "version: 2\nmodels:\n  - name: dim\n    versions:\n      - v: 1\n",
		"dbt_packages/p/models/off.sql":  "select 1 as id",
		"dbt_packages/p/models/only.sql": "select 1 as id",
		"dbt_packages/p/models/mine.sql": "select * from {{ ref('dim') }}, {{ ref('only') }}",
		"models/dim.sql":                 "select 2 as id",
		"models/own.sql":                 "select * from {{ ref('mem', 'dim') }}",
		"models/a.sql":                   "select * from\n  {{ ref('p', 'dim', v=1) }}, {{ ref('only') }}",
		"models/b.sql":                   "select * from {{ ref('nope', 'dim') }}",
		"models/c.sql":                   "select * from {{ ref('p', 'off') }}",
		"models/d.sql":                   "select * from {{ ref('p', 'gone') }}",
	})
	got := strings.Join(compilertest.Strings(diags), "\n")
	for _, want := range []string{
		`models/b.sql:1:18: ref("nope", "dim"): no project or installed package named "nope" (this project is "mem")`,
		`models/c.sql:1:18: ref("p", "off") points to a disabled model`,
		`models/d.sql:1:18: ref("p", "gone"): package p has no model or seed named "gone"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("diagnostics lack %q:\n%s", want, got)
		}
	}
	for _, f := range []string{"own.sql", "a.sql", "mine.sql"} {
		if strings.Contains(got, f) {
			t.Errorf("%s resolves: %s", f, got)
		}
	}
	deps := func(id string) string {
		if n := m.Nodes[id]; n != nil {
			return strings.Join(n.DependsOn.Nodes, " ")
		}
		return "no node " + id
	}
	for id, want := range map[string]string{
		"model.mem.own": "model.mem.dim",
		"model.mem.a":   "model.p.dim.v1 model.p.only",
		"model.p.mine":  "model.mem.dim model.p.only", // the root's dim first, as dbt
	} {
		if got := deps(id); got != want {
			t.Errorf("%s depends on %q, want %q", id, got, want)
		}
	}
}

// TestPackageModelRelationClash: two packages may each have a model of a
// name, but not two nodes at one relation (dbt's AmbiguousAliasError);
// a package's own schema keeps them apart.
func TestPackageModelRelationClash(t *testing.T) {
	files := map[string]string{
		"dbt_packages/p/dbt_project.yml": "name: p\nversion: '1'\nconfig-version: 2\n",
		"dbt_packages/p/models/dim.sql":  "select 1 as id",
		"models/dim.sql":                 "select 2 as id",
	}
	_, diags := compilertest.Compile(t, files)
	got := strings.Join(compilertest.Strings(diags), "\n")
	want := "dbt_packages/p/models/dim.sql:1:1: dbt found two resources with the database representation main.dim (model.mem.dim in models/dim.sql and model.p.dim)"
	if !strings.HasPrefix(got, want) {
		t.Errorf("diagnostics:\n%s\nwant %s", got, want)
	}
	files["dbt_packages/p/dbt_project.yml"] += "models:\n  p:\n    +schema: p_schema\n"
	m, diags := compilertest.Compile(t, files)
	if len(diags) > 0 || m.Nodes["model.p.dim"].Relation != "p_schema.dim" {
		t.Errorf("%v; relation %s", diags, m.Nodes["model.p.dim"].Relation)
	}
}

// TestPackageUnbuiltWarned: what docket does not build of a package yet
// (snapshots, analyses, Python models, on-run hooks) is a warning at the
// package's dbt_project.yml, never silent; its singular tests are nodes.
func TestPackageUnbuiltWarned(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"dbt_packages/p/dbt_project.yml":    "name: p\nversion: '1'\nconfig-version: 2\non-run-end: [\"select 1\"]\n",
		"dbt_packages/p/snapshots/snap.sql": "{% snapshot snap %}{{ config(strategy='check', unique_key='id', check_cols='all') }}select 1 as id{% endsnapshot %}",
		"dbt_packages/p/models/py.py":       "def model(dbt, session):\n    return None\n",
		"dbt_packages/p/tests/t.sql":        "select 1 where false",
	})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	// its on-run-end hook runs (TestPackageRunHooks) and its snapshot
	// block is built (TestPackageSnapshot): not in the warning
	want := "dbt_packages/p/dbt_project.yml:1:1: package p has 1 Python model(s) (py.py, ...): docket builds"
	if got := strings.Join(compilertest.Strings(m.Warnings), "\n"); !strings.Contains(got, want) {
		t.Errorf("warnings:\n%s\nwant %s", got, want)
	}
	if m.Nodes["test.p.t"] == nil || m.Nodes["snapshot.p.snap"] == nil {
		t.Errorf("no node test.p.t or snapshot.p.snap")
	}
}

// TestCompiledPathsAsDbt: compiled SQL goes where dbt writes it,
// target/compiled/<package>/<file in that package> (a generic test:
// <yml file>/<test name>.sql), for the root project and a package alike.
func TestCompiledPathsAsDbt(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"project.yaml":                   "version: 1\nname: mem\n",
		"dbt_packages/p/dbt_project.yml": "name: p\nversion: '1'\nconfig-version: 2\n",
		"dbt_packages/p/models/dim.sql":  "select 1 as id",
		"models/m/own.sql":               "select * from {{ ref('dim') }}",
		"models/m/own.yml":               "version: 2\nmodels:\n  - name: own\n    columns:\n      - name: id\n        tests: [unique]\n",
	})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	for id, want := range map[string]string{
		"model.mem.own": "target/compiled/mem/models/m/own.sql",
		"model.p.dim":   "target/compiled/p/models/dim.sql",
	} {
		if n := m.Nodes[id]; n == nil || n.CompiledPath != want {
			t.Errorf("%s: compiled path %v, want %s", id, n, want)
		}
	}
	for id, n := range m.Nodes {
		if n.TestMetadata != nil && n.CompiledPath != "target/compiled/mem/models/m/own.yml/"+n.Name+".sql" {
			t.Errorf("%s: compiled path %s", id, n.CompiledPath)
		}
	}
}

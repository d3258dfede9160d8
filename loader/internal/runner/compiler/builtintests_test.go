package compiler_test

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// builtinProject has a not_null, a filtered unique and a relationships
// test (to a model and to a source) on b.
func builtinProject(t *testing.T) *compiler.Manifest {
	t.Helper()
	m, diags := compilertest.Compile(t, map[string]string{
		"models/staging/a.sql": "select 1 as id",
		"models/marts/b.sql":   "select 1 as id, 1 as a_id",
		"models/src.yml":       "version: 2\nsources:\n  - name: raw\n    tables: [{name: people}]\n",
		"models/marts/schema.yml": `version: 2
models:
  - name: b
    columns:
      - name: id
        tests:
          - not_null
          - unique: {config: {where: "id > 0"}}
          - relationships: {to: "source('raw', 'people')", field: id}
      - name: a_id
        tests:
          - relationships: {to: ref('a'), field: id}
`,
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	return m
}

// builtinTests is m's built-in tests of b by kind and column; a missing
// one is an empty node.
func builtinTests(m *compiler.Manifest) map[string]*compiler.Node {
	out := map[string]*compiler.Node{}
	for _, k := range []string{"not_null id", "unique id", "relationships id", "relationships a_id"} {
		out[k] = &compiler.Node{}
	}
	for _, n := range m.Nodes {
		if n.TestMetadata != nil {
			out[n.TestMetadata.Name+" "+n.ColumnName] = n
		}
	}
	return out
}

// TestBuiltinTestsDeferred: a built-in test of a deferred model reads the
// state's relation, and a relationships test's to: ref() is deferred too,
// as dbt's test macros render {{ model }} and ref() when compiled.
func TestBuiltinTestsDeferred(t *testing.T) {
	m := builtinProject(t)
	d := m.Defer(map[string]compiler.DeferredRelation{
		"model.mem.a": {Schema: "prod_staging", Identifier: "a", Rendered: "prod_staging.a"},
		"model.mem.b": {Schema: "prod_marts", Identifier: "b", Rendered: "prod_marts.b"},
	})
	tests := builtinTests(d)
	if n := tests["not_null id"]; !strings.Contains(n.CompiledCode, "from prod_marts.b as model") {
		t.Errorf("deferred not_null: %q", n.CompiledCode)
	}
	if n := tests["unique id"]; n.TestFrom != "(select * from prod_marts.b where id > 0)" || !strings.Contains(n.CompiledCode, "from "+n.TestFrom+" as model") {
		t.Errorf("deferred unique with where: from %q, sql %q", n.TestFrom, n.CompiledCode)
	}
	if n := tests["relationships a_id"]; !strings.Contains(n.CompiledCode, "from prod_marts.b as child") || !strings.Contains(n.CompiledCode, "left join prod_staging.a as parent") {
		t.Errorf("deferred relationships: %q", n.CompiledCode)
	}
	for _, n := range builtinTests(m) {
		if strings.Contains(n.CompiledCode, "prod_") {
			t.Errorf("Defer changed its manifest's %s: %q", n.Name, n.CompiledCode)
		}
	}
}

// TestBuiltinTestsEmpty: under --empty a built-in test reads its model,
// and a relationships test its to:, as subqueries of no rows.
func TestBuiltinTestsEmpty(t *testing.T) {
	m := builtinProject(t)
	e, err := m.ForRun(compiler.RunContext{Empty: true})
	if err != nil {
		t.Fatal(err)
	}
	b, a := m.ByName("b").Relation, m.ByName("a").Relation
	tests := builtinTests(e)
	if n := tests["not_null id"]; !strings.Contains(n.CompiledCode, "from (select * from "+b+" where false limit 0) as model") {
		t.Errorf("--empty not_null: %q", n.CompiledCode)
	}
	if n := tests["relationships a_id"]; !strings.Contains(n.CompiledCode, "left join (select * from "+a+" where false limit 0) as parent") {
		t.Errorf("--empty relationships: %q", n.CompiledCode)
	}
	if n := tests["relationships id"]; !strings.Contains(n.CompiledCode, "where false limit 0) as parent") {
		t.Errorf("--empty relationships to a source: %q", n.CompiledCode)
	}
	if n := tests["unique id"]; !strings.Contains(n.CompiledCode, "from "+n.TestFrom+" as model") || !strings.Contains(n.TestFrom, "limit 0") {
		t.Errorf("--empty unique with where: from %q, sql %q", n.TestFrom, n.CompiledCode)
	}
}

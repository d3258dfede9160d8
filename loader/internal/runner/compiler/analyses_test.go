package compiler_test

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestAnalysesCompile: a SQL file under analyses/ compiles like a model
// (ref, var, macros) to an analysis.<project>.<name> node with its
// depends_on and fqn, in the manifest, never in a build plan (it was
// warned and left out).
func TestAnalysesCompile(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"models/a.sql":           "select 1 as id",
		"macros/m.sql":           "{% macro lim() %}limit {{ var('n', 5) }}{% endmacro %}",
		"analyses/deep/q.sql":    "select * from {{ ref('a') }} {{ lim() }}",
		"analyses/off.sql":       "{{ config(enabled=false) }} select 1",
		"analyses/not_a_sql.txt": "ignored",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	q := m.Nodes["analysis.mem.q"]
	if q == nil {
		t.Fatalf("no analysis node: %v", compiler.SortedKeys(m.Nodes))
	}
	if q.CompiledCode != "select * from main.a limit 5" || strings.Join(q.DependsOn.Nodes, ",") != "model.mem.a" ||
		strings.Join(q.FQN, ".") != "mem.analysis.deep.q" || q.CompiledPath != "target/compiled/mem/analyses/deep/q.sql" {
		t.Errorf("analysis: code %q, depends_on %v, fqn %v, path %q", q.CompiledCode, q.DependsOn.Nodes, q.FQN, q.CompiledPath)
	}
	if m.Nodes["analysis.mem.off"] != nil || m.Disabled["analysis.mem.off"] == nil {
		t.Errorf("a disabled analysis stays in the nodes")
	}
	if len(m.Warnings) > 0 {
		t.Errorf("warnings: %v", compilertest.Strings(m.Warnings))
	}
	doc := m.ManifestDoc()
	if d := doc.Nodes["analysis.mem.q"]; d == nil || d["resource_type"] != "analysis" {
		t.Errorf("manifest node: %v", d)
	}
	if !strings.Contains(strings.Join(doc.ChildMap["model.mem.a"], ","), "analysis.mem.q") {
		t.Errorf("child_map of a: %v", doc.ChildMap["model.mem.a"])
	}
	plan, _, err := m.Plan("build", compiler.SortedKeys(m.Nodes))
	if err != nil {
		t.Fatal(err)
	}
	for id := range plan {
		if strings.HasPrefix(id, "analysis.") {
			t.Errorf("build plans %s", id)
		}
	}
}

// TestAnalysisRefToMissingModel: as in dbt, an analysis that refs a model
// that does not exist is an error at the call.
func TestAnalysisRefToMissingModel(t *testing.T) {
	_, diags := compilertest.Compile(t, map[string]string{
		"models/a.sql":   "select 1 as id",
		"analyses/q.sql": "select *\nfrom {{ ref('nope') }}",
	})
	got := strings.Join(compilertest.Strings(diags), "\n")
	if len(diags) != 1 || !strings.HasPrefix(got, "analyses/q.sql:2:") || !strings.Contains(got, "nope") {
		t.Errorf("want one error at analyses/q.sql:2, got\n%s", got)
	}
}

package runner

import (
	"slices"
	"testing"
)

// TestGenericTestArgRefsRenderInTestContext: a generic test's argument
// whose Jinja names relations (dbt_utils.expression_is_true's expression:
// "(select count(*) from {{ ref('b') }}) = 2", as a real project writes a
// cross-model check) renders as dbt's add_rendered_test_kwargs does: in
// the test's context, its refs the test's dependencies, each relation
// where it is built. docket rendered it once, at YAML parse, with no
// node: ref('b') was main.b (the models are in marts), the test did not
// depend on b and ran before it: "Table with name b does not exist".
func TestGenericTestArgRefsRenderInTestContext(t *testing.T) {
	files := shapeProject("ta", map[string]string{
		"macros/generate_schema_name.sql": "{% macro generate_schema_name(custom_schema_name, node) -%}" +
			"{%- if custom_schema_name is none -%}{{ target.schema }}{%- else -%}{{ custom_schema_name | trim }}{%- endif -%}{%- endmacro %}\n",
		"macros/expr.sql": "{% test expr_true(model, expression) %}select 1 from {{ model }} where not ({{ expression }}){% endtest %}\n",
		"models/a.sql":    "{{ config(materialized='table', schema='marts') }} select 1 as id",
		"models/b.sql":    "{{ config(materialized='table', schema='marts') }} select * from (values (1), (2)) t(id)",
		"models/a.yml": "version: 2\nmodels:\n  - name: a\n    data_tests:\n      - expr_true:\n          name: a_sees_b\n          arguments:\n" +
			"            expression: >\n              (select count(*) from {{ ref('b') }}) = 2\n",
	})
	dir := writeProbe(t, files)
	m, diags := parseProbe(t, dir)
	for _, d := range diags {
		t.Fatal(d)
	}
	var deps []string
	for _, n := range m.Nodes {
		if n.Name == "a_sees_b" {
			deps = n.DependsOn.Nodes
		}
	}
	if !slices.Contains(deps, "model.ta.b") {
		t.Errorf("a_sees_b depends on %v, want model.ta.b among them", deps)
	}
	_, rr := buildProbe(t, m)
	order := map[string]int{}
	for i, r := range rr.Results {
		order[r.Name] = i
	}
	got := resultsByName(rr)["a_sees_b"]
	if got.Status != "pass" {
		t.Errorf("a_sees_b: %s %s, want pass", got.Status, got.Message)
	}
	if order["a_sees_b"] < order["b"] {
		t.Errorf("a_sees_b ran before b: %v", order)
	}
}

// TestGenericTestArgRefsNested: a ref() in a list item or a mapping's
// value of a test argument renders too (dbt renders the kwargs deep);
// review42's finding on the first version of the change above, which
// rendered only a top-level string and left "{{ ref('b') }}" in the SQL.
func TestGenericTestArgRefsNested(t *testing.T) {
	files := shapeProject("tn", map[string]string{
		"macros/rels.sql": "{% test rels_count(model, rels, by) %}select 1 from {{ model }} where (select count(*) from {{ rels[0] }}) != 2" +
			" or (select count(*) from {{ by['other'] }}) != 2{% endtest %}\n",
		"models/a.sql": "select 1 as id",
		"models/b.sql": "{{ config(materialized='table') }} select * from (values (1), (2)) t(id)",
		"models/a.yml": "version: 2\nmodels:\n  - name: a\n    data_tests:\n      - rels_count:\n          name: a_nested\n          arguments:\n" +
			"            rels: [\"{{ ref('b') }}\"]\n            by: {other: \"{{ ref('b') }}\"}\n",
	})
	dir := writeProbe(t, files)
	m, diags := parseProbe(t, dir)
	for _, d := range diags {
		t.Fatal(d)
	}
	for _, n := range m.Nodes {
		if n.Name == "a_nested" && !slices.Contains(n.DependsOn.Nodes, "model.tn.b") {
			t.Errorf("a_nested depends on %v, want model.tn.b among them", n.DependsOn.Nodes)
		}
	}
	_, rr := buildProbe(t, m)
	if got := resultsByName(rr)["a_nested"]; got.Status != "pass" {
		t.Errorf("a_nested: %s %s, want pass", got.Status, got.Message)
	}
}

// TestGenericTestArgSourceIsADependency: a source() in a generic test's
// argument, at the top or in a list, is among the test's depends_on (dbt
// records it), so source:x+ selects the test (review42's LOW on
// d70ae0b/f2e1605: the SQL read the source but depends_on held the refs
// only, and ls -s source:...+ --resource-type test missed it).
func TestGenericTestArgSourceIsADependency(t *testing.T) {
	files := shapeProject("ts", map[string]string{
		"macros/rels.sql": "{% test src_count(model, rel, rels) %}select 1 from {{ model }} where (select count(*) from {{ rel }}) != 2" +
			" or (select count(*) from {{ rels[0] }}) != 2{% endtest %}\n",
		"models/a.sql":   "select 1 as id",
		"models/src.yml": "version: 2\nsources:\n  - name: raw\n    schema: main\n    tables:\n      - name: t1\n      - name: t2\n",
		"models/a.yml": "version: 2\nmodels:\n  - name: a\n    data_tests:\n      - src_count:\n          name: a_src\n          arguments:\n" +
			"            rel: \"{{ source('raw', 't1') }}\"\n            rels: [\"{{ source('raw', 't2') }}\"]\n",
	})
	dir := writeProbe(t, files)
	m, diags := parseProbe(t, dir)
	for _, d := range diags {
		t.Fatal(d)
	}
	found := false
	for _, n := range m.Nodes {
		if n.Name == "a_src" {
			found = true
			for _, want := range []string{"source.ts.raw.t1", "source.ts.raw.t2", "model.ts.a"} {
				if !slices.Contains(n.DependsOn.Nodes, want) {
					t.Errorf("a_src depends on %v, want %s among them", n.DependsOn.Nodes, want)
				}
			}
		}
	}
	if !found {
		t.Fatal("no a_src test")
	}
}

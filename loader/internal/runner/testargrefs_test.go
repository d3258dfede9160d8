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

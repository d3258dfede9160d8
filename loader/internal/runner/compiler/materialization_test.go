package compiler_test

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestCustomMaterializationBlock: a {% materialization %} block in a
// macro file parses (it was a Jinja syntax error that dropped every macro
// of the file and stopped the project); the file's other macros work, and
// only a model that names the custom materialization is an error, at its
// config, saying docket does not run it.
func TestCustomMaterializationBlock(t *testing.T) {
	mats := "{% materialization my_table, adapter='duckdb' %}\n" +
		"  {%- set target_relation = this.incorporate(type='table') -%}\n" +
		"  {% call statement('main') -%} create table {{ target_relation }} as ({{ sql }}) {%- endcall %}\n" +
		"  {{ return({'relations': [target_relation]}) }}\n" +
		"{% endmaterialization %}\n" +
		"{%- materialization other, default -%}{%- endmaterialization -%}\n" +
		"{% macro answer() %}42{% endmacro %}\n"
	m, diags := compilertest.Compile(t, map[string]string{
		"macros/mats.sql": mats,
		"models/a.sql":    "select {{ answer() }} as x",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	if got := m.Nodes["model.mem.a"].CompiledCode; got != "select 42 as x" {
		t.Errorf("compiled %q", got)
	}
	_, diags = compilertest.Compile(t, map[string]string{
		"macros/mats.sql": mats,
		"models/b.sql":    "{{ config(materialized='my_table') }}\nselect 1 as x",
	})
	got := strings.Join(compilertest.Strings(diags), "\n")
	if len(diags) != 1 || !strings.HasPrefix(got, "models/b.sql:1:") || !strings.Contains(got, "custom {% materialization %}") {
		t.Errorf("want one error at models/b.sql naming custom materializations, got\n%s", got)
	}
}

package compiler_test

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

const myTable = "{% materialization my_table, adapter='duckdb' %}\n" +
	"  {%- set target_relation = this.incorporate(type='table') -%}\n" +
	"  {% call statement('main') -%} create table {{ target_relation }} as ({{ sql }}) {%- endcall %}\n" +
	"  {{ return({'relations': [target_relation]}) }}\n" +
	"{% endmaterialization %}\n"

// TestCustomMaterializationBlock: a {% materialization %} block in a
// macro file parses (it was a Jinja syntax error that dropped every macro
// of the file); the file's other macros work, and a model that names the
// block compiles with it as its materialization (it was an error at its
// config, "docket does not run custom materializations").
func TestCustomMaterializationBlock(t *testing.T) {
	mats := myTable + "{%- materialization other, default -%}{%- endmaterialization -%}\n" +
		"{% macro answer() %}42{% endmacro %}\n"
	m, diags := compilertest.Compile(t, map[string]string{
		"macros/mats.sql": mats,
		"models/a.sql":    "select {{ answer() }} as x",
		"models/b.sql":    "{{ config(materialized='my_table') }}\nselect 1 as x",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	if got := m.Nodes["model.mem.a"].CompiledCode; got != "select 42 as x" {
		t.Errorf("compiled %q", got)
	}
	b := m.Nodes["model.mem.b"]
	if b.CustomMat == nil || b.CustomMat.Macro != "materialization_my_table_duckdb" || b.CustomMat.File != "macros/mats.sql" || b.CustomMat.Line != 1 {
		t.Errorf("b's materialization: %+v", b.CustomMat)
	}
	if b.Config.Materialized != "my_table" {
		t.Errorf("materialized %q", b.Config.Materialized)
	}
}

// TestUnknownMaterializationIsAnError: a materialized that no block
// defines is an error at the model's config, as dbt's "No materialization
// ... was found".
func TestUnknownMaterializationIsAnError(t *testing.T) {
	_, diags := compilertest.Compile(t, map[string]string{
		"macros/mats.sql": myTable,
		"models/b.sql":    "\n{{ config(materialized='nope') }}\nselect 1 as x",
	})
	got := strings.Join(compilertest.Strings(diags), "\n")
	if len(diags) != 1 || !strings.HasPrefix(got, "models/b.sql:2:") || !strings.Contains(got, `no materialization "nope"`) {
		t.Errorf("want one error at models/b.sql:2, got\n%s", got)
	}
}

// TestMaterializationPrecedence: dbt's order. An adapter='duckdb' block
// wins over a default one whatever its package; for the same adapter the
// root project's wins over a package's; two packages' blocks of the same
// rank are an error.
func TestMaterializationPrecedence(t *testing.T) {
	pkg := func(name, body string) map[string]string {
		return map[string]string{
			"dbt_packages/" + name + "/dbt_project.yml": "name: " + name + "\nversion: '1'\nconfig-version: 2\n",
			"dbt_packages/" + name + "/macros/m.sql":    body,
		}
	}
	block := func(adapter string) string {
		return "{% materialization mine, " + adapter + " %}{{ return({'relations': [this]}) }}{% endmaterialization %}\n"
	}
	cases := []struct {
		name  string
		files []map[string]string
		want  string // package "" root, then the macro; or an error's text
	}{
		{"adapter beats default", []map[string]string{{"macros/m.sql": block("default")}, pkg("p1", block("adapter='duckdb'"))},
			"p1 materialization_mine_duckdb"},
		{"root beats package", []map[string]string{{"macros/m.sql": block("adapter='duckdb'")}, pkg("p1", block("adapter='duckdb'"))},
			" materialization_mine_duckdb"},
		{"root default beats package default", []map[string]string{{"macros/m.sql": block("default")}, pkg("p1", block("default"))},
			" materialization_mine_default"},
		{"another adapter's never runs", []map[string]string{{"macros/m.sql": block("adapter='postgres'")}, pkg("p1", block("default"))},
			"p1 materialization_mine_default"},
		{"two packages", []map[string]string{pkg("p1", block("default")), pkg("p2", block("default"))},
			"dbt cannot resolve this ambiguity"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{"models/b.sql": "{{ config(materialized='mine') }} select 1 as x"}
			for _, f := range c.files {
				for k, v := range f {
					files[k] = v
				}
			}
			m, diags := compilertest.Compile(t, files)
			got := strings.Join(compilertest.Strings(diags), "\n")
			if mat := m.Nodes["model.mem.b"].CustomMat; len(diags) == 0 && mat != nil {
				got = mat.Pkg + " " + mat.Macro
			}
			if !strings.Contains(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestBuiltinMaterializationOverrideIsWarned: a root project's or a
// package's block for table (view, incremental, ...) is not run, docket builds those natively:
// a warning at the block, whose text says why (an adapter='duckdb' one
// dbt would run; a default one dbt-duckdb's own beats in dbt too).
func TestBuiltinMaterializationOverrideIsWarned(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"macros/t.sql": "\n{% materialization table, adapter='duckdb' %}{{ return({'relations': [this]}) }}{% endmaterialization %}\n" +
			"{% materialization view, default %}{{ return({'relations': [this]}) }}{% endmaterialization %}\n",
		"models/a.sql":                   "{{ config(materialized='table') }} select 1 as x",
		"dbt_packages/p/dbt_project.yml": "name: p\nversion: '1'\nconfig-version: 2\n",
		"dbt_packages/p/macros/m.sql":    "{% materialization incremental, adapter='duckdb' %}{{ return({'relations': [this]}) }}{% endmaterialization %}\n",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	got := strings.Join(compilertest.Strings(m.Warnings), "\n")
	if !strings.Contains(got, "macros/t.sql:2:1: {% materialization table, duckdb %} is not run: docket builds table nodes with its own") ||
		!strings.Contains(got, "macros/t.sql:3:1: {% materialization view, default %} is not run: as in dbt, dbt-duckdb's own view") ||
		!strings.Contains(got, "dbt_packages/p/macros/m.sql:1:1: {% materialization incremental, duckdb %} is not run: as in dbt 1.8+, a package's block") {
		t.Errorf("warnings:\n%s", got)
	}
	if m.Nodes["model.mem.a"].CustomMat != nil {
		t.Errorf("table model runs the project's block")
	}
}

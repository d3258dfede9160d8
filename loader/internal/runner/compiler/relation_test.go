package compiler_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestRefIsTheRelation: ref() and source() return the relation they name
// once every node is placed, as dbt's compile render does: its parts,
// is_table/is_view/is_cte, and its string form are the node's final
// ones (a config(alias=...), config(schema=...) or materialization set
// in the referenced file counts), in a model, in a macro it calls, and
// through a variable. Before, ref() rendered to a marker string swapped
// after rendering, so filters and attributes saw the marker or the
// provisional place.
func TestRefIsTheRelation(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"models/a.sql":          "{{ config(alias='a_final', schema='marts', materialized='table') }}select 1 as id",
		"models/v.sql":          "{{ config(materialized='view') }}select 1 as id",
		"models/e.sql":          "{{ config(materialized='ephemeral') }}select 2 as id",
		"models/sources.yml":    "version: 2\nsources:\n  - name: raw\n    tables:\n      - name: orders\n",
		"macros/from_a.sql":     "{% macro from_a() %}\nselect * from {{ ref('a') }}\n{% endmacro %}",
		"models/ident.sql":      "select '{{ ref('a').identifier }}' as ident, '{{ ref('a').name }}' as name",
		"models/kinds.sql":      "select {% if ref('a').is_table %}'table'{% else %}'not'{% endif %} as a_kind, {% if ref('v').is_table %}'table'{% else %}'not'{% endif %} as v_kind, {{ ref('v').is_view }} as v_view, {{ ref('e').is_cte }} as e_cte, {{ ref('a').is_cte }} as a_cte",
		"models/upper.sql":      "select * from {{ ref('a') | string | upper }}",
		"models/via_macro.sql":  "{{ from_a() }}",
		"models/set_var.sql":    "{% set r = ref('a') %}select '{{ r.schema }}' as s, '{{ r.database }}' as d from {{ r }}",
		"models/render.sql":     "select * from {{ ref('a').render() }} join {{ source('raw', 'orders') }} using (id) where '{{ source('raw', 'orders').identifier }}' <> ''",
		"models/eph_reader.sql": "select * from {{ ref('e') }}",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	a := m.Nodes["model.mem.a"]
	if a.Schema != "marts" || a.Alias != "a_final" {
		t.Fatalf("a placed at %s.%s", a.Schema, a.Alias)
	}
	for id, want := range map[string][]string{
		"ident":      {"'a_final' as ident", "'a_final' as name"},
		"kinds":      {"'table' as a_kind", "'not' as v_kind", "True as v_view", "True as e_cte", "False as a_cte"},
		"upper":      {"from MARTS.A_FINAL"},
		"via_macro":  {"select * from marts.a_final"},
		"set_var":    {"'marts' as s", "from marts.a_final"},
		"render":     {"from marts.a_final join raw.orders using (id) where 'orders' <> ''"},
		"eph_reader": {"with __dbt__cte__e as (\nselect 2 as id\n)", "from __dbt__cte__e"},
	} {
		got := m.Nodes["model.mem."+id].CompiledCode
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s compiled to %q, want it to contain %q", id, got, w)
			}
		}
		if strings.ContainsRune(got, 0) {
			t.Errorf("%s compiled with a marker: %q", id, got)
		}
	}
	if got := m.Nodes["model.mem.set_var"].CompiledCode; !strings.Contains(got, "'"+m.Database()+"' as d") {
		t.Errorf("set_var: r.database is not the warehouse's: %q", got)
	}
}

// TestExecuteIsFalseAtParse: as in dbt, a template is parsed with execute
// false (config() calls and refs are read then) and compiled with execute
// true; a ref made only when execute is true is not in the graph, which
// is an error naming it (dbt's "unable to infer all dependencies").
func TestExecuteIsFalseAtParse(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"models/a.sql": "select 1 as id",
		"models/b.sql": "{% if not execute %}{{ config(materialized='table') }}{% endif %}" +
			"select {% if execute %}'compiled'{% else %}'parsed'{% endif %} as phase from {{ ref('a') }}",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	b := m.Nodes["model.mem.b"]
	if b.Config.Materialized != "table" {
		t.Errorf("config() under `if not execute` not read at parse: materialized %q", b.Config.Materialized)
	}
	if !strings.Contains(b.CompiledCode, "'compiled' as phase") {
		t.Errorf("b compiled to %q, want execute true", b.CompiledCode)
	}
	_, diags = compilertest.Compile(t, map[string]string{
		"models/a.sql": "select 1 as id",
		"models/b.sql": "select 1 as x\n{% if execute %}union all select id from {{ ref('a') }}{% endif %}",
	})
	got := compilertest.Strings(diags)
	if len(got) != 1 || !strings.HasPrefix(got[0], "models/b.sql:2:") || !strings.Contains(got[0], `ref("a") is called only when execute or is_incremental() is true`) {
		t.Errorf("a ref under `if execute`: diagnostics %q", got)
	}
}

// TestRefMistakeInAMacroNamesTheMacro: a ref() to an unknown model written
// in a macro is placed in the macro's file and line (it was placed at 1:1
// of the model that called the macro).
func TestRefMistakeInAMacroNamesTheMacro(t *testing.T) {
	_, diags := compilertest.Compile(t, map[string]string{
		"macros/m.sql": "{% macro pick() %}\n  select 1 as x\n  from {{ ref('nope') }}\n{% endmacro %}",
		"models/b.sql": "-- b\n{{ pick() }}",
	})
	got := compilertest.Strings(diags)
	if len(got) != 1 || !strings.HasPrefix(got[0], "models/b.sql:2:") || !strings.Contains(got[0], "macros/m.sql:3") ||
		!strings.Contains(got[0], `ref("nope"): no model or seed named "nope"`) {
		t.Errorf("diagnostics %q, want one at models/b.sql:2 naming macros/m.sql:3", got)
	}
}

// TestMacrosCalledWhenCompiled: a macro called only when execute is true
// (so only by the compile render) is still among the node's macros.
func TestMacrosCalledWhenCompiled(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"macros/m.sql": "{% macro outer() %}{{ inner() }}{% endmacro %}{% macro inner() %}1{% endmacro %}",
		"models/a.sql": "select {% if execute %}{{ outer() }}{% else %}0{% endif %} as x",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	n := m.Nodes["model.mem.a"]
	if got := m.MacroClosure(n); !slices.Contains(got, "macro.mem.inner") {
		t.Errorf("a's macros %v, want macro.mem.inner (called by outer when compiled)", got)
	}
}

// TestRunTimeRenderInlinesEphemerals: an incremental model rendered again
// for its run (is_incremental() true) reads its ephemeral parent as the
// injected CTE and {{ this }} as its own relation.
func TestRunTimeRenderInlinesEphemerals(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"models/e.sql": "{{ config(materialized='ephemeral') }}select 2 as id",
		"models/i.sql": "{{ config(materialized='incremental') }}select * from {{ ref('e') }}" +
			"{% if is_incremental() %} where id > (select max(id) from {{ this }}){% endif %}",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	got, err := m.RenderForRun(context.Background(), nil, m.Nodes["model.mem.i"], true)
	want := "with __dbt__cte__e as (\nselect 2 as id\n)\nselect * from __dbt__cte__e where id > (select max(id) from main.i)"
	if err != nil || got != want {
		t.Errorf("incremental render: %q, %v; want %q", got, err, want)
	}
}

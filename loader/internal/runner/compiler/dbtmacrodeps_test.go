package compiler_test

import (
	"fmt"
	"slices"
	"testing"
)

// TestDbtMacroCallsInDependsOn: a call of is_incremental() or run_query()
// (dbt's global-project macros, which docket runs in Go) is in the
// caller's depends_on.macros as dbt's macro.dbt.<name>: the node's when it
// calls it itself, the calling macro's otherwise, as dbt's manifest has it
// (graph.nodes' depends_on: Fatombe/dbt_amelin's check_dependencies
// counted 2 objects for each of its incremental models in dbt, 1 here);
// manifest.json's macros has them. A macro named w is no dependency of a
// model whose text says "where" (it was: any substring counted).
func TestDbtMacroCallsInDependsOn(t *testing.T) {
	m, diags := parseDir(t, map[string]string{
		"dbt_project.yml": "name: p\n",
		"macros/w.sql":    "{% macro w() %}{% if is_incremental() %}where 1{% endif %}{% endmacro %}",
		"models/inc.sql":  "{{ config(materialized='incremental') }} select 1 as id {% if is_incremental() %} where 1 {% endif %}",
		"models/rq.sql":   "{% if execute %}{% set r = run_query('select 1') %}{% endif %} select 1 as id",
		"models/via.sql":  "{{ config(materialized='incremental') }} select 1 as id {{ w() }}",
		"macros/disp.sql": "{% macro disp() %}{{ return(adapter.dispatch('disp', 'p')()) }}{% endmacro %}{% macro default__disp() %}1{% endmacro %}",
		"models/dis.sql":  "select {% if execute %}{{ adapter.dispatch('disp', 'p')() }}{% else %}1{% endif %} as id",
	})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	for name, want := range map[string][]string{
		"inc": {"macro.dbt.is_incremental"},
		"rq":  {"macro.dbt.run_query"},
		"via": {"macro.p.w"},
		"dis": {"macro.p.default__disp"}, // dispatched under {% if execute %}: found in the text
	} {
		if got := m.Nodes["model.p."+name].DependsOn.Macros; !slices.Equal(got, want) {
			t.Errorf("%s: depends_on.macros %v, want %v", name, got, want)
		}
	}
	doc := m.ManifestDoc().Macros
	if w := doc["macro.p.w"]; w == nil || fmt.Sprint(w["depends_on"]) != "map[macros:[macro.dbt.is_incremental]]" {
		t.Errorf("macro w's manifest entry: %v", w)
	}
	if doc["macro.dbt.is_incremental"] == nil || doc["macro.dbt.run_query"] == nil {
		t.Errorf("manifest.json's macros lack macro.dbt.is_incremental or run_query, which depends_on names")
	}
}

// TestAdapterQuoteAlwaysQuotes: adapter.quote(name) is dbt-duckdb's
// '"{}"'.format(name), a plain lower-case name too: it was left bare
// ("id"), so dbt_utils.star(quote_identifiers=True) and SQL built into a
// string literal differed from dbt's.
func TestAdapterQuoteAlwaysQuotes(t *testing.T) {
	m, diags := parseDir(t, map[string]string{
		"dbt_project.yml": "name: p\n",
		"models/q.sql":    "select 1 as {{ adapter.quote('id') }}, '{{ adapter.quote('My \"x') }}' as s",
	})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if got, want := m.Nodes["model.p.q"].CompiledCode, `select 1 as "id", '"My ""x"' as s`; got != want {
		t.Errorf("compiled %q, want %q", got, want)
	}
}

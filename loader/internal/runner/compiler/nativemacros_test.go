package compiler_test

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestNativeMacroOverridesWarn: a project that overrides the macros dbt's
// built-in materializations write their SQL with (get_delete_insert_merge_sql
// and its default__ variant, create_table_as) gets a warning at each
// override's line, since docket builds those nodes natively; they were
// ignored in silence. A macro of another name is not warned.
func TestNativeMacroOverridesWarn(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"project.yaml": "version: 1\nname: mem\n",
		"macros/merge.sql": "{% macro get_delete_insert_merge_sql(target, source, unique_key, dest_columns) -%}\n" +
			"  {{ adapter.dispatch('get_delete_insert_merge_sql', 'dbt')(target, source, unique_key, dest_columns) }}\n{%- endmacro %}\n\n" +
			"{% macro default__get_delete_insert_merge_sql(target, source, unique_key, dest_columns) -%}\n  delete from {{ target }};\n{%- endmacro %}\n",
		"macros/other.sql": "{% macro cents(x) %}{{ x }} / 100{% endmacro %}\n\n{% macro create_table_as(temporary, relation, sql) %}create table {{ relation }} as {{ sql }}{% endmacro %}\n",
		"models/m.sql":     "{{ config(materialized='incremental', unique_key='id') }}\nselect 1 as id",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	var got []string
	for _, w := range m.Warnings {
		if strings.Contains(w.Msg, "does not call it") {
			got = append(got, w.String())
		}
	}
	want := []string{"macros/merge.sql:1:1: macro get_delete_insert_merge_sql", "macros/merge.sql:5:1: macro default__get_delete_insert_merge_sql",
		"macros/other.sql:3:1: macro create_table_as"}
	if len(got) != len(want) {
		t.Fatalf("warnings %q, want %d", got, len(want))
	}
	for _, w := range want {
		found := false
		for _, g := range got {
			found = found || strings.HasPrefix(g, w)
		}
		if !found {
			t.Errorf("no warning %q in %q", w, got)
		}
	}
}

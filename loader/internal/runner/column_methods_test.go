package runner

import (
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestColumnSizeMethods: dbt's Column size methods on what
// adapter.get_columns_in_relation returns (dbt_utils' union_relations
// calls string_size() to keep the widest string column): a string with
// no size is 256, as dbt's Column says; decimal precision and scale
// (None for a string, printed "None" as dbt prints it).
func TestColumnSizeMethods(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/a.sql": "{{ config(materialized='table') }} select 'x' as s, 't' as u, cast(1 as decimal(10, 2)) as d",
		"models/m/b.sql": "-- depends_on: {{ ref('a') }}\n{% set cols = adapter.get_columns_in_relation(ref('a')) if execute else [] %}\n" +
			"select '{% for c in cols %}{{ c.column }}:{{ c.string_size() if c.is_string() else '' }}:" +
			"{{ c.numeric_precision }}/{{ c.numeric_scale }}:{{ c.can_expand_to(cols[1]) }};{% endfor %}' as got",
	})
	m, diags := parseProbe(t, dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	db, rr := buildProbe(t, m)
	if r := resultsByName(rr)["b"]; r.Status != executor.StatusSuccess {
		t.Fatalf("%s %s", r.Status, r.Message)
	}
	var got string
	if err := db.SQL().QueryRow("select got from m.b").Scan(&got); err != nil {
		t.Fatal(err)
	}
	if want := "s:256:None/None:False;u:256:None/None:False;d::10/2:False;"; got != want { // dbt: Column.numeric_precision is None for a string
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

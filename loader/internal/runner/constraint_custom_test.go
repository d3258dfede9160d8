package runner

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestCustomConstraintsApplied: a `type: custom` constraint is its
// expression built into the table as dbt-duckdb renders it (after the
// column's type at column level, a table constraint at model level, named
// when it has a name), so a row that breaks it fails the build; one
// without an expression is warned at its line. It was warned and not
// applied.
func TestCustomConstraintsApplied(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/ok.sql":  "{{ config(materialized='table') }} select 1 as a, 2 as b",
		"models/m/bad.sql": "{{ config(materialized='table') }} select 3 as a, 2 as b",
		"models/m/schema.yml": "version: 2\nmodels:\n" +
			"  - name: ok\n    config: {contract: {enforced: true}}\n" +
			"    constraints: [{type: custom, name: a_below_b, expression: \"check (a < b)\"}, {type: custom}]\n" +
			"    columns: [{name: a, data_type: int, constraints: [{type: custom, expression: \"check (a > 0)\"}]}, {name: b, data_type: int}]\n" +
			"  - name: bad\n    config: {contract: {enforced: true}}\n" +
			"    constraints: [{type: custom, expression: \"check (a < b)\"}]\n" +
			"    columns: [{name: a, data_type: int}, {name: b, data_type: int}]\n",
	})
	m, diags := parseProbe(t, dir)
	var warns []string
	for _, w := range m.Warnings {
		warns = append(warns, w.String())
	}
	want := "models/m/schema.yml:5:81: model ok: custom constraint without an expression is not applied"
	if len(diags) > 0 || strings.Join(warns, "\n") != want {
		t.Fatalf("diagnostics %v, warnings %q, want %q", diags, warns, want)
	}
	db, rr := buildProbe(t, m)
	got := resultsByName(rr)
	if got["ok"].Status != executor.StatusSuccess {
		t.Errorf("ok: %s %s", got["ok"].Status, got["ok"].Message)
	}
	if got["bad"].Status != executor.StatusError || !strings.Contains(got["bad"].Message, "CHECK constraint failed") {
		t.Errorf("bad: %s %q, want the check to refuse its row", got["bad"].Status, got["bad"].Message)
	}
	cons := queryStrings(t, db.SQL(), "select constraint_type || ':' || coalesce(expression, '') from duckdb_constraints() where table_name = 'ok' order by 1")
	if s := strings.Join(cons, ","); s != "CHECK:(a < b),CHECK:(a > 0)" {
		t.Errorf("ok's constraints: %s", s)
	}
}

package runner

import (
	"strings"
	"testing"
)

// TestQueryValuesInAndSum: `in` over run_query's agate values tests
// them as agate's MappedSequence does (a Row and a Column hold their
// values; a Decimal equals the float of its value), and summing a
// query's dates is Python's TypeError. On main 'x' in
// t.columns['s'] and 1.5 in t.rows[0] were False and [date] | sum was 0.
func TestQueryValuesInAndSum(t *testing.T) {
	q := `{% set t = run_query("select date '2024-01-02' as d, 1.50::decimal(4,2) as dec, 'x' as s") %}`
	dir := writeProbe(t, map[string]string{
		"models/vals.sql": q + "{% if execute %}select '{{ 'x' in t.columns['s'] }} {{ 1.5 in t.rows[0] }} {{ t.rows[0]['dec'] in [1.5] }} " +
			"{{ t.rows[0]['d'] in t.columns['d'] }} {{ 'd' in t.rows[0] }} {{ 'd' in t.columns }}' as v{% else %}select 1 as v{% endif %}",
		"models/datesum.sql": q + "{% if execute %}select '{{ [t.rows[0]['d']] | sum }}' as v{% else %}select 1 as v{% endif %}",
		"tests/vals_ok.sql":  "select * from {{ ref('vals') }} where v <> 'True True True True False False'",
		// a query's date plus a timedelta, and less a date (main: "not modelled")
		"models/shift.sql":   q + "{% if execute %}select '{{ t.rows[0]['d'] + modules.datetime.timedelta(days=1) }} {{ (t.rows[0]['d'] - t.rows[0]['d']).days }}' as v{% else %}select 1 as v{% endif %}",
		"tests/shift_ok.sql": "select * from {{ ref('shift') }} where v <> '2024-01-03 0'",
	})
	m, diags := parseProbe(t, dir)
	for _, d := range diags {
		t.Fatalf("parse: %s", d)
	}
	_, rr := buildProbe(t, m)
	got := resultsByName(rr)
	if r := got["vals_ok"]; r.Status != "pass" {
		t.Errorf("vals_ok %s %s (the model's `in` results differ from agate's)", r.Status, r.Message)
	}
	if r := got["shift_ok"]; r.Status != "pass" {
		t.Errorf("shift_ok %s %s (a query date + timedelta)", r.Status, r.Message)
	}
	if r := got["datesum"]; r.Status != "error" || !strings.Contains(r.Message, "unsupported operand type(s) for + 'int' and 'datetime.date'") {
		t.Errorf("datesum %s %q, want Python's TypeError", r.Status, r.Message)
	}
}

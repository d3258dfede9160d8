package runner

import (
	"strings"
	"testing"
)

// TestDateMethods: weekday(), isoweekday(), replace() and strftime() of
// every date type a template holds, as Python's: modules.datetime.date,
// a naive modules.datetime.datetime, an aware one, a query's DATE and
// TIMESTAMP. On main a date had no weekday() or replace() ("not a method
// docket provides") and a datetime's replace took tzinfo= only; a field
// out of its range is Python's ValueError, an unknown keyword its
// TypeError.
func TestDateMethods(t *testing.T) {
	dt := "{% set d = modules.datetime.date(2024, 3, 1) %}{% set n = modules.datetime.datetime(2024, 3, 1, 10, 20, 30) %}" +
		"{% set a = modules.datetime.datetime.fromisoformat('2024-03-03T23:00:00+09:00') %}"
	q := `{% set r = run_query("select date '2024-03-01' as d, timestamp '2024-03-03 10:20:30' as ts") %}`
	dir := writeProbe(t, map[string]string{
		"models/tmpl.sql": dt + "select '{{ d.weekday() }} {{ d.isoweekday() }} {{ d.replace(day=5) }} {{ d.replace(2023, 2) }} {{ d.strftime('%a %d.%m.%Y') }}|" +
			"{{ n.weekday() }} {{ n.isoweekday() }} {{ n.replace(hour=1, microsecond=5) }} {{ n.replace(tzinfo=modules.pytz.utc) }}|" +
			"{{ a.weekday() }} {{ a.isoweekday() }} {{ a.replace(day=4) }} {{ a.replace(year=2020).strftime('%Y %H') }}' as v",
		"tests/tmpl_ok.sql": "select * from {{ ref('tmpl') }} where v <> '4 5 2024-03-05 2023-02-01 Fri 01.03.2024|" +
			"4 5 2024-03-01 01:20:30.000005 2024-03-01 10:20:30+00:00|6 7 2024-03-04 23:00:00+09:00 2020 23'",
		"models/query.sql": q + "{% if execute %}{% set qd, qt = r.rows[0]['d'], r.rows[0]['ts'] %}" +
			"select '{{ qd.weekday() }} {{ qd.isoweekday() }} {{ qd.replace(month=2, day=29) }} {{ qd.strftime('%A') }}|" +
			"{{ qt.weekday() }} {{ qt.isoweekday() }} {{ qt.replace(year=2023) }} {{ qt.replace(second=0).strftime('%H:%M:%S') }}' as v" +
			"{% else %}select 1 as v{% endif %}",
		"tests/query_ok.sql": "select * from {{ ref('query') }} where v <> '4 5 2024-02-29 Friday|6 7 2023-03-03 10:20:30 10:20:00'",
	})
	m, diags := parseProbe(t, dir)
	for _, d := range diags {
		t.Fatalf("parse: %s", d)
	}
	_, rr := buildProbe(t, m)
	got := resultsByName(rr)
	for _, name := range []string{"tmpl_ok", "query_ok"} {
		if r := got[name]; r.Status != "pass" {
			t.Errorf("%s %s %s (tmpl: %s; query: %s)", name, r.Status, r.Message, got["tmpl"].Message, got["query"].Message)
		}
	}
	_, diags = parseProbe(t, writeProbe(t, map[string]string{
		"models/badday.sql": "select '{{ modules.datetime.date(2024, 2, 1).replace(day=30) }}' as v",
		"models/badkw.sql":  "select '{{ modules.datetime.date(2024, 2, 1).replace(hour=1) }}' as v",
	}))
	for name, want := range map[string]string{"badday": "day is out of range for month", "badkw": "'hour' is an invalid keyword argument for replace()"} {
		found := false
		for _, d := range diags {
			found = found || strings.Contains(d.Path, name) && strings.Contains(d.Msg, want)
		}
		if !found {
			t.Errorf("%s: diagnostics %v, want %q", name, diags, want)
		}
	}
}

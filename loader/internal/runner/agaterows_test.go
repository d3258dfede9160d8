package runner

import (
	"strings"
	"testing"
)

// TestAgateRowsAreAMappedSequence: a run_query table's .rows and .columns
// are agate's MappedSequence: str() is <agate.MappedSequence: (...)> with
// the repr of the first five, json.dumps refuses it naming
// MappedSequence, and truncate of a table or its rows longer than length
// + leeway is the AttributeError jinja2's s[:n].rsplit raises on agate's
// tuple slice. Main printed .rows as a list of every row and named the
// first Row in tojson's TypeError (agate 1.6.3 and jinja2 3.1.6 on Python
// 3.11 give the expectations).
func TestAgateRowsAreAMappedSequence(t *testing.T) {
	q := `{% set t = run_query("select i as id, 'x' || i as name from range(7) r(i) order by 1") %}`
	dir := writeProbe(t, map[string]string{
		"models/printed.sql": q + "{% if execute %}select $${{ t.rows }}|{{ t.columns }}|{{ t.rows | length }}|{{ t.rows[1]['name'] }}|" +
			"{% for r in t.rows if r.id > 4 %}{{ r.name }} {% endfor %}|{{ t.rows | truncate(10) }}$$ as v{% else %}select 1 as v{% endif %}",
		"tests/printed_ok.sql": "select * from {{ ref('printed') }} where v <> $$" +
			"<agate.MappedSequence: (<agate.Row: (0, 'x0')>, <agate.Row: (1, 'x1')>, <agate.Row: (2, 'x2')>, <agate.Row: (3, 'x3')>, <agate.Row: (4, 'x4')>, ...)>|" +
			"<agate.MappedSequence: (<agate.Column: (0, 1, 2, 3, 4, ...)>, <agate.Column: ('x0', 'x1', 'x2', 'x3', 'x4', ...)>)>|7|x1|x5 x6 |" +
			"<agate.MappedSequence: (<agate.Row: (0, 'x0')>, <agate.Row: (1, 'x1')>, <agate.Row: (2, 'x2')>, <agate.Row: (3, 'x3')>, <agate.Row: (4, 'x4')>, ...)>$$",
		"models/rows_json.sql":  q + "{% if execute %}select '{{ tojson(t.rows) }}' as v{% else %}select 1 as v{% endif %}",
		"models/rows_trunc.sql": q + "{% if execute %}select '{{ t.rows | truncate(1, leeway=0, end='') }}' as v{% else %}select 1 as v{% endif %}",
		"models/tbl_trunc.sql":  q + "{% if execute %}select '{{ t | truncate(4, true, leeway=0) }}' as v{% else %}select 1 as v{% endif %}",
	})
	m, diags := parseProbe(t, dir)
	for _, d := range diags {
		t.Fatalf("parse: %s", d)
	}
	_, rr := buildProbe(t, m)
	got := resultsByName(rr)
	if r := got["printed_ok"]; r.Status != "pass" {
		t.Errorf("printed_ok %s %s (printed: %s)", r.Status, r.Message, got["printed"].Message)
	}
	for name, want := range map[string]string{
		"rows_json":  "Object of type MappedSequence is not JSON serializable",
		"rows_trunc": "AttributeError as in Python ('tuple' object has no attribute 'rsplit')",
		"tbl_trunc":  `TypeError as in Python (can only concatenate tuple (not "str") to tuple)`,
	} {
		if r := got[name]; r.Status != "error" || !strings.Contains(r.Message, want) {
			t.Errorf("%s: %s %s, want an error: %s", name, r.Status, r.Message, want)
		}
	}
}

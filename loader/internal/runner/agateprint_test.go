package runner

import "testing"

// TestAgatePrint: a run_query table's parts print as agate prints them:
// a Row and a Column as MappedSequence's str (<agate.Row: (...)>, the
// repr of its first five values, then ...), the Table as agate's
// Table.__str__, its print_structure (it printed <agate.table.Table
// object>); a Row has keys(), values(), items(), get()
// and dict(), and iterates as its values. Main printed Go internals
// (<compiler.resultRow Value>), had no values() ("not a method docket
// provides") and refused list(row).
func TestAgatePrint(t *testing.T) {
	q := `{% set t = run_query("select 1 as a, 'x' as b, 2.5::decimal(4,2) as c, date '2024-01-02' as d, timestamp '2024-01-02 10:20:30' as ts, null as n") %}`
	dir := writeProbe(t, map[string]string{
		"models/printed.sql": q + "{% if execute %}{% set r = t.rows[0] %}select $${{ r }}|{{ t.columns['c'] }}|{{ t }}|{{ r.values() }}|{{ r.keys()[:2] }}|" +
			"{{ r.get('b') }} {{ r.get('zz', 'D') }}|{{ r.dict()['c'] }}|{{ (r | list)[3:] }}|{{ r.items()[1] }}$$ as v{% else %}select 1 as v{% endif %}",
		"tests/printed_ok.sql": "select * from {{ ref('printed') }} where v <> $$<agate.Row: (1, 'x', Decimal('2.50'), datetime.date(2024, 1, 2), datetime.datetime(2024, 1, 2, 10, 20, 30), ...)>|" +
			"<agate.Column: (Decimal('2.50'))>|| column | data_type |\n| ------ | --------- |\n| a      | Integer   |\n| b      | Text      |\n| c      | Number    |\n| d      | Date      |\n| ts     | DateTime  |\n| n      | Integer   |\n|(1, 'x', Decimal('2.50'), datetime.date(2024, 1, 2), datetime.datetime(2024, 1, 2, 10, 20, 30), None)|" +
			"('a', 'b')|x D|2.50|[datetime.date(2024, 1, 2), datetime.datetime(2024, 1, 2, 10, 20, 30), None]|('b', 'x')$$",
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
}

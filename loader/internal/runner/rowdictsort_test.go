package runner

import "testing"

// TestDictsortOfAgateRow: a run_query row through dictsort gives its
// (column, value) pairs sorted by column, as jinja2 reads agate's
// Row.items(); it was [] without a word.
func TestDictsortOfAgateRow(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/a.sql": "select 1 as id",
		"macros/show.sql": `{% macro show() %}
{% set r = run_query("select 1.50::decimal(4,2) as dec, date '2024-01-02' as d, 'x' as a") %}
{% do log('' ~ (r.rows[0] | dictsort), info=True) %}
{% endmacro %}`,
	})
	want := "[('a', 'x'), ('d', datetime.date(2024, 1, 2)), ('dec', Decimal('1.50'))]"
	if got := loggedOperation(t, dir, "show")(nil); got != want {
		t.Errorf("logged %q, want %q (jinja2 3.1.6 over agate's Row)", got, want)
	}
}

package runner

import "testing"

// TestAgateGraphLogAsDbtSession38 (review40's LOWs), each expected text as
// dbt 1.8 / jinja2 3.1.6 / agate / PyYAML 6.0.3 give it: an agate Column
// iterates and counts its values (|list was "'Column' object is not
// iterable", |length 0); a Row's or Column's slice is a tuple (a list);
// log() of a list or dict shows its items' reprs (it showed [1.50,
// 2024-01-31]); graph's meta keeps a YAML date a datetime.date (it was
// '2024-03-04'), a source's meta is its table's and source_meta its
// source's (merged into meta, source_meta {}); a naive YAML datetime var
// prints as Python (it printed "2024-01-02 10:20:30 +0000 UTC");
// invocation_args_dict is defined (an undefined name).
func TestAgateGraphLogAsDbtSession38(t *testing.T) {
	files := shapeProject("s38", map[string]string{
		"models/m/a.sql": "select 1 as id",
		"models/m/a.yml": "version: 2\nmodels:\n  - name: a\n    meta:\n      since: 2024-03-04\n" +
			"sources:\n  - name: raw\n    schema: main\n    meta: {owner: src_team, level: source}\n    tables:\n" +
			"      - name: x\n        meta: {level: table, note: n}\n",
		"macros/show.sql": `{% macro show() %}
{% set r = run_query("select 1.50::decimal(10,2) as dec, date '2024-01-31' as dt, 'it''s' as s union all select 2.50, date '2024-02-01', 'b'") %}
{% do log(r.columns[0]|list, info=True) %}{% do log(r.columns['s']|length, info=True) %}
{% do log(r.rows[0][1:], info=True) %}{% do log(r.columns[1][:1], info=True) %}
{% do log({'d': r.rows[0][1], 'l': [r.rows[0][0], none]}, info=True) %}
{% for n in graph.nodes.values() if n.name == 'a' %}{% do log(n.meta, info=True) %}{% do log(n.config.meta.since.year, info=True) %}{% endfor %}
{% for s in graph.sources.values() %}{% do log(s.meta, info=True) %}{% do log(s.source_meta, info=True) %}{% endfor %}
{% do log(var('naive'), info=True) %}{% do log([var('naive')], info=True) %}
{% do log(invocation_args_dict.which, info=True) %}
{% endmacro %}`,
	})
	files["dbt_project.yml"] += "vars:\n  naive: 2024-01-02 10:20:30\n"
	dir := writeProbe(t, files)
	want := "[Decimal('1.50'), Decimal('2.50')]\n2\n" +
		"(datetime.date(2024, 1, 31), \"it's\")\n(datetime.date(2024, 1, 31),)\n" +
		"{'d': datetime.date(2024, 1, 31), 'l': [Decimal('1.50'), None]}\n" +
		"{'since': datetime.date(2024, 3, 4)}\n2024\n" +
		"{'level': 'table', 'note': 'n'}\n{'owner': 'src_team', 'level': 'source'}\n" +
		"2024-01-02 10:20:30\n[datetime.datetime(2024, 1, 2, 10, 20, 30)]\n" +
		"run-operation"
	if got := loggedOperation(t, dir, "show")(nil); got != want {
		t.Errorf("logged:\n%s\nwant:\n%s", got, want)
	}
}

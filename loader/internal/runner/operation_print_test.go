package runner

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestRunOperationPrintsTables: a run-operation macro that shows a
// run_query result with agate's print_table(), print_json() and
// print_structure() (common in dbt projects' operations) prints them as
// agate lays them out, where log(info=True) writes; it was an error ("not a
// method docket provides"). As agate's (and dbt show's, the same
// renderer): every column but Text right-justified, its header too
// (booleans and timestamps were left-justified, every header left), a
// Number grouped (1,234.5), types as dbt's tester names them (Integer).
func TestRunOperationPrintsTables(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/a.sql": "select 1 as id",
		"macros/show.sql": `{% macro show(n=20) %}
{% set t = run_query("select * from (values (1, 'alpha', 1234.5, true, timestamp '2024-01-02 03:04:05'), (22, 'a rather long name indeed', null, false, null)) v(id, name, amount, ok, ts) order by id") %}
{% do t.print_table(max_rows=n) %}
{% do t.print_json() %}
{% do t.print_structure() %}
{% endmacro %}`,
	})
	run := loggedOperation(t, dir, "show")
	for _, c := range []struct {
		n    int
		want []string
	}{
		{20, []string{
			"| id | name                 |  amount |    ok |                  ts |",
			"| -- | -------------------- | ------- | ----- | ------------------- |",
			"|  1 | alpha                | 1,234.5 |  True | 2024-01-02 03:04:05 |",
			"| 22 | a rather long nam... |         | False |                     |",
			`[{"id": 1, "name": "alpha", "amount": 1234.5, "ok": true, "ts": "2024-01-02T03:04:05"}, {"id": 22, "name": "a rather long name indeed", "amount": null, "ok": false, "ts": null}]`,
			"| column | data_type |\n| ------ | --------- |\n| id     | Integer   |\n| name   | Text      |\n| amount | Number    |\n| ok     | Boolean   |\n| ts     | DateTime  |"}},
		{1, []string{"| id | name  |  amount |   ok |                  ts |\n| -- | ----- | ------- | ---- | ------------------- |\n|  1 | alpha | 1,234.5 | True | 2024-01-02 03:04:05 |\n| ... | ...   |     ... |  ... |                 ... |"}},
	} {
		if got, want := run(map[string]any{"n": c.n}), strings.Join(c.want, "\n"); !strings.HasPrefix(got, want) {
			t.Errorf("printed:\n%s\nwant:\n%s", got, want)
		}
	}
}

// TestRunQueryDateValues: run_query's DATE, TIME and TIMESTAMP values are
// what str() of dbt-duckdb's Python values prints (2024-01-02, 03:04:05,
// 2024-01-02 03:04:05.500000), so SQL a macro builds from them reads as
// in dbt; a DATE column is agate's Date in print_structure. Before, the
// driver's time.Time came through as "2024-01-02 00:00:00" and
// "0001-01-01 03:04:05" without a word.
func TestRunQueryDateValues(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/a.sql": "select 1 as id",
		"macros/show.sql": `{% macro show() %}
{% set r = run_query("select date '2024-01-02' as d, time '03:04:05' as t, timestamp '2024-01-02 03:04:05.5' as ts, timestamp '2024-01-02 03:04:05' as whole") %}
{% do log(r.columns[0].values()[0] ~ "|" ~ r.columns[1].values()[0] ~ "|" ~ r.rows[0]["ts"] ~ "|" ~ r.rows[0][3], info=True) %}
{% do r.print_structure() %}
{% endmacro %}`,
	})
	want := "2024-01-02|03:04:05|2024-01-02 03:04:05.500000|2024-01-02 03:04:05\n| column | data_type |\n| ------ | --------- |\n" +
		"| d      | Date      |\n| t      | Text      |\n| ts     | DateTime  |\n| whole  | DateTime  |"
	if got := loggedOperation(t, dir, "show")(nil); !strings.Contains(got, want) {
		t.Errorf("printed:\n%s\nwant:\n%s", got, want)
	}
}

// loggedOperation parses the probe project in dir and returns a function
// that runs its operation op with args and gives what it logged.
func loggedOperation(t *testing.T, dir, op string) func(args map[string]any) string {
	p, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var logged []string
	m, diags, err := compiler.Parse(p, compiler.ParseOptions{Owned: testOwned, Log: func(s string) { logged = append(logged, s) }})
	if err != nil || len(diags) > 0 {
		t.Fatal(err, diags)
	}
	db := shapeDB(t, dir)
	return func(args map[string]any) string {
		logged = nil
		o, err := m.FindOperation(op)
		if err != nil {
			t.Fatal(err)
		}
		rr, err := executor.RunOperation(context.Background(), m, db, o, args)
		if err != nil || rr.Results[0].Status != executor.StatusSuccess {
			t.Fatalf("%s: %v %+v", op, err, rr)
		}
		return strings.Join(logged, "\n")
	}
}

// TestLogPrintsAsPython: log() and print() write their message as Python's
// str() does (dbt's log(msg) is str(msg)): a list as ['a', 1], None, True.
// They printed Go's forms ([a 1], <nil>, true): Fatombe/dbt_amelin's
// drop_old_relation logged its list of DROP statements without quotes.
func TestLogPrintsAsPython(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/a.sql": "select 1 as id",
		"macros/show.sql": `{% macro show() %}{% do log(['a', 1, none, true], info=True) %}{% do log(true, True) %}` +
			`{% do print(none, {'k': 'v'}) %}{% do log('plain', info=True) %}{% endmacro %}`,
	})
	if got, want := loggedOperation(t, dir, "show")(nil), "['a', 1, None, True]\nTrue\nNone {'k': 'v'}\nplain"; got != want {
		t.Errorf("logged:\n%s\nwant:\n%s", got, want)
	}
}

// TestRunQueryTimestampPrecisions: TIMESTAMP_S, _MS and _NS values read as
// the TIMESTAMP's do, str() of the Python datetime DuckDB's client hands
// dbt-duckdb (microseconds, six digits when not zero; nanoseconds cut
// off). Before, a TIMESTAMP_MS read "2024-01-02 03:04:05.5" (the generic
// time format, not Python's).
func TestRunQueryTimestampPrecisions(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/a.sql": "select 1 as id",
		"macros/show.sql": `{% macro show() %}
{% set r = run_query("select timestamp_s '2024-01-02 03:04:05' as s, timestamp_ms '2024-01-02 03:04:05.5' as ms, timestamp_ns '2024-01-02 03:04:05.123456789' as ns, timestamp_ns '2024-01-02 03:04:05.000000500' as sub") %}
{% do log(r.rows[0][0] ~ "|" ~ r.rows[0][1] ~ "|" ~ r.rows[0][2] ~ "|" ~ r.rows[0][3], info=True) %}
{% endmacro %}`,
	})
	want := "2024-01-02 03:04:05|2024-01-02 03:04:05.500000|2024-01-02 03:04:05.123456|2024-01-02 03:04:05"
	if got := loggedOperation(t, dir, "show")(nil); !strings.Contains(got, want) {
		t.Errorf("printed:\n%s\nwant:\n%s", got, want)
	}
}

// TestRunQueryNullColumnTypes: a run_query column with no value that is
// not null (nulls only, or no rows) is agate's Integer whatever its DuckDB
// type, as dbt's type tester makes it (every type takes None; Integer is
// the first); a column with values is its DuckDB type's, as dbt show's
// columns are (one mapping, compiler.AgateTypes). Before, a DATE column of
// nulls, or of no rows, was a Date.
func TestRunQueryNullColumnTypes(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/a.sql": "select 1 as id",
		"macros/show.sql": `{% macro show() %}
{% do run_query("select null::date as d, null::varchar as v, timestamptz '2024-01-02 03:04:05+00' as tz, 1.5::decimal(3,1) as n, [1] as l, 2::hugeint as h").print_structure() %}
{% do run_query("select date '2024-01-02' as d, 'x' as v where false").print_structure() %}
{% endmacro %}`,
	})
	want := "| column | data_type |\n| ------ | --------- |\n| d      | Integer   |\n| v      | Integer   |\n| tz     | DateTime  |\n" +
		"| n      | Number    |\n| l      | Text      |\n| h      | Integer   |\n" +
		"| column | data_type |\n| ------ | --------- |\n| d      | Integer   |\n| v      | Integer   |"
	if got := loggedOperation(t, dir, "show")(nil); got != want {
		t.Errorf("printed:\n%s\nwant:\n%s", got, want)
	}
}

// TestRunQueryPythonValues: a run_query value of a type agate casts to
// Text is str() of the Python value dbt-duckdb gets (a UUID's text, a
// timedelta's "1 day, 2:00:00", bytes' b'...'), and a list is the JSON
// text dbt's table_from_data_flat makes of it (json.dumps: ["a",
// "\u00e9"], 1.0), so SQL a macro builds from them reads as in dbt.
// Before, a UUID came through as its 16 raw bytes, an interval as
// "<duckdb.Interval Value>", a blob as its bytes, a list of strings as
// ['a', 'é'], without a word.
func TestRunQueryPythonValues(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/a.sql": "select 1 as id",
		"macros/show.sql": `{% macro show() %}
{% set r = run_query("select '00000000-0000-0000-0000-0000000000ff'::uuid as u, interval '1 day 2 hours' as i1, interval '-90 seconds' as i2, interval '14 months' as i3, interval '1.5 seconds' as i4, 'a\\xAA''\"'::blob as b, ['a', 'é'] as ls, [1.0, 1e20]::double[] as lf, [[1], [2, 3]] as ll, [1, 2]::int[2] as arr") %}
{% for c in r.column_names %}{% do log(c ~ "=" ~ r.rows[0][c], info=True) %}{% endfor %}
{% do r.print_structure() %}
{% endmacro %}`,
	})
	want := strings.Join([]string{"u=00000000-0000-0000-0000-0000000000ff", "i1=1 day, 2:00:00", "i2=-1 day, 23:58:30",
		"i3=420 days, 0:00:00", "i4=0:00:01.500000", `b=b'a\xaa\'"'`, `ls=["a", "\u00e9"]`, "lf=[1.0, 1e+20]",
		"ll=[[1], [2, 3]]", "arr=[1, 2]"}, "\n")
	got := loggedOperation(t, dir, "show")(nil)
	if !strings.HasPrefix(got, want) {
		t.Errorf("printed:\n%s\nwant:\n%s", got, want)
	}
	if strings.Count(got, "| Text      |") != 10 {
		t.Errorf("every column is Text:\n%s", got)
	}
}

// TestRunQueryTuples: agate's Column.values() and Table.column_names are
// tuples, so a macro that renders them (where id in {{ ids }}) or logs
// them gets Python's ('a', 'b'), ('c',), as in dbt; they stay lists to
// index, iterate and join. Before: ['a', 'b'], a DuckDB list literal.
func TestRunQueryTuples(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/a.sql": "select 1 as id",
		"macros/show.sql": `{% macro show() %}
{% set r = run_query("select 'a' as c union all select 'b' order by 1") %}
{% set ids = r.columns[0].values() %}
{% do log("where c in " ~ ids ~ " " ~ r.column_names ~ " " ~ ids[1] ~ ids | join('') ~ (ids | length), info=True) %}
{% do log(ids, info=True) %}{% do print([r.column_names, (1,)]) %}
{% endmacro %}`,
	})
	want := "where c in ('a', 'b') ('c',) bab2\n('a', 'b')\n[('c',), (1,)]"
	if got := loggedOperation(t, dir, "show")(nil); got != want {
		t.Errorf("printed:\n%s\nwant:\n%s", got, want)
	}
}

// TestRunQueryDecimalsAreNumbers: a DECIMAL from run_query computes and
// compares as a number, as dbt's Python Decimal does (d * 2, d + 1, d > 1,
// a column's sum), and keeps its scale as str(Decimal) does (1.50 * 2 is
// 3.00): a macro deciding on a total reads it right and SQL built from it
// reads as dbt's. Before 3fb38cc, the driver's Decimal was no number to
// templates (1.50 * 2 rendered 2, 1.50 > 1 False, the sum 0); before
// this, it was a float64 (3.0, 2.5, 1.5).
func TestRunQueryDecimalsAreNumbers(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/a.sql": "select 1 as id",
		"macros/show.sql": `{% macro show() %}
{% set r = run_query("select 1.50::decimal(10,2) as d union all select 2.25 order by 1") %}
{% set d = r.rows[0]['d'] %}
{% do log((d * 2) ~ "|" ~ (d + 1) ~ "|" ~ (d > 1) ~ "|" ~ (r.columns[0].values() | sum) ~ "|" ~ d, info=True) %}
{% do r.print_table() %}
{% endmacro %}`,
	})
	want := "3.00|2.50|True|3.75|1.50\n|    d |\n| ---- |\n| 1.50 |\n| 2.25 |"
	if got := loggedOperation(t, dir, "show")(nil); got != want {
		t.Errorf("printed:\n%s\nwant:\n%s", got, want)
	}
}

// TestRunQueryWideNumbersAndZones: run_query values as dbt's agate table
// hands them to templates, where docket's differed without a word:
//   - a DECIMAL wider than a float64 holds exactly, and a HUGEINT past
//     int64, compute and compare exactly (Python's Decimal and int): a
//     HUGEINT > 1 and a DECIMAL(38,3) > 1 rendered False, h * 10 a
//     wrapped int64, h | sum a float;
//   - a DOUBLE is agate Number's Decimal(repr(f)): 1e20 prints 1E+20, a
//     third of it has 28 digits, and times a float is Python's TypeError;
//   - a TIMESTAMPTZ and a TIMETZ print as Python's aware datetime and
//     time, with the UTC offset (+00:00, +02:00); they printed without it
//     (and the TIMETZ as 0001-01-01 03:04:05);
//   - print_json writes a number as json.dumps(float(d)) (1e+20, 2.0);
//     it wrote Go's 100000000000000000000 and 2.
func TestRunQueryWideNumbersAndZones(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/a.sql": "select 1 as id",
		"macros/show.sql": `{% macro show() %}
{% set r = run_query("select 12345678901234567890.125::decimal(38,3) as w, sum(x)::hugeint * 10000000000000000000 as h, sum(x)::hugeint * 10^19 as hd, 1e20::double as g, 1.0::double / 4 as q, timestamptz '2024-01-02 03:04:05.5+00' as tz, '03:04:05+02'::timetz as ttz from (values (7), (8)) v(x)") %}
{% set row = r.rows[0] %}
{% do log([row['w'] > 1, row['w'] * 2, row['w'] | int, row['w'] | round(1)] | join(' '), info=True) %}
{% do log([row['h'] > 1, row['h'], row['h'] * 10 - 1, row['h'] // 7, -row['h'] % 7, [row['h'], 1] | sum, row['hd'] > 1, row['hd']] | join(' '), info=True) %}
{% do log([row['g'], row['g'] / 3, row['q'], row['q'] * 2, row['q'] == 0.25] | join(' '), info=True) %}
{% do log(row['tz'] ~ ' ' ~ row['ttz'], info=True) %}
{% do run_query("select 12345678901234567890.125::decimal(38,3) as w, 1e20::double as g, 2.0::double as t").print_json() %}
{% endmacro %}`,
	})
	want := strings.Join([]string{
		"True 24691357802469135780.250 12345678901234567890 12345678901234567890.1",
		"True 150000000000000000000 1499999999999999999999 21428571428571428571 4 150000000000000000001 True 1.5E+20",
		"1E+20 33333333333333333333.33333333 0.25 0.50 True",
		"2024-01-02 03:04:05.500000+00:00 03:04:05+02:00",
		`[{"w": 1.2345678901234567e+19, "g": 1e+20, "t": 2.0}]`, // agate's jsonify: float(d), json.dumps
	}, "\n")
	if got := loggedOperation(t, dir, "show")(nil); got != want {
		t.Errorf("printed:\n%s\nwant:\n%s", got, want)
	}
}

// TestRunQueryNestedValues: a run_query STRUCT, MAP, or a LIST of them or
// of dates, is the JSON text dbt's table_from_data_flat makes of the
// Python value (json.dumps: a dict in the STRUCT's field order, the MAP's
// key order, keys as strings, a date isoformat(), a Decimal a float), a
// Text column. Before, a STRUCT came through as the driver's Go map
// ({'a': 'x', 'b': 1}: its fields sorted), a MAP as "OrderedMap{k2: 1,
// k1: 2}", a list of dates as a Go list, so SQL or a decision built from
// them differed from dbt's without a word.
func TestRunQueryNestedValues(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/a.sql": "select 1 as id",
		"macros/show.sql": `{% macro show() %}
{% set r = run_query("select {'b': 1, 'a': 'x', 'c d': [date '2024-01-02'], 'e': {'z': timestamp '2024-01-02 03:04:05', 'y': 1.50::decimal(4,2)}} as st, map {'k2': 1, 'k1': 2} as mp, map {1: [1.5], 2: []} as mi, [{'q': 1, 'p': 2}] as ls, [date '2024-01-02'] as ld") %}
{% for c in r.column_names %}{% do log(c ~ "=" ~ r.rows[0][c], info=True) %}{% endfor %}
{% do r.print_structure() %}
{% endmacro %}`,
	})
	want := strings.Join([]string{`st={"b": 1, "a": "x", "c d": ["2024-01-02"], "e": {"z": "2024-01-02T03:04:05", "y": 1.5}}`,
		`mp={"k2": 1, "k1": 2}`, `mi={"1": [1.5], "2": []}`, `ls=[{"q": 1, "p": 2}]`, `ld=["2024-01-02"]`}, "\n")
	got := loggedOperation(t, dir, "show")(nil)
	if !strings.HasPrefix(got, want) {
		t.Errorf("printed:\n%s\nwant:\n%s", got, want)
	}
	if strings.Count(got, "| Text      |") != 5 {
		t.Errorf("every column is Text:\n%s", got)
	}
}

// TestRunQueryDatesArePythonDates: a run_query DATE is Python's
// datetime.date and a TIMESTAMP a datetime.datetime, as in dbt's agate
// table: dbt-expectations' expect_row_values_to_have_data_for_every_n_datepart
// calls columns[0].values()[0].strftime('%Y-%m-%d'), cal-itp's
// incremental_max_date compares one with another date. They were strings:
// .year and .strftime() failed with "attribute not found", and
// d == '2024-01-02' was True (Python: False, a date is no str) without a word.
func TestRunQueryDatesArePythonDates(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/a.sql": "select 1 as id",
		"macros/show.sql": `{% macro show() %}
{% set r = run_query("select date '2024-01-02' as d, timestamp '2024-03-04 05:06:07.5' as ts, timestamptz '2024-03-04 05:06:07+00' as tz, date '2023-12-31' as e") %}
{% set d, ts, tz, e = r.rows[0][0], r.rows[0][1], r.rows[0][2], r.rows[0][3] %}
{% do log(d ~ '|' ~ d.year ~ '|' ~ d.strftime('%d/%m/%Y') ~ '|' ~ d.isoformat() ~ '|' ~ d.weekday(), info=True) %}
{% do log(ts ~ '|' ~ ts.hour ~ '|' ~ ts.microsecond ~ '|' ~ ts.date() ~ '|' ~ ts.isoformat() ~ '|' ~ ts.strftime('%Y%m%d %H%M%S'), info=True) %}
{% do log(tz ~ '|' ~ tz.isoformat(), info=True) %}
{% do log([d == '2024-01-02', d == e, d > e, d in [e, d], ts.date() > d, ts == d], info=True) %}
{% do log(([d, e] | max) ~ '|' ~ ([d, e] | sort | join(',')), info=True) %}
{% endmacro %}
{% macro cmp_str() %}{% set r = run_query("select date '2024-01-02' as d") %}{% do log(r.rows[0][0] < '2025', info=True) %}{% endmacro %}`,
	})
	want := "2024-01-02|2024|02/01/2024|2024-01-02|1\n" +
		"2024-03-04 05:06:07.500000|5|500000|2024-03-04|2024-03-04T05:06:07.500000|20240304 050607\n" +
		"2024-03-04 05:06:07+00:00|2024-03-04T05:06:07+00:00\n" +
		"[False, False, True, True, True, False]\n2024-01-02|2023-12-31,2024-01-02"
	if got := loggedOperation(t, dir, "show")(nil); got != want {
		t.Errorf("logged:\n%s\nwant:\n%s", got, want)
	}
	// a date and a str do not compare: Python's TypeError, not str order
	if msg := operationError(t, dir, "cmp_str"); !strings.Contains(msg, "'<' not supported between instances of 'datetime.date' and 'str'") {
		t.Errorf("error %q, want Python's TypeError", msg)
	}
}

// operationError runs the probe project's operation op, which must fail,
// and gives its error.
func operationError(t *testing.T, dir, op string) string {
	t.Helper()
	p, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := compiler.Parse(p, compiler.ParseOptions{Owned: testOwned})
	if err != nil {
		t.Fatal(err)
	}
	o, err := m.FindOperation(op)
	if err != nil {
		t.Fatal(err)
	}
	rr, err := executor.RunOperation(context.Background(), m, shapeDB(t, dir), o, nil)
	if err == nil && rr.Results[0].Status == executor.StatusSuccess {
		t.Fatalf("%s ran", op)
	}
	return fmt.Sprint(err, rr.Results[0].Message)
}

// TestPythonTextFiltersAndTypeErrors: trim and indent take any value's
// text, as Jinja2's soft_str (a query's date failed "is not a string"
// since c02adad, and {{ 5 | trim }} always had); pprint prints Python's
// pformat, dict keys sorted (it wrote Go's JSON, and of a dict literal the fork's internals);
// a dict default of var() is the literal (it was a map of
// "<interface {} Value>" keys: .items() failed); and where Python raises,
// docket says so instead of a value: len(), first and last of a number, a
// Decimal or a date (were 0 and ""), tojson() of a Decimal or a date
// (json.dumps's TypeError, which dbt's tojson does not catch; it wrote a
// float, and for a date its text).
func TestPythonTextFiltersAndTypeErrors(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/a.sql": "select 1 as id",
		"macros/show.sql": `{% macro show() %}
{% set r = run_query("select date '2024-01-02' as d, 1.50::decimal(10,2) as n") %}
{% set d, n = r.rows[0][0], r.rows[0][1] %}
{% do log('[' ~ (d | trim) ~ '][' ~ (5 | trim) ~ '][' ~ (('a' ~ d) | indent(2)) ~ ']', info=True) %}
{% do log(({'b': 1, 'a': [1, 'x']} | pprint) ~ ' ' ~ ('x' | pprint), info=True) %}
{% for k, v in var('nope', {'b': 1, 'a': 2}).items() %}{% do log(k ~ '=' ~ v, info=True) %}{% endfor %}
{% endmacro %}
{% macro len_dec() %}{% set r = run_query("select 1.50::decimal(10,2) as n") %}{{ r.rows[0][0] | length }}{% endmacro %}
{% macro first_date() %}{% set r = run_query("select date '2024-01-02' as d") %}{{ r.rows[0][0] | first }}{% endmacro %}
{% macro len_int() %}{{ 5 | length }}{% endmacro %}
{% macro indent_date() %}{% set r = run_query("select date '2024-01-02' as d") %}{{ 'a' ~ r.rows[0][0] | indent(2) }}{% endmacro %}
{% macro json_dec() %}{% set r = run_query("select 1.50::decimal(10,2) as n") %}{{ tojson([r.rows[0][0]]) }}{% endmacro %}
{% macro json_date() %}{% set r = run_query("select date '2024-01-02' as d") %}{{ r.rows[0][0] | tojson }}{% endmacro %}`,
	})
	want := "[2024-01-02][5][a2024-01-02]\n{'a': [1, 'x'], 'b': 1} 'x'\nb=1\na=2"
	if got := loggedOperation(t, dir, "show")(nil); got != want {
		t.Errorf("logged:\n%s\nwant:\n%s", got, want)
	}
	for op, msg := range map[string]string{
		"len_dec":    "object of type 'decimal.Decimal' has no len()",
		"first_date": "'datetime.date' object is not iterable",
		"len_int":    "object of type 'int' has no len()",
		// jinja2's indent adds "\n" to what it gets: a date (the filter binds before ~) raises
		"indent_date": "unsupported operand type(s) for +=: 'datetime.date' and 'str'",
		"json_dec":    "Object of type Decimal is not JSON serializable",
		"json_date":   "Object of type date is not JSON serializable",
	} {
		if got := operationError(t, dir, op); !strings.Contains(got, msg) {
			t.Errorf("%s: error %q, want %q", op, got, msg)
		}
	}
}

// TestRunStartedAtDateIsADate: run_started_at.date() is Python's date, so
// it equals and orders with a query's DATE as in dbt. It was its text,
// which a query date (a datetime.date since c02adad) never equals:
// `{% if max_d == run_started_at.date() %}` turned False without a word.
func TestRunStartedAtDateIsADate(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/a.sql": "select 1 as id",
		"macros/show.sql": `{% macro show() %}
{% set r = run_query("select cast('" ~ run_started_at.strftime('%Y-%m-%d') ~ "' as date) as d, date '2000-01-01' as old") %}
{% set today = run_started_at.date() %}
{% do log([r.rows[0][0] == today, r.rows[0][1] < today, today > r.rows[0][1], today.year == run_started_at.year, today | string == run_started_at.strftime('%Y-%m-%d')], info=True) %}
{% endmacro %}`,
	})
	if got, want := loggedOperation(t, dir, "show")(nil), "[True, True, True, True, True]"; got != want {
		t.Errorf("logged %s, want %s", got, want)
	}
}

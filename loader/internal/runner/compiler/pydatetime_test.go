package compiler_test

import (
	"strings"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestModulesDatetimeConstructor: modules.datetime.datetime(y, m, d[, H,
// M, S]) is Python's datetime, as dbt's own microbatch adapter tests write
// begin=modules.datetime.datetime(2020, 1, 1, 0, 0, 0): it was "datetime()
// is not a method docket provides". It prints as str() prints it, has its
// fields and strftime, and is a microbatch model's begin; a date that does
// not exist is an error at its call.
func TestModulesDatetimeConstructor(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"models/a.sql": "{{ config(materialized='incremental', incremental_strategy='microbatch', event_time='t', batch_size='day', " +
			"begin=modules.datetime.datetime(2020, 1, 2, 3, 0, 0)) }}" +
			"select '{{ modules.datetime.datetime(2020, 2, 3, 4, 5, 6) }}' as s, {{ modules.datetime.datetime(2021, 5, 6).month }} as m, " +
			"'{{ modules.datetime.datetime(2020, 2, 3).strftime('%Y/%m/%d') }}' as f, '{{ modules.datetime.datetime.now().year > 2000 }}' as n, now() as t",
	})
	if got := compilertest.Strings(diags); len(got) > 0 {
		t.Fatalf("diagnostics %q", got)
	}
	n := m.Nodes["model.mem.a"]
	if !strings.Contains(n.CompiledCode, "'2020-02-03 04:05:06' as s, 5 as m, '2020/02/03' as f, 'True' as n") {
		t.Errorf("a.sql compiled to %q", n.CompiledCode)
	}
	if b := n.Config.Begin; b == nil || !b.Equal(time.Date(2020, 1, 2, 3, 0, 0, 0, time.UTC)) {
		t.Errorf("begin %v, want 2020-01-02 03:00:00 UTC", b)
	}
	_, diags = compilertest.Compile(t, map[string]string{"models/b.sql": "select '{{ modules.datetime.datetime(2021, 2, 30) }}' as x"})
	if got := compilertest.Strings(diags); len(got) != 1 || !strings.Contains(got[0], "models/b.sql:1:") || !strings.Contains(got[0], "day is out of range for month") {
		t.Errorf("diagnostics %q, want b.sql's 30 February as Python's ValueError", got)
	}
}

// TestModulesDatetimeAsPython: a modules.datetime value formats, prints
// and compares as Python's datetime: strftime copies the format's own text
// ('%Y-%m-01' is the first of the month; its own strftime read it as a Go
// layout and gave "2024-03-03"), isoformat() leaves out zero microseconds
// (it wrote ".000000"), two of them compare by time (as structs they
// compared equal), and it has weekday() and date().
func TestModulesDatetimeAsPython(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"models/a.sql": "{% set d = modules.datetime.datetime(2024, 3, 4, 5, 6, 7) %}" +
			"select '{{ d.strftime('%Y-%m-01 %j') }}' as f, '{{ d.isoformat() }}' as i, " +
			"'{{ d < modules.datetime.datetime(2024, 3, 5) }} {{ d == modules.datetime.datetime(2024, 3, 4, 5, 6, 7) }} {{ d > modules.datetime.datetime(2025, 1, 1) }}' as c, " +
			"'{{ d.weekday() }} {{ d.date() }}' as w",
	})
	if got := compilertest.Strings(diags); len(got) > 0 {
		t.Fatalf("diagnostics %q", got)
	}
	want := "select '2024-03-01 064' as f, '2024-03-04T05:06:07' as i, 'True True False' as c, '0 2024-03-04' as w"
	if got := m.Nodes["model.mem.a"].CompiledCode; !strings.Contains(got, want) {
		t.Errorf("a.sql compiled to\n%q\nwant\n%q", got, want)
	}
}

// TestModulesDatetimeDate: modules.datetime.date(y, m, d), date.today()
// and date.fromisoformat() are Python's dates (main: "date() is not a
// method docket provides"), printed, formatted and compared as Python's:
// two dates order by their day (gonja compared the structs: today() >
// date(2020, 1, 1) was False), a date plus an int is Python's TypeError.
func TestModulesDatetimeDate(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"models/a.sql": "{% set d = modules.datetime.date %}select '{{ d(2024, 1, 2) }}' as s, '{{ d(2024, 1, 2).strftime('%d/%m/%Y') }}' as f, " +
			"'{{ d.today() > d(2020, 1, 1) }} {{ d(2020, 1, 1) < d(2020, 1, 2) }} {{ d(2020, 1, 1) == d(2020, 1, 1) }} {{ run_started_at.date() >= d(2020, 1, 1) }}' as c, " +
			"'{{ [d(2021, 1, 1), d(2020, 1, 1)] | sort | join(',') }}' as o, {{ d.fromisoformat('2024-03-04').month }} as mo",
	})
	if got := compilertest.Strings(diags); len(got) > 0 {
		t.Fatalf("diagnostics %q", got)
	}
	if c := m.Nodes["model.mem.a"].CompiledCode; !strings.Contains(c, "'2024-01-02' as s, '02/01/2024' as f, 'True True True True' as c, '2020-01-01,2021-01-01' as o, 3 as mo") {
		t.Errorf("a.sql compiled to %q", c)
	}
	for src, want := range map[string]string{
		"select '{{ modules.datetime.date(2024, 2, 30) }}' as x":    "day is out of range for month",
		"select '{{ modules.datetime.date(2024, 1, 2) + 1 }}' as x": "unsupported operand type(s) for + 'datetime.date' and 'int'",
	} {
		_, diags = compilertest.Compile(t, map[string]string{"models/b.sql": src})
		if got := compilertest.Strings(diags); len(got) != 1 || !strings.Contains(got[0], want) {
			t.Errorf("%s: diagnostics %q, want %q", src, got, want)
		}
	}
}

// TestModulesPytz: modules.pytz (utc, timezone(name), localize) and
// aware datetimes as the dbt-airflow-macros package uses them
// (datetime.fromisoformat, replace(tzinfo=), astimezone(tz),
// isoformat(timespec=)): on main modules.pytz was "attribute 'pytz' not
// found" and fromisoformat "not a method docket provides".
func TestModulesPytz(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"models/a.sql": "{% set dt = modules.datetime.datetime %}{% set tz = modules.pytz %}" +
			"{% set naive = dt.fromisoformat('2020-01-01T01:23:45') %}{% set utc = tz.utc.localize(naive) %}" +
			"select '{{ naive }}|{{ utc }}|{{ utc.astimezone(tz.timezone('Asia/Tokyo')).isoformat(timespec='seconds') }}' as a, " +
			"'{{ dt(2020, 1, 1, 1, 2, 3).replace(tzinfo=tz.utc) }}|{{ dt.fromisoformat('2020-01-01T10:23:45+09:00').strftime('%Y-%m-%d %H') }}|" +
			"{{ dt.fromisoformat('2020-01-01T10:23:45+09:00').astimezone(tz.utc) }}|{{ naive.isoformat() }}|{{ tz.utc }}' as b",
	})
	if got := compilertest.Strings(diags); len(got) > 0 {
		t.Fatalf("diagnostics %q", got)
	}
	want := "'2020-01-01 01:23:45|2020-01-01 01:23:45+00:00|2020-01-01T10:23:45+09:00' as a, " +
		"'2020-01-01 01:02:03+00:00|2020-01-01 10|2020-01-01 01:23:45+00:00|2020-01-01T01:23:45|UTC' as b"
	if c := m.Nodes["model.mem.a"].CompiledCode; !strings.Contains(c, want) {
		t.Errorf("a.sql compiled to %q, want %q", c, want)
	}
	_, diags = compilertest.Compile(t, map[string]string{"models/b.sql": "select '{{ modules.pytz.timezone('Nowhere/Atall') }}' as x"})
	if got := compilertest.Strings(diags); len(got) != 1 || !strings.Contains(got[0], "UnknownTimeZoneError") {
		t.Errorf("diagnostics %q, want UnknownTimeZoneError", got)
	}
}

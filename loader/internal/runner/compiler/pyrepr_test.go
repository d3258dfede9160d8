package compiler_test

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestPythonRepr: a printed list, tuple or dict shows each item's
// Python repr(), as jinja2 prints it: a string quoted and escaped as
// Python quotes it (main wrapped it in '...' as it was: ['it's']), None,
// a date datetime.date(2024, 1, 2) (main printed its str()), a datetime
// with a zero second left out, a timedelta, and '%r' % (date,). An
// error inside a list literal is raised (main printed the list as
// [<errors.errorString Value>]).
func TestPythonRepr(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"models/a.sql": "{% set dt = modules.datetime %}select $${{ [\"it's\", 'a\"b', none, 1.5, true] }}|{{ {'k': \"it's\"} }}|{{ (\"it's\",) }}|" +
			"{{ [dt.date(2024, 1, 2), dt.datetime(2024, 1, 2, 3, 4, 5), dt.datetime(2024, 1, 2, 3, 4), dt.datetime(2024, 1, 2, 3, 4, 5, 6)] }}|" +
			"{{ [dt.timedelta(days=-1, hours=1), dt.timedelta(0)] }}|{{ '%r' % (dt.date(2024, 1, 2),) }}|{{ [dt.datetime(2024, 1, 2, tzinfo=modules.pytz.utc)] }}$$ as v",
	})
	if got := compilertest.Strings(diags); len(got) > 0 {
		t.Fatalf("diagnostics %q", got)
	}
	want := `["it's", 'a"b', None, 1.5, True]|{'k': "it's"}|("it's",)|` +
		"[datetime.date(2024, 1, 2), datetime.datetime(2024, 1, 2, 3, 4, 5), datetime.datetime(2024, 1, 2, 3, 4), datetime.datetime(2024, 1, 2, 3, 4, 5, 6)]|" +
		"[datetime.timedelta(days=-1, seconds=3600), datetime.timedelta(0)]|datetime.date(2024, 1, 2)|[datetime.datetime(2024, 1, 2, 0, 0, tzinfo=<UTC>)]"
	if c := m.Nodes["model.mem.a"].CompiledCode; !strings.Contains(c, "$$"+want+"$$") {
		t.Errorf("a.sql compiled to\n%s\nwant\n%s", c, want)
	}
	_, diags = compilertest.Compile(t, map[string]string{"models/b.sql": "select '{{ [modules.datetime.datetime(2024, 2, 30)] }}' as x"})
	if got := compilertest.Strings(diags); len(got) != 1 || !strings.Contains(got[0], "day is out of range for month") {
		t.Errorf("diagnostics %q, want the list item's ValueError", got)
	}
}

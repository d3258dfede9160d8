package compiler_test

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestTzinfoPrints: a datetime's tzinfo prints as Python's str() of it:
// None for a naive datetime (docket: attribute not found), UTC+09:00 /
// UTC-05:30 for a bare offset (docket: empty, the Go zone's name), UTC
// for Z and +00:00. Expectations from Python 3.11's
// datetime.fromisoformat.
func TestTzinfoPrints(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"models/a.sql": "{% set f = modules.datetime.datetime.fromisoformat %}" +
			"select '{{ f('2020-01-01T01:23:45').tzinfo }}|{{ f('2020-01-01T10:23:45+09:00').tzinfo }}|{{ f('2020-01-01T10:23:45-05:30').tzinfo }}|" +
			"{{ f('2020-01-01T10:23:45Z').tzinfo }}|{{ f('2020-01-01T10:23:45+00:00').tzinfo }}|{{ f('2020-01-01T01:23:45').tzinfo is none }}' as a",
	})
	if got := compilertest.Strings(diags); len(got) > 0 {
		t.Fatalf("diagnostics %q", got)
	}
	want := "'None|UTC+09:00|UTC-05:30|UTC|UTC|True' as a"
	if c := m.Nodes["model.mem.a"].CompiledCode; !strings.Contains(c, want) {
		t.Errorf("a.sql compiled to %q, want %q", c, want)
	}
}

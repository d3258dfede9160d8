package compiler_test

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestJinjaTestOperandErrorsRaise (review46's MEDIUM): an error in the
// operand of a Jinja test (`x is none`, `is string`, `is number`, ...)
// was given to the test as a value, which answered as for any value, and
// the template took a branch where Jinja2 and dbt raise: `{% if
// var('nosuch') is not none %}` was taken, `raise_compiler_error(...) is
// none` compiled. The error now stops the template; what Jinja2 hands a
// test as an Undefined (a name set nowhere, an item not found) still
// answers (`foo is defined` is False, `r[5] is none` False, `none.x is
// defined` False), and
// `foo.bar is defined` raises as Jinja2's does.
func TestJinjaTestOperandErrorsRaise(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"{% if var('nosuch') is not none %}select 1{% endif %}", `!required var "nosuch"`},
		{"{% if exceptions.raise_compiler_error('boom') is none %}{% endif %}select 1", "!boom"},
		{"{% if env_var('DOCKET_TEST_UNSET_XYZ') is not none %}select 1{% endif %}", "!DOCKET_TEST_UNSET_XYZ"},
		{"{% if (1 / 0) is number %}select 1{% endif %}", "!ZeroDivisionError"},
		{"{% if modules.re.search('(', 'a') is none %}select 1{% endif %}", "!modules.re"},
		{"{% set d = {} %}{% if d.x.y is none %}select 1{% endif %}", "!"},
		{"{{ foo.bar is defined }}", `!undefined name "foo"`},
		{"{{ foo is defined }}|{% set d = {} %}{{ d.x is defined }}|{{ d.x is undefined }}|{% set r = [1] %}{{ r[5] is defined }}|{{ r[5] is none }}|{{ foo is none }}",
			"False|False|True|False|False|False"},
		// an attribute or item of None is Jinja2's Undefined (review46: a
		// graph walker's node.test_metadata.name is in(...) on a singular
		// test, whose test_metadata is None, stopped the template)
		{"{% set re = modules.re %}{{ none.x is defined }}|{{ none['x'] is defined }}|{{ none.x is none }}|{{ (none.x or 'fb') }}|" +
			"{{ 'abc'[10] is defined }}|{{ (1, 2)[5] is defined }}|{{ {}['a'] is defined }}|{{ [1][3] is none }}|{{ re.nosuch is defined }}|" +
			"{{ (5).x is defined }}|{{ 'abc'.x is defined }}|{% set n = {'m': none} %}{{ n.m.name is in(['unique']) }}",
			"False|False|False|fb|False|False|False|False|False|False|False|False"},
		{"{{ none.x.y }}", "!'None' has no attribute 'x'"},
	} {
		m, diags := compilertest.Compile(t, map[string]string{"models/a.sql": c.src})
		d := compilertest.Strings(diags)
		if strings.HasPrefix(c.want, "!") {
			if len(d) == 0 || !strings.Contains(d[0], c.want[1:]) {
				t.Errorf("%s: diagnostics %q, want an error with %q (compiled %q)", c.src, d, c.want[1:], m.Nodes["model.mem.a"].CompiledCode)
			}
			continue
		}
		if len(d) > 0 {
			t.Errorf("%s: %q", c.src, d)
		} else if got := m.Nodes["model.mem.a"].CompiledCode; got != c.want {
			t.Errorf("%s: %q, want %q", c.src, got, c.want)
		}
	}
}

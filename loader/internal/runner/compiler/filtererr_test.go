package compiler_test

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestFailedCallThroughAFilterIsAnError: a macro call whose argument
// fails, then a filter, is the failure (as Jinja2 raises it), not the
// text "<errors.withStack Value>" in the SQL: dbt-project-evaluator's
// `is_not_empty_string(node.test_metadata) | trim` wrote
// cast(<errors.withStack Value> as boolean) into its insert. default
// still replaces an undefined name.
func TestFailedCallThroughAFilterIsAnError(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"macros/m.sql": "{% macro inner(x) %}{{ return('[' ~ x ~ ']') }}{% endmacro %}",
		"models/a.sql": "select '{{ inner(this.nosuch.deeper) | trim }}' as v", // this.nosuch is Undefined, as dbt's; .deeper raises
	})
	got := compilertest.Strings(diags)
	if len(got) != 1 || !strings.Contains(got[0], "a.sql") || !strings.Contains(got[0], "nosuch") {
		t.Errorf("diagnostics %q, want a.sql's failed attribute", got)
	}
	if c := m.Nodes["model.mem.a"].CompiledCode; strings.Contains(c, "errors.") {
		t.Errorf("a.sql compiled to %q", c)
	}
	m, diags = compilertest.Compile(t, map[string]string{"models/b.sql": "select '{{ no_such_name | default('d') | upper }}' as v"})
	if got := compilertest.Strings(diags); len(got) > 0 {
		t.Errorf("b.sql: diagnostics %q", got)
	}
	if c := strings.TrimSpace(m.Nodes["model.mem.b"].CompiledCode); c != "select 'D' as v" {
		t.Errorf("b.sql compiled to %q", c)
	}
}

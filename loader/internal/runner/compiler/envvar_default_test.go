package compiler_test

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestEnvVarDefaultKeyword: dbt's env_var(var, default=None) takes its
// default by keyword as well as by position. A model writing
// env_var('X', default='y') with X unset was an error ("environment
// variable ... is not set"), though profiles.yml took the same call
// (review30: three env_vars, one with the keyword).
func TestEnvVarDefaultKeyword(t *testing.T) {
	t.Setenv("DOCKET_ENVVAR_TEST_SET", "from env")
	m, diags := compilertest.Compile(t, map[string]string{
		"models/a.sql": "select '{{ env_var('DOCKET_ENVVAR_TEST_UNSET', default='by keyword') }}' as k, " +
			"'{{ env_var('DOCKET_ENVVAR_TEST_UNSET', 'by position') }}' as p, " +
			"'{{ env_var('DOCKET_ENVVAR_TEST_SET', default='unused') }}' as s",
	})
	if got := compilertest.Strings(diags); len(got) > 0 {
		t.Fatalf("diagnostics %q", got)
	}
	n := m.Nodes["model.mem.a"]
	if n == nil {
		t.Fatal("no model a")
	}
	if !strings.Contains(n.CompiledCode, "'by keyword' as k, 'by position' as p, 'from env' as s") {
		t.Errorf("a.sql compiled to %q", n.CompiledCode)
	}
	// without a default, an unset variable is still an error at the call
	_, diags = compilertest.Compile(t, map[string]string{"models/b.sql": "select '{{ env_var('DOCKET_ENVVAR_TEST_UNSET') }}' as u"})
	if got := compilertest.Strings(diags); len(got) != 1 || got[0] != `models/b.sql:1:9: environment variable "DOCKET_ENVVAR_TEST_UNSET" is not set` {
		t.Errorf("diagnostics %q, want b.sql's unset variable", got)
	}
}

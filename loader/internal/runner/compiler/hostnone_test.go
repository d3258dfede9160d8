package compiler_test

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestHostNoneRendersNone: a None that docket's own functions return
// prints "None", as dbt's Jinja prints it: config.get of a key not set,
// var() with a None default, dict.get of a missing key (each rendered ""
// on main, so SQL that dbt would have broken on kept going with an
// empty value). env_var with a None default is dbt's "Env var required
// but not provided" (dbt: `elif default is not None`); main rendered "".
func TestHostNoneRendersNone(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"models/a.sql": "select '{{ config.get('nothing') }}|{{ var('nope', none) }}|{{ {}.get('k') }}|{{ config.get('nothing', 'd') }}' as v",
	})
	if got := compilertest.Strings(diags); len(got) > 0 {
		t.Fatalf("diagnostics %q", got)
	}
	if c := m.Nodes["model.mem.a"].CompiledCode; !strings.Contains(c, "'None|None|None|d' as v") {
		t.Errorf("a.sql compiled to %q", c)
	}
	_, diags = compilertest.Compile(t, map[string]string{"models/b.sql": "select '{{ env_var('DOCKET_TEST_NEVER_SET_X', none) }}' as x"})
	if got := compilertest.Strings(diags); len(got) != 1 || !strings.Contains(got[0], "DOCKET_TEST_NEVER_SET_X") {
		t.Errorf("diagnostics %q, want env_var's not-set error", got)
	}
}

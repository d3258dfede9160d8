package compiler_test

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestDependencyCycle: a cycle between models is one diagnostic, at the
// ref that closes it in the node with the smallest id, naming the nodes
// in order; a model outside it is not reported.
func TestDependencyCycle(t *testing.T) {
	_, diags := compilertest.Compile(t, map[string]string{
		"project.yaml":  "version: 1\nname: cyc\n",
		"models/b.sql":  "select * from {{ ref('c') }}",
		"models/c.sql":  "select 1 as id,\n  * from {{ ref('a') }}",
		"models/a.sql":  "-- first\nselect * from {{ ref('b') }}",
		"models/ok.sql": "select * from {{ ref('a') }}",
	})
	got := compilertest.Strings(diags)
	want := "models/a.sql:2:18: dependency cycle: a -> b -> c -> a"
	if len(got) != 1 || got[0] != want {
		t.Errorf("diagnostics %q, want [%q]", got, want)
	}
	if strings.Contains(strings.Join(got, "\n"), "ok") {
		t.Errorf("a model downstream of the cycle is reported: %q", got)
	}
}

package compiler_test

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestRefToPackageModel: docket builds a package's macros, not its
// models: a package with models says so once, and ref('pkg', 'dim', v=1)
// is an error at the call, even when the root project has a model of that
// name (which it used to read, in silence). ref('<root>', 'dim') is the
// root's own model.
func TestRefToPackageModel(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"dbt_packages/p/dbt_project.yml": "name: p\nversion: '1'\nconfig-version: 2\n",
		"dbt_packages/p/models/dim.sql":  "select 1 as id",
		"dbt_packages/p/models/dim.yml":  "version: 2\nmodels:\n  - name: dim\n    versions:\n      - v: 1\n",
		"models/dim.sql":                 "select 2 as id",
		"models/own.sql":                 "select * from {{ ref('mem', 'dim') }}",
		"models/a.sql":                   "select * from\n  {{ ref('p', 'dim', v=1) }}",
		"models/b.sql":                   "select * from {{ ref('nope', 'dim') }}",
	})
	got := strings.Join(compilertest.Strings(diags), "\n")
	for _, want := range []string{
		`models/a.sql:2:6: ref("p", "dim"): docket builds package p's macros and generic tests, not its models`,
		`models/b.sql:1:18: ref("nope", "dim"): no project or installed package named "nope" (this project is "mem")`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("diagnostics lack %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "own.sql") {
		t.Errorf("ref('mem', 'dim') is the root's own model: %s", got)
	}
	warns := strings.Join(compilertest.Strings(m.Warnings), "\n")
	if !strings.Contains(warns, "dbt_packages/p/dbt_project.yml:1:1: package p has 1 model(s) (dim.sql, ...)") {
		t.Errorf("warnings:\n%s", warns)
	}
}

package compiler_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// varWarnings lists the warnings about vars, as path:line:col: message.
func varWarnings(m *compiler.Manifest) []string {
	out := []string{}
	for _, w := range compilertest.Strings(m.Warnings) {
		if strings.Contains(w, "var") {
			out = append(out, w)
		}
	}
	return out
}

// compileClean compiles the files, failing on a diagnostic.
func compileClean(t *testing.T, files map[string]string) *compiler.Manifest {
	t.Helper()
	m, diags := compilertest.Compile(t, files)
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	return m
}

// wantVarWarnings checks the warnings about vars against want.
func wantVarWarnings(t *testing.T, m *compiler.Manifest, want []string) {
	t.Helper()
	if got := varWarnings(m); !reflect.DeepEqual(got, want) {
		t.Errorf("warnings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestUnusedVarWarned: a var project.yaml sets that nothing reads is
// warned at its line; one read only in a branch the build does not take,
// only in a hook written in config(), or only through macros that hand
// their parameter on to var() (batch_count(rel, 'name'), also by keyword
// and through a second macro) is read, and so is one docket's Go code
// reads.
func TestUnusedVarWarned(t *testing.T) {
	m := compileClean(t, map[string]string{
		"project.yaml": "version: 1\nname: mem\nvars:\n  direct: 1\n  branch: 2\n  hooked: 3\n" +
			"  by_keyword: 4\n  twice_handed: 5\n  unread: 6\n  bm25_k1: 1.2\n  mem:\n    scoped_unread: 7\n",
		"macros/batching.sql": "{% macro batch_count(relation, var_name, default=10) %}" +
			"select count(*) / {{ var(var_name, default) }} from {{ relation }}{% endmacro %}\n" +
			"{% macro count_of(rel, name) %}{{ batch_count(rel, name) }}{% endmacro %}",
		"models/a.sql": "{{ config(post_hook=\"{{ batch_count('t', 'hooked') }}\") }}\n" +
			"{% if is_incremental() %}select {{ var('branch', 0) }}{% endif %}\n" +
			"select {{ var('direct') }} as x, ({{ batch_count('t', var_name='by_keyword') }}) as y, ({{ count_of('t', 'twice_handed') }}) as z",
	})
	want := []string{
		`project.yaml:9:3: var "unread" is set but no model, macro, hook or test reads it (a misspelt name? var() falls back to its default)`,
		`project.yaml:12:5: var "scoped_unread" is set but no model, macro, hook or test reads it (a misspelt name? var() falls back to its default)`,
	}
	wantVarWarnings(t, m, want)
}

// TestComputedVarNameWarned: a var() whose name is computed is warned at
// its place, and then no var is called unread (what it reads is unknown).
func TestComputedVarNameWarned(t *testing.T) {
	m := compileClean(t, map[string]string{
		"project.yaml": "version: 1\nname: mem\nvars:\n  part_a: 1\n",
		"models/a.sql": "{% set p = 'part' %}\nselect {{ var(p ~ '_a') }} as x",
	})
	got := varWarnings(m)
	if len(got) != 1 || !strings.HasPrefix(got[0], "models/a.sql:2:11: var() with a computed name") {
		t.Errorf("warnings %q", got)
	}
}

// TestUnreadVarWithMissingPackage: when packages.yml lists a package that
// is not installed, a var nothing installed reads may be that package's:
// the warning says so instead of calling it misspelt.
func TestUnreadVarWithMissingPackage(t *testing.T) {
	m, _ := compilertest.Compile(t, map[string]string{
		"project.yaml": "version: 1\nname: mem\nvars:\n  \"dbt_date:time_zone\": UTC\n",
		"packages.yml": "packages:\n  - package: godatadriven/dbt_date\n    version: 0.10.0\n",
		"models/a.sql": "select 1 as x",
	})
	want := []string{`project.yaml:4:3: var "dbt_date:time_zone" is set but no model, macro, hook or test reads it (or a package packages.yml lists but is not installed does)`}
	wantVarWarnings(t, m, want)
}

// TestVarReadByPackageNotWarned: a var the root project sets for an
// installed package (as Fivetran's and Snowplow's packages are
// configured) is read by the package's models, its sources' YAML or its
// dbt_project.yml, not by the root's files: it is not unread.
func TestVarReadByPackageNotWarned(t *testing.T) {
	m := compileClean(t, map[string]string{
		"project.yaml": "version: 1\nname: mem\nvars:\n  pkg_model_var: 1\n  pkg_source_var: 2\n  pkg_project_var: true\n  unread: 5\n",
		"dbt_packages/p/dbt_project.yml": "name: p\nversion: '1'\nconfig-version: 2\n" +
			"models:\n  p:\n    +enabled: \"{{ var('pkg_project_var', true) }}\"\n",
		"dbt_packages/p/models/dim.sql": "select {{ var('pkg_model_var', 0) }} as id",
		"dbt_packages/p/models/src.yml": "version: 2\nsources:\n  - name: stripe\n    schema: \"{{ var('pkg_source_var', 'raw') }}\"\n" +
			"    tables:\n      - name: t\n",
		"models/a.sql": "select 1 as x",
	})
	want := []string{`project.yaml:7:3: var "unread" is set but no model, macro, hook or test reads it (a misspelt name? var() falls back to its default)`}
	wantVarWarnings(t, m, want)
}

// TestVarReadThroughDefaultOrNamespace: a var named by the default of a
// macro parameter handed on to var() (get_x() with var_name='my_var') is
// read, and so is one passed to such a macro called through its
// package's namespace (p.pick('ns_var')).
func TestVarReadThroughDefaultOrNamespace(t *testing.T) {
	m := compileClean(t, map[string]string{
		"project.yaml":                   "version: 1\nname: mem\nvars:\n  my_var: 3\n  ns_var: 4\n  unread: 5\n",
		"dbt_packages/p/dbt_project.yml": "name: p\nversion: '1'\nconfig-version: 2\n",
		"dbt_packages/p/macros/pick.sql": "{% macro pick(name) %}{{ var(name, 0) }}{% endmacro %}",
		"macros/m.sql":                   "{% macro get_x(var_name='my_var') %}{{ var(var_name, 1) }}{% endmacro %}",
		"models/a.sql":                   "select {{ get_x() }} as x, {{ p.pick('ns_var') }} as y",
	})
	want := []string{`project.yaml:6:3: var "unread" is set but no model, macro, hook or test reads it (a misspelt name? var() falls back to its default)`}
	wantVarWarnings(t, m, want)
}

// TestVarReadInLoop: var(v) in a for loop over a list of names reads
// them: a literal list, or a macro parameter its callers pass as one
// (fivetran_utils.enabled_vars(['stripe__using_invoices']), which every
// Fivetran package installs). Neither is a computed name, which would
// turn the check off with a warning at the package's macro.
func TestVarReadInLoop(t *testing.T) {
	m := compileClean(t, map[string]string{
		"project.yaml":                   "version: 1\nname: mem\nvars:\n  loop_a: false\n  loop_b: true\n  lit_a: 1\n  unread: 5\n",
		"dbt_packages/p/dbt_project.yml": "name: p\nversion: '1'\nconfig-version: 2\n",
		"dbt_packages/p/macros/enabled.sql": "{% macro enabled_vars(vars) %}{% for v in vars %}{% if var(v, True) == False %}" +
			"{{ return(False) }}{% endif %}{% endfor %}{{ return(True) }}{% endmacro %}",
		"models/a.sql": "{{ config(enabled=p.enabled_vars(['loop_a', 'loop_b'])) }}\n" +
			"select {% for v in ['lit_a'] %}{{ var(v, 0) }}{% endfor %} as x",
		"models/b.sql": "select 1 as x",
	})
	wantVarWarnings(t, m, []string{`project.yaml:7:3: var "unread" is set but no model, macro, hook or test reads it (a misspelt name? var() falls back to its default)`})
}

// TestVarReadThroughDispatch: a macro that hands its parameters on to
// its adapter's implementation through adapter.dispatch (as
// fivetran_utils.source_relation does, whose default__source_relation
// reads var(union_schema_variable)) reads what its callers pass, or its
// parameters' defaults.
func TestVarReadThroughDispatch(t *testing.T) {
	m := compileClean(t, map[string]string{
		"project.yaml":                   "version: 1\nname: mem\nvars:\n  union_schemas: [a]\n  picked: 1\n  unread: 5\n",
		"dbt_packages/p/dbt_project.yml": "name: p\nversion: '1'\nconfig-version: 2\n",
		"dbt_packages/p/macros/rel.sql": "{% macro source_relation(union_schema_variable='union_schemas') -%}" +
			"{{ adapter.dispatch('source_relation', 'p')(union_schema_variable) }}{%- endmacro %}\n" +
			"{% macro default__source_relation(union_schema_variable) -%}" +
			"{% if var(union_schema_variable, none) %}1{% else %}2{% endif %}{%- endmacro %}",
		"models/a.sql": "select {{ p.source_relation() }} as x, {{ adapter.dispatch('source_relation', 'p')('picked') }} as y",
	})
	wantVarWarnings(t, m, []string{`project.yaml:6:3: var "unread" is set but no model, macro, hook or test reads it (a misspelt name? var() falls back to its default)`})
}

// TestPackageScopedVarWarned: a var in a block scoped to an installed
// package (vars: {p: {..}}) is read only by what that package's nodes
// see: its models, YAML and dbt_project.yml, and any macro (also through
// a literal its model hands on). One nothing reads (a misspelling), or
// one only the root's models read (they do not see the block), is warned
// at its line.
func TestPackageScopedVarWarned(t *testing.T) {
	m := compileClean(t, map[string]string{
		"project.yaml": "version: 1\nname: mem\nvars:\n  p:\n    by_model: 1\n    by_macro: 2\n    handed: 3\n" +
			"    by_root_model: 4\n    tpyo: 5\n",
		"dbt_packages/p/dbt_project.yml": "name: p\nversion: '1'\nconfig-version: 2\n",
		"dbt_packages/p/macros/m.sql":    "{% macro pm() %}{{ var('by_macro', 0) }}{% endmacro %}",
		"dbt_packages/p/models/dim.sql":  "select {{ var('by_model', 0) }} as id, {{ get_x('handed') }} as h",
		"macros/get_x.sql":               "{% macro get_x(name) %}{{ var(name, 1) }}{% endmacro %}",
		"models/a.sql":                   "select {{ var('by_root_model', 0) }} as x",
	})
	why := "(a misspelt name? var() falls back to its default)"
	wantVarWarnings(t, m, []string{
		`project.yaml:8:5: var "by_root_model" is set for package "p" but none of its models, hooks or tests nor any macro reads it ` + why,
		`project.yaml:9:5: var "tpyo" is set for package "p" but none of its models, hooks or tests nor any macro reads it ` + why,
	})
}

// TestPackageScopedVarMissingPackage: a block scoped to a package that
// packages.yml lists but that is not installed cannot be checked: that is
// warned at the block (it was called an unread var named after the
// package).
func TestPackageScopedVarMissingPackage(t *testing.T) {
	m, _ := compilertest.Compile(t, map[string]string{
		"project.yaml": "version: 1\nname: mem\nvars:\n  dbt_date:\n    tpyo: UTC\n  audit_helper:\n    x: 1\n",
		"packages.yml": "packages:\n  - package: godatadriven/dbt_date\n    version: 0.10.0\n" +
			"  - git: \"https://github.com/dbt-labs/dbt-audit-helper.git\"\n    revision: main\n",
		"models/a.sql": "select 1 as x",
	})
	notInstalled := ` are not checked for misspellings: packages.yml lists it but it is not installed under dbt_packages/, so what reads them is unknown`
	wantVarWarnings(t, m, []string{`project.yaml:4:3: vars scoped to package "dbt_date"` + notInstalled,
		`project.yaml:6:3: vars scoped to package "audit_helper"` + notInstalled})
}

// TestVarReadInSelectorsNotWarned: selectors.yml's values are rendered
// with var(), so a var read only there is read.
func TestVarReadInSelectorsNotWarned(t *testing.T) {
	m := compileClean(t, map[string]string{
		"project.yaml": "version: 1\nname: mem\nvars:\n  sel_tag: nightly\n  unread: 5\n",
		"selectors.yml": "selectors:\n  - name: nightly\n    definition:\n      method: tag\n" +
			"      value: \"{{ var('sel_tag') }}\"\n",
		"models/a.sql": "{{ config(tags=['nightly']) }}\nselect 1 as x",
	})
	wantVarWarnings(t, m, []string{`project.yaml:5:3: var "unread" is set but no model, macro, hook or test reads it (a misspelt name? var() falls back to its default)`})
}

package runner

import (
	"slices"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// pkgModelsProject is a root project "app" with a local package "pkg"
// that ships models (in its own model-paths, a versioned one among them),
// a seed, YAML tests, vars and a macro; the root overrides the package's
// configs (a disabled model, a custom schema), scopes vars to it, and
// refs cross both ways, including a name (common) both projects have.
func pkgModelsProject() map[string]string {
	return map[string]string{
		"dbt_project.yml": "name: app\nversion: '1.0'\nconfig-version: 2\nprofile: test\n" +
			"models:\n  app:\n    +materialized: table\n  pkg:\n    staging:\n      +schema: pkgstg\n    unwanted:\n      +enabled: false\n" +
			"vars:\n  shared: root_global\n  pkg:\n    scoped: root_scoped\n",
		"profiles.yml":       "test:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n      path: test.duckdb\n      schema: test_schema\n",
		"packages.yml":       "packages:\n  - local: vendor/pkg\n",
		"macros/label.sql":   "{% macro label() %}'root_label'{% endmacro %}",
		"models/base.sql":    "select 10 as id",
		"models/common.sql":  incrementalWho("root"),
		"models/pkg_who.sql": "select who from {{ ref('pkg', 'common') }}",
		"models/report.sql": "select s.n, d.id as dim_id, d2.id as dim2, {{ label() }} as lbl from {{ ref('summary') }} s, " +
			"{{ ref('pkg', 'dim') }} d, {{ ref('pkg', 'dim', v=2) }} d2",
		"vendor/pkg/dbt_project.yml": "name: pkg\nversion: '1.0'\nconfig-version: 2\nmodel-paths: [pkgmodels]\nseed-paths: [pkgseeds]\n" +
			"models:\n  pkg:\n    +materialized: view\n    marts:\n      +materialized: table\n" +
			"vars:\n  shared: pkg_default\n  scoped: pkg_default\n  own: pkg_own\n",
		"vendor/pkg/tests/no_negative.sql":           "select * from {{ ref('stg_items') }} where amount < 0",
		"vendor/pkg/macros/positive.sql":             "{% test positive(model, column_name) %}select * from {{ model }} where {{ column_name }} <= 0{% endtest %}",
		"vendor/pkg/macros/label.sql":                "{% macro label() %}'pkg_label'{% endmacro %}",
		"vendor/pkg/pkgseeds/items.csv":              "id,amount\n1,5\n2,7\n3,9\n",
		"vendor/pkg/pkgmodels/staging/stg_items.sql": "select * from {{ ref('items') }}",
		"vendor/pkg/pkgmodels/staging/common.sql":    incrementalWho("pkg"),
		"vendor/pkg/pkgmodels/from_src.sql":          "select count(*) as n from {{ source('pkgsrc', 'items') }}",
		"vendor/pkg/pkgmodels/sources.yml":           "version: 2\nsources:\n  - name: pkgsrc\n    schema: \"{{ target.schema }}\"\n    tables:\n      - name: items\n",
		"vendor/pkg/pkgmodels/marts/summary.sql": "select count(*) as n, '{{ var(\"shared\") }}' as shared, '{{ var(\"scoped\") }}' as scoped, " +
			"'{{ var(\"own\") }}' as own from {{ ref('stg_items') }}",
		"vendor/pkg/pkgmodels/who.sql":       "select who, {{ label() }} as lbl from {{ ref('common') }}",
		"vendor/pkg/pkgmodels/uses_root.sql": "select id from {{ ref('app', 'base') }}",
		"vendor/pkg/pkgmodels/unwanted.sql":  "select 1 as x",
		"vendor/pkg/pkgmodels/dim_v1.sql":    "select 1 as id",
		"vendor/pkg/pkgmodels/dim_v2.sql":    "select 2 as id",
		"vendor/pkg/pkgmodels/schema.yml": "version: 2\nmodels:\n  - name: dim\n    latest_version: 1\n    versions: [{v: 1}, {v: 2}]\n" +
			"  - name: stg_items\n    description: items, staged\n    columns:\n      - name: id\n        tests: [unique, not_null]\n" +
			"      - name: amount\n        tests:\n          - positive\n          - accepted_values: {values: [5, 7, 9], quote: false}\n",
	}
}

// incrementalWho is an incremental model of one row (who) that appends
// a second row on its incremental runs.
func incrementalWho(who string) string {
	return "{{ config(materialized='incremental') }}\nselect '" + who + "' as who\n{% if is_incremental() %}union all select '" + who + "'{% endif %}"
}

// TestPackageModelsBuild: a package's own models and seeds build as
// dbt-core + dbt-duckdb build them: model.pkg.<name> nodes placed by the
// package's dbt_project.yml under the root's overrides, refs resolved as
// dbt's resolve_ref (root first, then the node's package, then any),
// vars scoped, the package's macros first in its models, its YAML tests
// run. Before, only the package's macros were read (its models were a
// warning and ref('pkg', ...) an error).
func TestPackageModelsBuild(t *testing.T) {
	dir := writeProbe(t, pkgModelsProject())
	m, diags := parseProbe(t, dir)
	for _, d := range diags {
		t.Fatal(d)
	}
	validateManifest(t, m)
	for id, fqn := range map[string]string{"model.pkg.summary": "pkg.marts.summary", "model.pkg.dim.v1": "pkg.dim.v1",
		"seed.pkg.items": "pkg.items", "model.app.common": "app.common", "model.pkg.common": "pkg.staging.common",
		"source.pkg.pkgsrc.items": "pkg.pkgsrc.items"} {
		n := m.Nodes[id]
		if n == nil {
			n = m.Sources[id]
		}
		if n == nil {
			t.Errorf("no node %s", id)
			continue
		}
		if got := strings.Join(n.FQN, "."); got != fqn || n.PackageName != strings.Split(fqn, ".")[0] {
			t.Errorf("%s: fqn %s package %s, want %s", id, got, n.PackageName, fqn)
		}
	}
	if m.Disabled["model.pkg.unwanted"] == nil {
		t.Errorf("model.pkg.unwanted is not disabled by the root's models: pkg: unwanted: +enabled: false")
	}
	db := shapeDB(t, dir)
	rr := shapeRun(t, db, dir, "build", nil)
	tests := 0
	for _, r := range rr.Results {
		if strings.HasPrefix(r.UniqueID, "test.pkg.") && r.Status == executor.StatusPass {
			tests++
		}
	}
	if tests != 5 { // unique, not_null, accepted_values, the package's own positive, its singular no_negative
		t.Errorf("%d package tests passed, want 5: %+v", tests, rr.Results)
	}
	q := shapeQuery(t, db)
	// the two incremental models named common keep their own build state
	// (by unique_id): the second build finds each up to date
	again := shapeRun(t, db, dir, "build", nil)
	for _, r := range again.Results {
		if (r.UniqueID == "model.app.common" || r.UniqueID == "model.pkg.common") && !r.UpToDate {
			t.Errorf("second build: %s %s, want up to date", r.UniqueID, r.Status)
		}
	}
	for _, rel := range []string{"test_schema.common", "test_schema_pkgstg.common"} {
		if got := countRows(t, db, rel); got != 1 {
			t.Errorf("%s has %d rows after two builds, want 1", rel, got)
		}
	}
	for sql, want := range map[string]string{
		"select count(*) from test_schema.items":                                        "3",
		"select count(*) from test_schema_pkgstg.stg_items":                             "3",
		"select n || shared || scoped || own from test_schema.summary":                  "3root_globalroot_scopedpkg_own",
		"select who || lbl from test_schema.who":                                        "rootpkg_label",
		"select who from test_schema.pkg_who":                                           "pkg",
		"select id from test_schema.uses_root":                                          "10",
		"select n from test_schema.from_src":                                            "3",
		"select dim_id || '/' || dim2 || lbl from test_schema.report":                   "1/2root_label",
		"select count(*) from information_schema.tables where table_name = 'unwanted'":  "0",
		"select table_type from information_schema.tables where table_name = 'summary'": "BASE TABLE",
		"select table_type from information_schema.tables where table_name = 'who'":     "VIEW",
		"select table_type from information_schema.tables where table_name = 'report'":  "BASE TABLE",
	} {
		if got := q(sql); got != want {
			t.Errorf("%s: %q, want %q", sql, got, want)
		}
	}
}

// TestPackageSingularTestConfig: the root's data_tests: <pkg>: tree
// configures a package's singular and generic tests, folders included
// (tests/audit, a YAML in its model-paths' staging), as models:
// <pkg>: does its models (how a user quiets or disables a package's
// test); the root's top-level data_tests: keys reach them too. The old
// code took the path below its first folder (pkg/tests/audit/...) as the
// fqn: <pkg>: matched by accident, its folders never.
func TestPackageSingularTestConfig(t *testing.T) {
	files := pkgModelsProject()
	files["dbt_project.yml"] += "data_tests:\n  +tags: ['all_tests']\n  pkg:\n    +meta: {owner: pkg}\n    audit:\n      +severity: warn\n    staging:\n      +severity: warn\n"
	files["vendor/pkg/tests/audit/no_big.sql"] = "select * from {{ ref('stg_items') }} where amount > 1000"
	// the package's own data_tests: (under the root's, which wins)
	files["vendor/pkg/dbt_project.yml"] += "data_tests:\n  pkg:\n    +store_failures: true\n    audit:\n      +severity: error\n"
	files["vendor/pkg/pkgmodels/staging/checks.yml"] = "version: 2\nmodels:\n  - name: stg_items\n    columns:\n      - name: amount\n        data_tests: [not_null]\n"
	m, diags := parseProbe(t, writeProbe(t, files))
	for _, d := range diags {
		t.Fatal(d)
	}
	for _, id := range []string{"test.pkg.no_big", "test.pkg.not_null_stg_items_amount"} {
		n := m.Nodes[id]
		if n == nil {
			t.Fatalf("no %s", id)
		}
		if n.Config.Severity != "warn" || !slices.Contains(n.Config.Tags, "all_tests") || n.Config.Meta.Vals["owner"] != "pkg" || !n.Config.StoreFailures {
			t.Errorf("%s: severity %q tags %v meta %v store_failures %v, want warn, all_tests and owner pkg from the root's data_tests:, store_failures from the package's",
				id, n.Config.Severity, n.Config.Tags, n.Config.Meta, n.Config.StoreFailures)
		}
	}
}

// TestPackageModelsSelect: package:, a package fqn and graph operators
// reach package models.
func TestPackageModelsSelect(t *testing.T) {
	m, diags := parseProbe(t, writeProbe(t, pkgModelsProject()))
	for _, d := range diags {
		t.Fatal(d)
	}
	for sel, want := range map[string][]string{
		"package:pkg": {"model.pkg.common", "model.pkg.dim.v1", "model.pkg.dim.v2", "model.pkg.from_src",
			"model.pkg.stg_items", "model.pkg.summary", "model.pkg.uses_root", "model.pkg.who"},
		"pkg.marts.summary": {"model.pkg.summary"},
		// dbt also matches the fqn without its package: a folder of any project
		"staging":   {"model.pkg.common", "model.pkg.stg_items"},
		"marts":     {"model.pkg.summary"},
		"staging.*": {"model.pkg.common", "model.pkg.stg_items"},
		"+report":   {"model.app.report", "model.pkg.dim.v1", "model.pkg.dim.v2", "model.pkg.stg_items", "model.pkg.summary"},
		"base+":     {"model.app.base", "model.pkg.uses_root"},
	} {
		got, err := m.Select([]string{sel}, nil, "model")
		if err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("-s %s: %v, want %v", sel, got, want)
		}
	}
}

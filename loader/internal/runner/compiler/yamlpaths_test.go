package compiler_test

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestSchemaYAMLUnderEveryPath: a property YAML file under test-paths,
// analysis-paths or macro-paths is read, as dbt reads schema files from
// every resource path (all_source_paths): unit tests kept in tests/ run,
// an analyses: entry in analyses/ describes its analysis. Before, only the
// YAML under models/ and seeds/ was read; tests/*.yml was skipped without
// a word, so Fatombe/dbt_amelin's five unit tests never ran.
func TestSchemaYAMLUnderEveryPath(t *testing.T) {
	m, diags := parseDir(t, map[string]string{
		"dbt_project.yml": "name: p\ntest-paths: [checks]\n",
		"models/a.sql":    "select 1 as id",
		"analyses/q.sql":  "select * from {{ ref('a') }}",
		"checks/unit/a.yml": "unit_tests:\n  - name: ut_a\n    model: a\n    given: []\n    expect:\n      rows:\n        - {id: 1}\n" +
			"data_tests:\n  - name: s\n    description: singular\n",
		"analyses/q.yml":   "analyses:\n  - name: q\n    description: the question\n",
		"macros/m.sql":     "{% macro m() %}1{% endmacro %}",
		"macros/m.yml":     "macros:\n  - name: m\n    description: one\n  - name: nope\n    bogus: 1\n",
		"checks/extra.yml": "wrong_key: 1\n",
	})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if n := m.Nodes["unit_test.p.a.ut_a"]; n == nil {
		t.Errorf("unit test ut_a (in checks/unit/a.yml) not read; nodes %v", keys(m))
	}
	ws := strings.Join(compilertest.Strings(m.Warnings), "\n")
	if !strings.Contains(ws, `checks/extra.yml:1:1: unknown key "wrong_key"`) {
		t.Errorf("warnings %s: want checks/extra.yml's unknown key warned", ws)
	}
}

// TestPackageSchemaYAMLUnderEveryPath: a package's property YAML under its
// own test-paths and macro-paths is read too (dbt parses every project's
// all_source_paths): a column test a package declares in tests/*.yml
// becomes a test node, its macros/*.yml is read (macros: entries kept in
// manifest.json, said once). Before, only a package's models/ and seeds/
// YAML was read: the test never ran, without a word.
func TestPackageSchemaYAMLUnderEveryPath(t *testing.T) {
	m, diags := parseDir(t, map[string]string{
		"dbt_project.yml":                  "name: p\n",
		"models/a.sql":                     "select 1 as id",
		"packages.yml":                     "packages:\n  - local: dbt_packages/q\n",
		"dbt_packages/q/dbt_project.yml":   "name: q\ntest-paths: [checks]\n",
		"dbt_packages/q/models/pm.sql":     "select 1 as id",
		"dbt_packages/q/checks/pm.yml":     "models:\n  - name: pm\n    columns:\n      - name: id\n        data_tests: [not_null]\n",
		"dbt_packages/q/macros/qm.sql":     "{% macro qm() %}1{% endmacro %}",
		"dbt_packages/q/macros/macros.yml": "macros:\n  - name: qm\n    description: one\n",
	})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	found := false
	for id := range m.Nodes {
		found = found || strings.HasPrefix(id, "test.q.not_null_pm_id")
	}
	if !found {
		t.Errorf("the package's not_null test on pm.id (in checks/pm.yml) not read; nodes %v", keys(m))
	}
	ws := strings.Join(compilertest.Strings(m.Warnings), "\n")
	if !strings.Contains(ws, `dbt_packages/q/macros/macros.yml:1:1: macros: read and kept in manifest.json`) {
		t.Errorf("warnings %s: want the package's macros.yml read (its macros: entries said kept, not acted on)", ws)
	}
}

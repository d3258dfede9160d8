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

package compiler_test

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestWhereOnASingularTestIsWarned: dbt applies a test's where only to a
// generic test's model (get_where_subquery); on a singular test it was
// read and silently not applied. It is warned where it is set (the test's
// config() call; dbt_project.yml's data_tests: line); a generic test's
// where is not.
func TestWhereOnASingularTestIsWarned(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"models/a.sql":      "select 1 as id",
		"models/schema.yml": "version: 2\nmodels:\n  - name: a\n    columns:\n      - name: id\n        tests: [{not_null: {config: {where: \"id > 0\"}}}]\n",
		"tests/own.sql":     "{{ config(where='id > 1') }}\nselect * from {{ ref('a') }} where id < 0\n",
		"tests/plain.sql":   "select * from {{ ref('a') }} where id < 0\n",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	var got []string
	for _, w := range m.Warnings {
		if strings.Contains(w.Msg, "where is not applied") {
			got = append(got, w.String())
		}
	}
	if len(got) != 1 || !strings.HasPrefix(got[0], "tests/own.sql:1:") || !strings.Contains(got[0], "singular test own") {
		t.Errorf("want one warning at tests/own.sql:1, got %q (all: %v)", got, m.Warnings)
	}
}

package compiler_test

import (
	"strings"
	"testing"
)

// TestDisabledTestOfMissingPackage: a generic test that is disabled (its
// config: enabled: false, its flat enabled: false, or the project's
// data_tests: +enabled: false for its folder) is set aside as dbt's parser
// does (it renders the test with capture_macros, so a missing macro is no
// error, and adds the node to disabled): a package that is not installed,
// or a test macro that does not exist, no longer stops the project. An
// enabled one still fails at its line.
func TestDisabledTestOfMissingPackage(t *testing.T) {
	files := map[string]string{
		"dbt_project.yml": "name: mem\ndata_tests:\n  mem:\n    off:\n      +enabled: false\n",
		"models/a.sql":    "select 1 as id",
		"models/schema.yml": "version: 2\nmodels:\n  - name: a\n    columns:\n      - name: id\n        data_tests:\n" +
			"          - dbt_expectations.expect_column_values_to_be_between:\n              min_value: 0\n              config: {enabled: false}\n" +
			"          - no_such_test:\n              enabled: false\n" +
			"          - not_null\n",
		"models/off/b.sql":      "select 1 as id",
		"models/off/schema.yml": "version: 2\nmodels:\n  - name: b\n    data_tests:\n      - dbt_utils.expression_is_true:\n          expression: id > 0\n",
	}
	m, diags := parseDir(t, files)
	if len(diags) > 0 {
		t.Fatalf("disabled tests of a missing package or macro stopped the project: %v", diags)
	}
	var tests, disabled []string
	for id, n := range m.Nodes {
		if strings.HasPrefix(id, "test.") {
			tests = append(tests, n.Name)
		}
	}
	for id := range m.Disabled {
		if strings.HasPrefix(id, "test.") {
			disabled = append(disabled, id)
		}
	}
	if len(tests) != 1 || tests[0] != "not_null_a_id" || len(disabled) != 3 {
		t.Errorf("tests %v, disabled %v: want not_null_a_id run and the 3 others disabled", tests, disabled)
	}

	// enabled, the missing package is still an error at the test's line
	files["models/schema.yml"] = strings.Replace(files["models/schema.yml"], "config: {enabled: false}", "config: {severity: warn}", 1)
	_, diags = parseDir(t, files)
	got := strings.Join(diags, "\n")
	if !strings.Contains(got, "models/schema.yml:7:") || !strings.Contains(got, "package dbt_expectations is not installed") {
		t.Errorf("an enabled test of a missing package: %q, want the error at models/schema.yml:7", got)
	}
}

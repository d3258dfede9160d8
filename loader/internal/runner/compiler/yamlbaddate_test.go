package compiler_test

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestSchemaYAMLImpossibleDateIsAnError: a plain 2024-02-30 (or 24:00:00)
// in a schema file is a timestamp to PyYAML whose construction raises
// ValueError, so dbt reads no such file; docket read it as the string and
// built (review41 LOW 5). It is an error at its file:line:col now, for a
// models/ and a snapshots/ YAML file alike; quoted, it stays a string.
func TestSchemaYAMLImpossibleDateIsAnError(t *testing.T) {
	_, diags := compilertest.Compile(t, map[string]string{
		"models/a.sql":      "select 1 as id",
		"models/b.sql":      "select 1 as id",
		"models/schema.yml": "version: 2\nmodels:\n  - name: a\n    meta:\n      since: 2024-02-30\n  - name: b\n    meta: {since: '2024-02-30', ok: 2024-02-29}\n",
		"snapshots/s.yml":   "version: 2\nsnapshots:\n  - name: s\n    config:\n      meta: {at: 2024-01-02 24:00:00}\n",
		"snapshots/s.sql":   "{% snapshot s %}\n{{ config(target_schema='snapshots', unique_key='id', strategy='check', check_cols='all') }}\nselect 1 as id\n{% endsnapshot %}\n",
	})
	got := strings.Join(compilertest.Strings(diags), "\n")
	for _, want := range []string{
		"models/schema.yml:5:14: 2024-02-30 is a timestamp to PyYAML, whose safe_load raises ValueError: day is out of range for month",
		"snapshots/s.yml:5:18: 2024-01-02 24:00:00 is a timestamp to PyYAML, whose safe_load raises ValueError: hour must be in 0..23",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("diagnostics:\n%s\nwant %s", got, want)
		}
	}
	if n := strings.Count(got, "timestamp to PyYAML"); n != 2 {
		t.Errorf("%d timestamp errors, want 2 (the quoted one is a string):\n%s", n, got)
	}
}

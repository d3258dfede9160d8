package compiler_test

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestTestWhereIsRendered: a generic test's where config is Jinja that dbt
// renders when it builds the test (var, env_var, target), and the SQL
// filters by the rendered text; the test block's own config(where=...) is
// the default the YAML overrides. Before, the YAML's text was pasted into
// the SQL as written ({{ var(...) }} reached DuckDB) and a test block's
// where was ignored.
func TestTestWhereIsRendered(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"project.yaml": "version: 1\nname: mem\nvars:\n  min_id: 7\n",
		"models/a.sql": "select 1 as id, 2 as id2",
		"macros/t.sql": "{% test positive(model, column_name) %}{{ config(where='id <> 99') }}select * from {{ model }} where {{ column_name }} <= 0{% endtest %}",
		"models/s.yml": "version: 2\nmodels:\n  - name: a\n    columns:\n      - name: id\n        tests:\n" +
			"          - not_null:\n              config:\n                where: \"id > {{ var('min_id') }}\"\n" +
			"          - positive:\n              config:\n                where: \"id < {{ var('min_id') * 2 }}\"\n" +
			"          - unique\n      - name: id2\n        tests: [positive]\n",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	for id, want := range map[string]string{
		"test.mem.not_null_a_id":  "from (select * from main.a where id > 7) as model",
		"test.mem.positive_a_id":  "from (select * from main.a where id < 14) dbt_subquery",
		"test.mem.unique_a_id":    "from main.a as model",
		"test.mem.positive_a_id2": "from (select * from main.a where id <> 99) dbt_subquery",
	} {
		n := m.Nodes[id]
		if n == nil {
			t.Errorf("no %s among %v", id, keys(m))
			continue
		}
		if !strings.Contains(n.CompiledCode, want) || strings.Contains(n.CompiledCode, "{{") {
			t.Errorf("%s compiled to\n%s\nwant it to contain %q", id, n.CompiledCode, want)
		}
	}
}

// TestRefInTestWhereIsAnError: dbt renders a test's where with var,
// env_var and target only, so ref() or source() there is an error ("'ref'
// is undefined"); docket says so at the test's YAML line. Before, the
// call was pasted into the SQL as text.
func TestRefInTestWhereIsAnError(t *testing.T) {
	_, diags := compilertest.Compile(t, map[string]string{
		"models/a.sql": "select 1 as id",
		"models/b.sql": "select 1 as id",
		"models/s.yml": "version: 2\nmodels:\n  - name: a\n    columns:\n      - name: id\n        tests:\n" +
			"          - not_null:\n              config:\n                where: \"id in (select id from {{ ref('b') }})\"\n",
	})
	got := strings.Join(compilertest.Strings(diags), "\n")
	if !strings.Contains(got, "models/s.yml:7:13: config where:") || !strings.Contains(got, "ref() is not available in a test's where config") {
		t.Errorf("diagnostics:\n%s", got)
	}
}

// TestTestMetadataModelKwarg: a generic test's test_metadata.kwargs.model
// in manifest.json is the Jinja dbt's test builder writes
// ({{ get_where_subquery(ref('a')) }}, or source('raw', 'events')), not
// the relation's name.
func TestTestMetadataModelKwarg(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"models/a.sql":       "select 1 as id",
		"models/sources.yml": "version: 2\nsources:\n  - name: raw\n    tables:\n      - name: events\n        columns:\n          - name: id\n            tests: [not_null]\n",
		"models/s.yml":       "version: 2\nmodels:\n  - name: a\n    columns:\n      - name: id\n        tests: [unique]\n",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	for id, want := range map[string]string{
		"test.mem.unique_a_id":                   "{{ get_where_subquery(ref('a')) }}",
		"test.mem.source_not_null_raw_events_id": "{{ get_where_subquery(source('raw', 'events')) }}",
	} {
		n := m.Nodes[id]
		if n == nil {
			t.Fatalf("no %s among %v", id, keys(m))
		}
		md := m.NodeDoc(n)["test_metadata"].(map[string]any)
		if got := md["kwargs"].(map[string]any)["model"]; got != want {
			t.Errorf("%s kwargs.model = %v, want %s", id, got, want)
		}
	}
}

func keys(m *compiler.Manifest) []string { return compiler.SortedKeys(m.Nodes) }

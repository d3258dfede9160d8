package compiler_test

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestColumnQuoteInTests: a column with quote: true is passed to its tests
// quoted, as dbt's schema parser does (column_name = adapter.quote(name)),
// so a column named "Time Frame" is tested as "Time Frame"; the test's name
// is dbt's (the quotes become underscores). Before, quote: was warned as
// not applied and the test was a syntax error at run time
// (zazu-22/ff_data_analytics' sheets_raw.transactions."Time Frame").
func TestColumnQuoteInTests(t *testing.T) {
	m, diags := parseDir(t, map[string]string{
		"dbt_project.yml": "name: p\n",
		"models/a.sql":    "select 1 as \"my col\", 2 as id",
		"models/a.yml": "version: 2\nmodels:\n  - name: a\n    columns:\n      - name: my col\n        quote: true\n        data_tests: [unique]\n" +
			"      - name: id\n        quote: false\n        data_tests: [not_null]\n",
		"models/src.yml": "version: 2\nsources:\n  - name: src\n    tables:\n      - name: t\n        columns:\n          - name: Time Frame\n            quote: true\n            tests: [not_null]\n",
	})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	for _, w := range compilertest.Strings(m.Warnings) {
		if strings.Contains(w, `"quote"`) {
			t.Errorf("warning %q: quote is applied", w)
		}
	}
	wantCompiledTests(t, m, map[string]string{
		"test.p.source_not_null_src_t__Time_Frame_": `where "Time Frame" is null`,
		"test.p.unique_a__my_col_":                  `where "my col" is not null`,
		"test.p.not_null_a_id":                      `where id is null`,
	})
}

// TestSourceQuotingColumn: a source's `quoting: {column: true}` (or its
// table's, which wins) quotes the column name every test of its columns
// gets, as dbt's parser (UnpatchedSourceDefinition.quote_columns; a
// column's own quote: false still wins). Before, quoting was warned as not
// applied and the tests compared an unquoted "Order Id": a syntax error at
// run time. quoting's other keys stay warned at their line.
func TestSourceQuotingColumn(t *testing.T) {
	m, diags := parseDir(t, map[string]string{
		"dbt_project.yml": "name: p\n",
		"models/src.yml": "version: 2\nsources:\n  - name: src\n    quoting:\n      column: true\n      identifier: false\n    tables:\n" +
			"      - name: t\n        columns:\n          - name: Order Id\n            tests: [not_null]\n          - name: code\n            quote: false\n            tests: [unique]\n" +
			"      - name: u\n        quoting: {column: false}\n        columns:\n          - name: id\n            tests: [not_null]\n",
	})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	ws := compilertest.Strings(m.Warnings)
	for _, w := range ws {
		if strings.Contains(w, `"quoting"`) || strings.Contains(w, `"column"`) {
			t.Errorf("warning %q: quoting.column is applied", w)
		}
	}
	if !strings.Contains(strings.Join(ws, "\n"), `models/src.yml:6:7: source src: quoting "identifier" is read but not applied by docket`) {
		t.Errorf("warnings %q: want quoting.identifier warned at its line", ws)
	}
	wantCompiledTests(t, m, map[string]string{
		"test.p.source_not_null_src_t__Order_Id_": `where "Order Id" is null`,
		"test.p.source_unique_src_t_code":         `select code as unique_field`,
		"test.p.source_not_null_src_u_id":         `where id is null`,
	})
}

// wantCompiledTests: each test node id is in m and its compiled SQL holds
// the text given for it.
func wantCompiledTests(t *testing.T, m *compiler.Manifest, want map[string]string) {
	t.Helper()
	for id, w := range want {
		n := m.Nodes[id]
		if n == nil {
			t.Errorf("no test %s (nodes %v)", id, keys(m))
			continue
		}
		if !strings.Contains(n.CompiledCode, w) {
			t.Errorf("%s: %q, want %q in it", id, n.CompiledCode, w)
		}
	}
}

package compiler_test

import (
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"

	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// fakeQuerier answers every query from a table of canned results (by a
// word the query contains) and records what it was asked: the compiler's
// Database-reading Jinja tested with no database.
type fakeQuerier struct {
	answers map[string][][]any
	asked   []string
}

func (f *fakeQuerier) Query(_ context.Context, q string, args ...any) ([]string, [][]any, error) {
	f.asked = append(f.asked, strings.Join(strings.Fields(q), " ")+fmt.Sprintf("%v", args))
	for k, rows := range f.answers {
		if strings.Contains(q, k) {
			return []string{"a", "b"}, rows, nil
		}
	}
	return nil, nil, fmt.Errorf("no such table")
}

func (f *fakeQuerier) Exec(_ context.Context, q string) error {
	f.asked = append(f.asked, "exec "+q)
	return nil
}

// TestCompileWith: parse renders a database-reading model as dbt parses
// it (execute=false); CompileWith renders it again through the Querier
// (run_query on the ref resolved to its relation, get_columns_in_relation
// and get_relation with their arguments); a failing query is a mistake at
// the model's file and line, and the model keeps its parsed SQL; the
// parsed manifest is left as it was.
func TestCompileWith(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"seeds/s.csv": "id,name\n1,x\n7,y\n",
		"models/x.sql": "{% set r = run_query('select max(id) as a, 0 as b from ' ~ ref('s')) %}\n" +
			"{% set cols = adapter.get_columns_in_relation(ref('s')) %}\n" +
			"{% set rel = adapter.get_relation(database=none, schema='seeds', identifier='s') %}\n" +
			"select {{ r.columns[0].values()[0] if execute else 0 }} as top, '{{ cols | map(attribute='name') | join(',') }}' as cols,\n" +
			"  '{{ rel.type if rel else 'none' }}' as kind",
		"models/y.sql": "\n{% if execute %}{% set r = run_query('select * from nowhere') %}{% endif %}select 1 as id",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	x := m.Nodes["model.mem.x"]
	if !x.ReadsDatabase() || x.CompiledCode != "\n\n\nselect 0 as top, '' as cols,\n  'none' as kind" {
		t.Fatalf("parsed: reads %v, SQL %q", x.ReadsDatabase(), x.CompiledCode)
	}
	q := &fakeQuerier{answers: map[string][][]any{
		"max(id)":                    {{int64(7), int32(0)}},
		"information_schema.columns": {{"id", "INTEGER"}, {"name", "VARCHAR"}},
		"information_schema.tables":  {{"BASE TABLE"}},
	}}
	parsed := x.CompiledCode
	c, diags, _ := m.CompileWith(context.Background(), q, compiler.SortedKeys(m.Nodes))
	if got := compilertest.Strings(diags); len(got) != 1 || !strings.HasPrefix(got[0], "models/y.sql:2:") || !strings.Contains(got[0], "no such table") {
		t.Errorf("diagnostics %v", got)
	}
	if want := "\n\n\nselect 7 as top, 'id,name' as cols,\n  'table' as kind"; c.Nodes["model.mem.x"].CompiledCode != want {
		t.Errorf("compiled with the database:\n%q\nwant\n%q", c.Nodes["model.mem.x"].CompiledCode, want)
	}
	if x.CompiledCode != parsed || m.Nodes["model.mem.x"] != x {
		t.Errorf("CompileWith changed the parsed manifest: %q", x.CompiledCode)
	}
	if y := c.Nodes["model.mem.y"]; y.CompiledCode != "\nselect 1 as id" {
		t.Errorf("y keeps its parsed SQL, got %q", y.CompiledCode)
	}
	const cat = "table_catalog = coalesce((select database_name from duckdb_databases() where lower(database_name) = lower(?)), current_database())"
	want := []string{
		"select max(id) as a, 0 as b from seeds.s[]",
		// the relation's own database (an attach: alias), else the warehouse
		"select column_name, data_type from information_schema.columns where " + cat + " and table_schema = ? and table_name = ? order by ordinal_position[warehouse seeds s]",
		"select table_type from information_schema.tables where " + cat + " and table_schema = ? and table_name = ?[ seeds s]",
		"select * from nowhere[]",
	}
	if !reflect.DeepEqual(q.asked, want) {
		t.Errorf("asked\n%s\nwant\n%s", strings.Join(q.asked, "\n"), strings.Join(want, "\n"))
	}
}

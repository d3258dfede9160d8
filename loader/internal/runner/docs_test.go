package runner

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
)

// TestSQLHeaderAndPersistDocs: sql_header runs before the create statement
// (the model uses the temp macro it defines) and persist_docs writes the
// descriptions as DuckDB comments, as dbt-duckdb does: the relation's
// (table and view), and each documented column the relation has (matched
// without regard to case). Neither is warned as not applied any more but
// a seed's sql_header (dbt-duckdb has none there); a snapshot's runs too.
func TestSQLHeaderAndPersistDocs(t *testing.T) {
	files := shapeProject("docs", map[string]string{
		"models/t.sql": "{% call set_sql_header(config) %}create or replace temp macro twice(x) as x * 2;{% endcall %}\n" +
			"{{ config(materialized='table', persist_docs={'relation': true, 'columns': true}) }}\nselect twice(21) as answer, 1 as \"Other\", {{ config.persist_column_docs() }} as pcd",
		"models/v.sql": "select * from {{ ref('t') }}",
		"snapshots/s.sql": "{% snapshot s %}{{ config(unique_key='id', strategy='check', check_cols='all', sql_header='create or replace temp macro thrice(x) as x * 3;') }}" +
			"select answer as id, thrice(answer) as t3 from {{ ref('t') }}{% endsnapshot %}",
		"seeds/codes.csv": "code\n1\n",
		"seeds/seeds.yml": "version: 2\nseeds:\n  - name: codes\n    config:\n      sql_header: select 1\n",
		"models/schema.yml": "version: 2\nmodels:\n  - name: t\n    description: \"Table t's answers\"\n    columns:\n" +
			"      - {name: answer, description: The answer}\n      - {name: other, description: case differs}\n      - {name: missing, description: not in the relation}\n" +
			"  - name: v\n    description: A view\n    config:\n      persist_docs: {relation: true, columns: true}\n    columns:\n      - {name: answer, description: seen through v}\n",
	})
	files["dbt_project.yml"] += "models:\n  docs:\n    +sql_header: \"set threads = 2;\"\n"
	dir := writeProbe(t, files)
	m, diags := parseProbe(t, dir)
	for _, d := range diags {
		t.Fatal(d)
	}
	var warns []string
	for _, w := range m.Warnings {
		if strings.Contains(w.Msg, "sql_header") || strings.Contains(w.Msg, "persist_docs") {
			warns = append(warns, w.String())
		}
	}
	// a seed's sql_header is the one not applied (dbt-duckdb has none
	// there), warned where seeds.yml writes it
	if len(warns) != 1 || !strings.HasPrefix(warns[0], "seeds/seeds.yml:5:7:") || !strings.Contains(warns[0], "not applied to a seed") {
		t.Errorf("warnings %q, want only the seed's sql_header", warns)
	}
	cfg := m.NodeDoc(m.Nodes["model.docs.t"])["config"].(map[string]any)
	if pd, _ := cfg["persist_docs"].(map[string]any); pd["relation"] != true || pd["columns"] != true || !strings.Contains(fmt.Sprint(cfg["sql_header"]), "twice") {
		t.Errorf("manifest config of t: persist_docs %v, sql_header %v", cfg["persist_docs"], cfg["sql_header"])
	}
	validateManifest(t, m)
	db := shapeDB(t, dir)
	shapeRun(t, db, dir, "build", nil)
	if got := queryStrings(t, db.SQL(), "select id || ' ' || t3 from test_schema.s"); len(got) != 1 || got[0] != "42 126" {
		t.Errorf("snapshot s (its sql_header defines thrice; in the target schema, as dbt >= 1.9): %v", got)
	}
	var answer int
	var tc, vc string
	var pcd bool
	err := db.SQL().QueryRowContext(context.Background(), "select t.answer, t.pcd, (select comment from duckdb_tables() where table_name = 't'), "+
		"(select comment from duckdb_views() where view_name = 'v') from test_schema.t").Scan(&answer, &pcd, &tc, &vc)
	if err != nil {
		t.Fatal(err)
	}
	if answer != 42 || !pcd || tc != "Table t's answers" || vc != "A view" {
		t.Errorf("answer %d, persist_column_docs() %v, comments %q %q", answer, pcd, tc, vc)
	}
	got := queryStrings(t, db.SQL(), "select table_name || '.' || column_name || '=' || coalesce(comment, 'null') from duckdb_columns() "+
		"where schema_name = 'test_schema' and table_name in ('t', 'v') order by all")
	if want := "t.Other=case differs t.answer=The answer t.pcd=null v.Other=null v.answer=seen through v v.pcd=null"; strings.Join(got, " ") != want {
		t.Errorf("column comments %q, want %q", strings.Join(got, " "), want)
	}
}

// queryStrings is the first column of every row of q, as strings.
func queryStrings(t *testing.T, db *sql.DB, q string) []string {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	got := []string{}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		got = append(got, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return got
}

// TestSQLHeaderBeforeContract: an enforced contract's column check sees
// what the model's sql_header defines (a temp macro), as dbt-duckdb's
// does since its issue #515: the model builds and holds the answer.
func TestSQLHeaderBeforeContract(t *testing.T) {
	files := shapeProject("hdr", map[string]string{
		"models/header_model.sql": "{{ config(materialized='table') }}\n{% call set_sql_header(config) %}\ncreate or replace temp macro magic() as 42;\n{% endcall %}\nselect magic() as answer\n",
		"models/schema.yml":       "models:\n  - name: header_model\n    config:\n      contract:\n        enforced: true\n    columns:\n      - name: answer\n        data_type: integer\n",
	})
	dir := writeProbe(t, files)
	db := shapeDB(t, dir)
	shapeRun(t, db, dir, "run", nil)
	if got := queryStrings(t, db.SQL(), "select answer from test_schema.header_model"); len(got) != 1 || got[0] != "42" {
		t.Errorf("header_model: %v, want [42]", got)
	}
}

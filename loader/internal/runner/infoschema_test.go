package runner

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestCatalogQualifiedInformationSchema: `<database>.information_schema.X`
// (as dbt's cross-database macros write it, dbt_utils'
// get_tables_by_pattern_sql) reads DuckDB's system information_schema
// narrowed to that database, in model SQL and in run_query alike, quoted
// or not, with or without an alias; another attached database's tables
// are not listed, and a string that names it is left alone.
func TestCatalogQualifiedInformationSchema(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/a.sql": "{{ config(materialized='table') }} select 1 as x",
		"models/m/b.sql": "{{ config(materialized='table', pre_hook=[\"attach if not exists ':memory:' as other_db\", " +
			"\"create table if not exists other_db.main.a as select 1 as x\"]) }}\n" +
			"-- depends_on: {{ ref('a') }}\n" +
			"{% set q %}select count(*) as n from \"{{ target.database }}\".information_schema.tables t\n" +
			"  where t.table_name = 'a' and table_schema = '{{ this.schema }}'{% endset %}\n" +
			"{% set n = run_query(q).columns[0].values()[0] if execute else 0 %}\n" +
			"select {{ n }} as via_run_query,\n" +
			"  (select count(*) from {{ target.database }}.information_schema.tables where table_name = 'a') as via_model,\n" +
			"  (select count(*) from {{ target.database }}.information_schema.schemata where schema_name = 'other_db') as schemata,\n" +
			"  (select count(*) from information_schema.tables where table_name = 'a') as unqualified,\n" +
			"  '{{ target.database }}.information_schema.tables' as text",
	})
	m, diags := parseProbe(t, dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	db, rr := buildProbe(t, m)
	if r := resultsByName(rr)["b"]; r.Status != executor.StatusSuccess {
		t.Fatalf("%s %s", r.Status, r.Message)
	}
	var viaRQ, viaModel, schemata, unqualified int
	var text string
	err := db.SQL().QueryRow("select via_run_query, via_model, schemata, unqualified, text from m.b").
		Scan(&viaRQ, &viaModel, &schemata, &unqualified, &text)
	if err != nil {
		t.Fatal(err)
	}
	if viaRQ != 1 || viaModel != 1 || schemata != 0 || unqualified != 2 || !strings.HasSuffix(text, ".information_schema.tables") {
		t.Errorf("run_query %d, model %d, schemata %d (want 1, 1, 0); unqualified %d (want 2, both databases); text %q",
			viaRQ, viaModel, schemata, unqualified, text)
	}
}

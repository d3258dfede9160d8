package runner

import (
	"strings"
	"testing"
)

// TestCustomDatabaseWarned: a model's database config naming another
// database (dbt-duckdb writes there when profiles.yml attaches it; docket
// builds into its one warehouse file) is a warning at the config, and the
// model's relation is the one it is built as: it was built in the
// warehouse in silence while ref() and manifest.json named
// "other".schema.table, so every child failed "Catalog other does not
// exist". The warehouse's own name stays applied without a word.
func TestCustomDatabaseWarned(t *testing.T) {
	dir := writeProbe(t, shapeProject("cd", map[string]string{
		"models/in_other.sql": "{{ config(materialized='table',\n  database='other', schema='reporting') }} select 1 as n",
		"models/own.sql":      "{{ config(materialized='table', database='test') }} select 2 as n",
		"models/reads.sql":    "select * from {{ ref('in_other') }} union all select * from {{ ref('own') }}",
	}))
	m, diags := parseProbe(t, dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	var ws []string
	for _, w := range m.Warnings {
		if strings.Contains(w.String(), "database") {
			ws = append(ws, w.String())
		}
	}
	if len(ws) != 1 || !strings.HasPrefix(ws[0], "models/in_other.sql:1:4: config database \"other\" is not applied") {
		t.Errorf("warnings %q, want one at models/in_other.sql:1:4", ws)
	}
	if rel := m.Nodes["model.cd.in_other"].Relation; strings.Contains(rel, "other\".") || strings.HasPrefix(rel, "other.") {
		t.Errorf("in_other's relation %s names a database it is not built in", rel)
	}
	db := shapeDB(t, dir)
	shapeRun(t, db, dir, "build", nil)
	if got := queryStrings(t, db.SQL(), "select count(*) from test_schema_reporting.in_other"); len(got) != 1 || got[0] != "1" {
		t.Errorf("in_other in the warehouse: %v", got)
	}
}

// TestSeedColumnTypesOfAbsentColumns: a column_types entry naming a column
// the seed's CSV does not have (a folder-level +column_types meant for
// another seed) is warned where it is written and left out, as dbt
// ignores it; the seed failed to load ("COLUMN_TYPES error: Columns with
// names: amount do not exist").
func TestSeedColumnTypesOfAbsentColumns(t *testing.T) {
	files := shapeProject("sa", map[string]string{
		"seeds/codes.csv":  "code;label\npaid;Paid\n",
		"seeds/orders.csv": "id,amount\n1,2.5\n",
	})
	files["dbt_project.yml"] += "seeds:\n  sa:\n    +column_types:\n      amount: decimal(10,2)\n    codes:\n      +delimiter: ';'\n"
	dir, _, ws := probeWarnings(t, files, "column_types")
	if len(ws) != 1 || !strings.HasPrefix(ws[0], "dbt_project.yml:7:5: config column_types names amount, which seed codes does not have") {
		t.Errorf("warnings %q", ws)
	}
	db := shapeDB(t, dir)
	shapeRun(t, db, dir, "seed", nil)
	if got := queryStrings(t, db.SQL(), "select typeof(amount) from test_schema.orders"); len(got) != 1 || got[0] != "DECIMAL(10,2)" {
		t.Errorf("orders.amount %v", got)
	}
}

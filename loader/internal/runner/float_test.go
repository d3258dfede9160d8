package runner

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestFloatIsEightBytes: a seed's `column_types: float` and dbt's
// cross-database type_float() are DOUBLE, the 8-byte float of Postgres,
// Snowflake, BigQuery and Redshift (DuckDB's FLOAT is the 4-byte REAL, so
// dbt-utils' equality test at precision 8 found no difference); `real`
// stays REAL, and model SQL's own `float` is DuckDB's.
func TestFloatIsEightBytes(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"seeds/s.csv": "f,r\n62.3888186,1.5\n",
		"seeds/s.yml": "version: 2\nseeds:\n  - name: s\n    config:\n      column_types: {f: float, r: real}\n",
		"models/m/a.sql": "select typeof(f) as f, typeof(r) as r, typeof(cast(1 as {{ dbt.type_float() }})) as tf,\n" +
			"  typeof(cast(1 as float)) as sql_float from {{ ref('s') }}",
	})
	m, diags := parseProbe(t, dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	db, rr := buildProbe(t, m)
	if r := resultsByName(rr)["a"]; r.Status != executor.StatusSuccess {
		t.Fatalf("%s %s", r.Status, r.Message)
	}
	var f, r, tf, sqlFloat string
	if err := db.SQL().QueryRow("select f, r, tf, sql_float from m.a").Scan(&f, &r, &tf, &sqlFloat); err != nil {
		t.Fatal(err)
	}
	if f != "DOUBLE" || r != "FLOAT" || tf != "DOUBLE" || sqlFloat != "FLOAT" {
		t.Errorf("seed float %s, seed real %s, type_float %s (want DOUBLE, FLOAT, DOUBLE); SQL float %s (want FLOAT)",
			f, r, tf, sqlFloat)
	}
}

// TestFloatContract: a contract's `float` holds over a seed's float
// (DOUBLE) and over `cast(.. as float)` in the model's SQL (REAL), as it
// does under dbt-duckdb where both are REAL, without a warning; `integer`
// holds too (dbt-duckdb compares the kind, NUMBER), warned.
func TestFloatContract(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"seeds/s.csv":    "f\n1.5\n",
		"seeds/s.yml":    "version: 2\nseeds:\n  - name: s\n    config:\n      column_types: {f: float}\n",
		"models/m/a.sql": "select f, cast(f as float) as g from {{ ref('s') }}",
		"models/m/b.sql": "select f from {{ ref('s') }}",
		"models/m/a.yml": "version: 2\nmodels:\n  - name: a\n    config: {contract: {enforced: true}}\n    columns:\n" +
			"      - {name: f, data_type: float}\n      - {name: g, data_type: float}\n" +
			"  - name: b\n    config: {contract: {enforced: true}}\n    columns:\n      - {name: f, data_type: integer}\n",
	})
	m, diags := parseProbe(t, dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	_, rr := buildProbe(t, m)
	got := resultsByName(rr)
	if r := got["a"]; r.Status != executor.StatusSuccess {
		t.Errorf("a: %s %s", r.Status, r.Message)
	}
	// integer over DOUBLE: the same kind (NUMBER) for dbt-duckdb, so the
	// view builds, its type said in a warning
	if r := got["b"]; r.Status != executor.StatusSuccess || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "column f is DOUBLE in the SQL, the contract says INTEGER: a view keeps the SQL's type") {
		t.Errorf("b: %s %s %q", r.Status, r.Message, r.Warnings)
	}
}

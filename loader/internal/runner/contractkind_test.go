package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestContractKindAsDbtDuckDB: an enforced contract compares the kind of
// each column's type, as dbt-duckdb does (DuckDB's cursor.description:
// every integer, float and decimal is NUMBER, every timestamp DATETIME),
// and builds the table with the declared types. A real project
// (Saurabh-DS/datavault-dbt-duckdb-medallion) declares `bigint` over
// least(integer + 1, 9), an INTEGER: on main that failed the build. A
// cast that can change values is a warning at the contract's line, and
// so is a view's column of another type (a view keeps the SQL's); a
// column of another kind still fails.
func TestContractKindAsDbtDuckDB(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/a.sql": "select least(1::integer + 1, 9) as n, 2.5::double as d,\n" +
			"  timestamp '2024-01-02 03:04:05' as ts, 'x' as s, 7::smallint as w",
		"models/m/b.sql": "select 'x' as n",
		"models/m/c.sql": "select 1::integer as n",
		"models/m/a.yml": "version: 2\nmodels:\n  - name: a\n    config:\n      materialized: table\n      contract: {enforced: true}\n    columns:\n" +
			"      - {name: n, data_type: bigint}\n      - {name: d, data_type: integer}\n" +
			"      - {name: ts, data_type: timestamptz}\n      - {name: s, data_type: varchar}\n      - {name: w, data_type: 'decimal(10,2)'}\n" +
			"  - name: b\n    config: {contract: {enforced: true}}\n    columns:\n      - {name: n, data_type: integer}\n" +
			"  - name: c\n    config: {contract: {enforced: true}}\n    columns:\n      - {name: n, data_type: bigint}\n",
	})
	m, diags := parseProbe(t, dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	db, rr := buildProbe(t, m)
	got := resultsByName(rr)
	a := got["a"]
	if a.Status != executor.StatusSuccess {
		t.Fatalf("a: %s %s", a.Status, a.Message)
	}
	var types, d string
	if err := db.SQL().QueryRowContext(context.Background(), "select typeof(n) || ',' || typeof(d) || ',' || typeof(ts) || ',' || typeof(s) || ',' || typeof(w), d::varchar from m.a").Scan(&types, &d); err != nil {
		t.Fatal(err)
	}
	if types != "BIGINT,INTEGER,TIMESTAMP WITH TIME ZONE,VARCHAR,DECIMAL(10,2)" || d != "2" {
		t.Errorf("a built as %s, d = %s; want the declared types BIGINT,INTEGER,TIMESTAMP WITH TIME ZONE,VARCHAR,DECIMAL(10,2) and d 2 (DuckDB casts 2.5 to 2)", types, d)
	}
	// the casts that may change values are warned at the contract's line;
	// the widening ones (INTEGER -> BIGINT, SMALLINT -> DECIMAL(10,2)) are not
	warns := strings.Join(a.Warnings, "\n")
	for _, want := range []string{
		"models/m/a.yml:6: contract of a: column d is DOUBLE in the SQL, the contract says INTEGER",
		"models/m/a.yml:6: contract of a: column ts is TIMESTAMP in the SQL, the contract says TIMESTAMP WITH TIME ZONE",
	} {
		if !strings.Contains(warns, want) {
			t.Errorf("a's warnings:\n%s\nwant one starting %q", warns, want)
		}
	}
	if len(a.Warnings) != 2 {
		t.Errorf("a: %d warnings, want 2 (d, ts):\n%s", len(a.Warnings), warns)
	}
	if r := got["b"]; r.Status != executor.StatusError || !strings.Contains(r.Message, "column n is VARCHAR, the contract says INTEGER") {
		t.Errorf("b: %s %q, want the contract error (STRING is not NUMBER)", r.Status, r.Message)
	}
	// a view keeps the SQL's types (as under dbt-duckdb): said, not silent
	c := got["c"]
	if c.Status != executor.StatusSuccess || len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "models/m/a.yml:18: contract of c: column n is INTEGER in the SQL, the contract says BIGINT: a view keeps the SQL's type") {
		t.Errorf("c: %s %q, warnings %q", c.Status, c.Message, c.Warnings)
	}
}

package runner

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestSeedWholeNumbersInteger: a seed's column of whole numbers is
// INTEGER, as dbt-duckdb creates it (agate's Integer, the adapter's
// `integer`); DuckDB's CSV sniffer says BIGINT, and a contract of a real
// project (Saurabh-DS/datavault-dbt-duckdb-medallion, vehicle_registration_year
// declared integer) failed on it. A value past INTEGER's range keeps
// BIGINT, column_types wins, decimals stay DOUBLE.
func TestSeedWholeNumbersInteger(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"seeds/s.csv": "year,big,typed,price,name,empty\n2019,3000000000,5,1.5,a,\n-7,1,6,2,b,\n",
		"seeds/s.yml": "version: 2\nseeds:\n  - name: s\n    config:\n      column_types: {typed: bigint}\n",
	})
	m, diags := parseProbe(t, dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	db, rr := buildProbe(t, m)
	if r := resultsByName(rr)["s"]; r.Status != executor.StatusSuccess {
		t.Fatalf("s: %s %s", r.Status, r.Message)
	}
	got := strings.Join(queryStrings(t, db.SQL(), "select column_name || ' ' || data_type from information_schema.columns where table_name = 's' order by ordinal_position"), ", ")
	if want := "year INTEGER, big BIGINT, typed BIGINT, price DOUBLE, name VARCHAR, empty VARCHAR"; got != want {
		t.Errorf("seed columns: %s\nwant %s", got, want)
	}
	if got := strings.Join(queryStrings(t, db.SQL(), "select year || '/' || big from seeds.s order by year"), " "); got != "-7/1 2019/3000000000" {
		t.Errorf("rows %s", got)
	}
}

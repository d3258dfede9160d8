package compiler_test

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestExternalLocationKeyPlaceWarned: external_location written as a key of
// the source table itself (zazu-22/ff_data_analytics' sleeper sources) is
// read by neither dbt-duckdb nor docket: the source reads a table that does
// not exist (source freshness: "Table with name sleeper.players does not
// exist"). The warning says where dbt-duckdb reads it (meta: or config:),
// not only that docket does not apply the key.
func TestExternalLocationKeyPlaceWarned(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"project.yaml": "version: 1\nname: mem\n",
		"models/s.yml": "version: 2\nsources:\n  - name: sleeper\n    tables:\n      - name: players\n        external_location: \"data/players_*.parquet\"\n",
		"models/a.sql": "select 1 as id",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	want := `models/s.yml:6:9: source sleeper.players: key "external_location" here is read neither by dbt-duckdb nor by docket: put it under meta: or config: (dbt-duckdb's external source); as written, the source is a table of the database`
	got := compilertest.Strings(m.Warnings)
	found := false
	for _, w := range got {
		found = found || w == want
	}
	if !found {
		t.Errorf("warnings\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
}

package runner

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestDuckErrorKeepsItsReason: a DuckDB error whose first line only
// announces what follows ("CSV Error on Line: 3", "... the required
// extension 'httpfs':") keeps the rest of its first paragraph in the
// model's message (robust29's hunt: a model reading a remote parquet file
// failed with "...install the required extension 'httpfs':" and no reason;
// a typed read_csv of a bad value said only "CSV Error on Line: 3").
func TestDuckErrorKeepsItsReason(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"data/bad.csv":   "a,b\n1,2\nx,3\n",
		"models/m/a.sql": "{{ config(materialized='table') }} select * from read_csv('data/bad.csv', columns={'a': 'integer', 'b': 'integer'}, header=true)",
	})
	t.Chdir(dir)
	m, diags := parseProbe(t, dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	_, rr := buildProbe(t, m)
	r := resultsByName(rr)["a"]
	if r.Status != executor.StatusError || !strings.Contains(r.Message, `Could not convert string "x" to 'INTEGER'`) ||
		strings.Contains(r.Message, "\n") {
		t.Errorf("%s %q", r.Status, r.Message)
	}
}

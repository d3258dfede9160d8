package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestOnRunEndFailureKeepsResults: an on-run-end hook that fails after the
// nodes ran fails the run with its error, and the nodes' results stand
// (dbt writes them to run_results.json); they were dropped.
func TestOnRunEndFailureKeepsResults(t *testing.T) {
	files := shapeProject("hooks", map[string]string{"models/m/a.sql": "{{ config(materialized='table') }} select 1 as id"})
	files["dbt_project.yml"] += "on-run-end: [\"insert into no_such_table values (1)\"]\n"
	dir := writeProbe(t, files)
	db := shapeDB(t, dir)
	p, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, diags, err := compiler.Parse(p, compiler.ParseOptions{Owned: testOwned})
	if err != nil || len(diags) > 0 {
		t.Fatal(err, diags)
	}
	rr, err := executor.Execute(context.Background(), m, db, executor.RunOptions{Command: "run", Threads: 1})
	if err == nil || !strings.Contains(err.Error(), "on-run-end hook 1") {
		t.Fatalf("error %v, want the on-run-end hook's", err)
	}
	if rr == nil || len(rr.Results) != 1 || rr.Results[0].Status != StatusSuccess {
		t.Fatalf("results %+v, want model a's success", rr)
	}
}

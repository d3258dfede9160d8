package cli

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner"
)

// TestSummaryCountsCustomMaterializations: the closing summary counts the
// models of a custom materialization (swap_table) beside the built-in
// kinds; they were left out of "Finished running ..." (a run of only
// such models said "Finished running  in ...").
func TestSummaryCountsCustomMaterializations(t *testing.T) {
	rr := &runner.RunResults{}
	for _, r := range []struct{ id, mat string }{{"model.p.a", "table"}, {"model.p.b", "swap_table"}, {"model.p.c", "swap_table"}, {"model.p.d", "my_view"}} {
		rr.Results = append(rr.Results, runner.Result{UniqueID: r.id, Status: runner.StatusSuccess, ResourceType: runner.Model, Materialized: r.mat})
	}
	rr.Results = append(rr.Results, runner.Result{UniqueID: "test.p.t", Status: runner.StatusPass, ResourceType: runner.Test})
	var out strings.Builder
	printSummary(&out, t.TempDir(), nil, rr, false)
	want := "Finished running 1 table model, 1 my_view model, 2 swap_table models, 1 data test in "
	if !strings.Contains(out.String(), want) {
		t.Errorf("summary %q lacks %q", out.String(), want)
	}
}

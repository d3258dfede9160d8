package runner

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestUnknownIncrementalStrategyFailsOnlyItsModel: an incremental_strategy
// docket does not build (a typo, an adapter's own) is a warning at its config
// and an error of that model when it runs, as dbt fails that node at run
// time; its children are skipped and the rest builds (it was a parse
// error that stopped every node).
func TestUnknownIncrementalStrategyFailsOnlyItsModel(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/events.sql": "{{ config(materialized='incremental',\n  incremental_strategy='microbath') }}\nselect 1 as id, now() as ts",
		"models/m/after.sql":  "select * from {{ ref('events') }}",
		"models/m/other.sql":  "select 1 as id",
	})
	m, diags := parseProbe(t, dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	var warned []string
	for _, w := range m.Warnings {
		if strings.Contains(w.String(), "microbath") {
			warned = append(warned, w.String())
		}
	}
	if len(warned) != 1 || !strings.HasPrefix(warned[0], "models/m/events.sql:1:") {
		t.Errorf("warnings %q, want one at models/m/events.sql:1", warned)
	}
	rr, err := runDir(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range rr.Results {
		got[r.Name] = r.Status
		if r.Name == "events" && !strings.Contains(r.Message, `incremental_strategy "microbath"`) {
			t.Errorf("events: %s", r.Message)
		}
	}
	want := map[string]string{"events": executor.StatusError, "after": executor.StatusSkipped, "other": executor.StatusSuccess}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %s, want %s (all: %v)", k, got[k], v, got)
		}
	}
}

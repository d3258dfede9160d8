package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMicrobatchBuildAndRetry: `docket build --event-time-end` runs a
// microbatch model (dbt 1.9) one batch a day from its begin, each batch a
// line of its own; a failed batch leaves the others written, the model
// "partial success" with its batch_results in run_results.json (exit 1);
// after the fix `docket retry` runs only the failed batch. On main the
// model errored as an incremental strategy docket did not build.
func TestMicrobatchBuildAndRetry(t *testing.T) {
	dir, models := martsProject(t, map[string]string{
		"ev": "{{ config(event_time='ts') }}\nselect 1 as id, timestamp '2024-01-01 10:00:00' as ts, 10 as amount union all " +
			"select 2, timestamp '2024-01-02 10:00:00', -1 union all select 3, timestamp '2024-01-03 10:00:00', 30"})
	mb := func(amount string) {
		os.WriteFile(filepath.Join(models, "mb.sql"), []byte("{{ config(materialized='incremental', incremental_strategy='microbatch', "+
			"event_time='ts', batch_size='day', begin='2024-01-01') }}\nselect id, ts, "+amount+" as amount from {{ ref('ev') }}\n"), 0o644)
	}
	mb("cast(case when amount < 0 then 'not a number' else cast(amount as varchar) end as integer)")
	out, code := run(t, dir, "build", "-s", "ev", "mb", "--event-time-end", "2024-01-04")
	if code != 1 {
		t.Fatalf("a failed batch should exit 1, got %d:\n%s", code, out)
	}
	for _, want := range []string{"Batch 1 of 3 OK batch 20240101 of", "Batch 2 of 3 ERROR batch 20240102 of", "Batch 3 of 3 OK batch 20240103 of",
		"PARTIAL SUCCESS (2/3) creating sql microbatch model", "batch 20240102 (2024-01-02T00:00:00Z to 2024-01-03T00:00:00Z) failed:"} {
		if !strings.Contains(out, want) {
			t.Errorf("build output lacks %q:\n%s", want, out)
		}
	}
	var rr struct {
		Args    map[string]any `json:"args"`
		Results []struct {
			UniqueID     string                 `json:"unique_id"`
			Status       string                 `json:"status"`
			BatchResults map[string][][2]string `json:"batch_results"`
		} `json:"results"`
	}
	b, _ := os.ReadFile(filepath.Join(dir, "target", "run_results.json"))
	if err := json.Unmarshal(b, &rr); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range rr.Results {
		if strings.HasSuffix(r.UniqueID, ".mb") {
			found = true
			if r.Status != "partial success" || len(r.BatchResults["successful"]) != 2 ||
				len(r.BatchResults["failed"]) != 1 || r.BatchResults["failed"][0] != [2]string{"2024-01-02T00:00:00Z", "2024-01-03T00:00:00Z"} {
				t.Errorf("run_results of mb: %s %v", r.Status, r.BatchResults)
			}
		}
	}
	if !found || rr.Args["event_time_end"] != "2024-01-04T00:00:00Z" {
		t.Errorf("run_results: mb found %v, args %v", found, rr.Args)
	}

	mb("amount")
	out = must(t, dir, "retry")
	if !strings.Contains(out, "only those run again: mb:20240102") || !strings.Contains(out, "Batch 1 of 1 OK batch 20240102 of") || strings.Contains(out, "20240101") {
		t.Fatalf("retry should run the failed batch alone:\n%s", out)
	}
	if n := query(t, dir, "select count(*) || ' ' || sum(amount) from marts.mb"); n[0] != "3 39" {
		t.Errorf("after the retry: %v (rows, amount)", n)
	}
	if out := must(t, dir, "retry"); !strings.Contains(out, "Nothing to retry") {
		t.Fatalf("second retry:\n%s", out)
	}
}

package runner

import (
	"fmt"
	"strings"
	"testing"
)

// TestConcurrentBatchesFalseIsApplied: concurrent_batches=false is what
// docket does (batches one after another), so it is applied, not warned
// (robust29's ClickBench hunt: two models saying false were each warned);
// true is warned at its place, saying batches run in turn as under
// dbt-duckdb (dbt runs them concurrently only on adapters that declare
// MicrobatchConcurrency, which dbt-duckdb does not).
func TestConcurrentBatchesFalseIsApplied(t *testing.T) {
	mb := "{{ config(materialized='incremental', incremental_strategy='microbatch', event_time='ts', batch_size='day', begin='2024-01-01', concurrent_batches=%s) }}\nselect * from {{ ref('src') }}"
	_, _, ws := probeWarnings(t, map[string]string{
		"models/m/src.sql": "{{ config(event_time='ts') }}\nselect 1 as id, timestamp '2024-01-01' as ts",
		"models/m/off.sql": fmt.Sprintf(mb, "false"),
		"models/m/on.sql":  fmt.Sprintf(mb, "true"),
	}, "concurrent_batches")
	if len(ws) != 1 || !strings.Contains(ws[0], "models/m/on.sql:1:") || !strings.Contains(ws[0], "one after another") {
		t.Errorf("warnings %q: want one, at on.sql", ws)
	}
}

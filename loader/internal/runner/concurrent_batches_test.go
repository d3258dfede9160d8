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
// MicrobatchConcurrency, which dbt-duckdb does not); a value that is not
// a boolean is warned naming it as written (review29).
func TestConcurrentBatchesFalseIsApplied(t *testing.T) {
	mb := "{{ config(materialized='incremental', incremental_strategy='microbatch', event_time='ts', batch_size='day', begin='2024-01-01', concurrent_batches=%s) }}\nselect * from {{ ref('src') }}"
	_, _, ws := probeWarnings(t, map[string]string{
		"models/m/src.sql": "{{ config(event_time='ts') }}\nselect 1 as id, timestamp '2024-01-01' as ts",
		"models/m/off.sql": fmt.Sprintf(mb, "false"),
		"models/m/on.sql":  fmt.Sprintf(mb, "true"),
		"models/m/str.sql": fmt.Sprintf(mb, "'false'"),
	}, "concurrent_batches")
	if len(ws) != 2 || !strings.Contains(ws[0], "models/m/on.sql:1:") || !strings.Contains(ws[0], "concurrent_batches=true is not applied: the batches run one after another") ||
		!strings.Contains(ws[1], "models/m/str.sql:1:") || !strings.Contains(ws[1], `concurrent_batches="false" is not applied`) {
		t.Errorf("warnings %q: want two, at on.sql and str.sql naming the value", ws)
	}
}

package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFreshnessAndDocsTakeDbtFlags: a source whose external_location names
// a var (edwinweber/dbt_duckdb_demo_public's bronze sources) is checked
// where `source freshness --vars` points it, as dbt does; --target-dir
// writes there. docs generate takes --target-dir and --vars (the latter
// read but not applied, said so). Both refused the flags ("flag provided
// but not defined"), so the project's default path was all freshness read.
func TestFreshnessAndDocsTakeDbtFlags(t *testing.T) {
	dir := t.TempDir()
	feeds := filepath.Join(dir, "feeds")
	os.MkdirAll(feeds, 0o755)
	os.MkdirAll(filepath.Join(dir, "models"), 0o755)
	os.WriteFile(filepath.Join(dir, "dbt_project.yml"), []byte("name: fv\nversion: '1'\nconfig-version: 2\nprofile: p\nvars:\n  feed_root: /nowhere/at/all\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "profiles.yml"), []byte("p:\n  target: dev\n  outputs:\n    dev: {type: duckdb, path: fv.duckdb, schema: main}\n"), 0o644)
	os.WriteFile(filepath.Join(feeds, "events.csv"), []byte("id,loaded_at\n1,2999-01-01 00:00:00\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "models/sources.yml"), []byte(`version: 2
sources:
  - name: feed
    loaded_at_field: loaded_at
    freshness:
      error_after: {count: "{{ env_var('FV_DAYS', '2') | int }}", period: day}
    tables:
      - name: events
        meta:
          external_location: "read_csv('{{ var('feed_root') }}/events.csv', header = true)"
`), 0o644)
	os.WriteFile(filepath.Join(dir, "models/n_events.sql"), []byte("select count(*) as n from {{ source('feed', 'events') }}\n"), 0o644)
	vars := "{feed_root: " + feeds + "}"
	must(t, dir, "build", "--vars", vars)

	out, code := run(t, dir, "source", "freshness", "--vars", vars, "--target-dir", "fresh")
	if code != 0 || !strings.Contains(out, "PASS freshness of feed.events") {
		t.Fatalf("source freshness --vars should read the feed where the var points (exit %d):\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "fresh", "sources.json")); err != nil {
		t.Errorf("--target-dir fresh: no fresh/sources.json: %v", err)
	}
	// a far-future loaded_at (2999-01-01, a common sentinel) is an age in
	// float seconds, as dbt's total_seconds(): time.Sub saturated at ~292
	// years ("loaded -2562047h47m16s ago", -9223372036.855 in sources.json)
	var doc struct {
		Results []struct {
			Age float64 `json:"max_loaded_at_time_ago_in_s"`
		}
	}
	b, _ := os.ReadFile(filepath.Join(dir, "fresh", "sources.json"))
	if err := json.Unmarshal(b, &doc); err != nil || len(doc.Results) != 1 || doc.Results[0].Age > -2e10 || doc.Results[0].Age < -4e10 {
		t.Errorf("max_loaded_at_time_ago_in_s of 2999-01-01 should be about -3.07e10: %v %s", err, b)
	}
	if !strings.Contains(out, "days in the future]") || strings.Contains(out, "-2562047h") {
		t.Errorf("a far-future load time should read as days in the future:\n%s", out)
	}
	// without --vars the project's default is read: an error naming it
	out, code = run(t, dir, "source", "freshness")
	if code != 1 || !strings.Contains(out, "/nowhere/at/all") {
		t.Errorf("without --vars the default path is checked (exit 1), got %d:\n%s", code, out)
	}
	out, code = run(t, dir, "docs", "generate", "--no-images", "--vars", vars)
	if code != 0 || !strings.Contains(out, "--vars is read but not applied") {
		t.Errorf("docs generate --vars: exit %d (want 0 and a warning):\n%s", code, out)
	}
	out, code = run(t, dir, "docs", "generate", "--no-images", "--target-dir", "nowhere")
	if code == 0 || !strings.Contains(out, "nowhere") {
		t.Errorf("docs generate --target-dir nowhere should look for the manifest there (exit %d):\n%s", code, out)
	}
}

package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestProfileSettingsApplied: a profiles.yml output's settings: are SET on
// every connection of the run, as dbt-duckdb sets them on every cursor
// (they were warned and dropped: robust29's Left); memory_limit from the
// profile is the one in effect (set after docket's default). A setting
// DuckDB lacks (httpfs's s3_region) is named by UnknownSettings and left
// out; a value DuckDB refuses stops the run at its line.
func TestProfileSettingsApplied(t *testing.T) {
	profile := "test:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n      path: test.duckdb\n      threads: 2\n" +
		"      settings:\n        memory_limit: 1GB\n        TimeZone: America/New_York\n        s3_region: eu-west-1\n"
	files := map[string]string{
		"dbt_project.yml": "name: st\nprofile: test\n",
		"profiles.yml":    profile,
	}
	// two tables with no edge between them: with two threads each may run on either connection
	for _, name := range []string{"a", "b"} {
		files["models/"+name+".sql"] = "{{ config(materialized='table') }}\n" +
			"select current_setting('TimeZone') as tz, current_setting('memory_limit') as mem"
	}
	dir := writeProbe(t, files)
	db := shapeDB(t, dir)
	rr := shapeRun(t, db, dir, "build", nil)
	if len(rr.Results) != 2 {
		t.Fatalf("%d results", len(rr.Results))
	}
	for _, name := range []string{"a", "b"} {
		got := strings.Join(queryStrings(t, db.SQL(), "select tz || ' ' || mem from "+name), "")
		if got != "America/New_York 953.6 MiB" {
			t.Errorf("model %s saw %q, want the profile's TimeZone and memory_limit (1GB = 953.6 MiB)", name, got)
		}
	}
	m, diags := parseProbe(t, dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	ws, err := executor.UnknownSettings(context.Background(), db.SQL(), m)
	if err != nil || len(ws) != 1 || !strings.HasPrefix(ws[0], "profiles.yml:11:1: setting s3_region of output \"dev\"") {
		t.Errorf("unknown settings %q, %v", ws, err)
	}
	files["profiles.yml"] = strings.Replace(profile, "America/New_York", "Nowhere/Atlantis", 1)
	dir = writeProbe(t, files)
	m, _ = parseProbe(t, dir)
	_, err = executor.Execute(context.Background(), m, shapeDB(t, dir), executor.RunOptions{Command: "build", Threads: 1})
	if err == nil || !strings.HasPrefix(err.Error(), "profiles.yml:10:1: setting TimeZone = 'Nowhere/Atlantis': ") {
		t.Errorf("a TimeZone DuckDB refuses: %v", err)
	}
}

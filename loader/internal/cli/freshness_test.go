package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestSourceFreshnessCommand: docket source freshness after a load passes
// on docket's own load time, fails (exit 1) on a source past error_after,
// and writes target/sources.json valid against dbt's sources/v3 schema.
func TestSourceFreshnessCommand(t *testing.T) {
	dir := tinyProject(t)
	os.MkdirAll(filepath.Join(dir, "models/feeds"), 0o755)
	os.WriteFile(filepath.Join(dir, "models/sources.yml"), []byte(`version: 2
sources:
  - name: raw
    schema: raw
    freshness:
      warn_after: {count: 1, period: day}
    tables:
      - name: documents
  - name: feeds
    schema: feeds
    loaded_at_field: loaded_at
    freshness:
      error_after: {count: 12, period: hour}
    tables:
      - name: events
        identifier: old_events
`), 0o644)
	// A model plays an upstream feed that stopped two days ago.
	os.WriteFile(filepath.Join(dir, "models/feeds/old_events.sql"), []byte(
		"{{ config(materialized='table') }}\nselect now() - interval 2 day as loaded_at\n"), 0o644)
	must(t, dir, "load", "--quiet")
	must(t, dir, "run")
	out := must(t, dir, "source", "freshness", "-s", "source:raw")
	if !strings.Contains(out, "PASS freshness of raw.documents") || !strings.Contains(out, "by docket load") {
		t.Fatalf("raw should pass on docket's load time:\n%s", out)
	}
	out, code := run(t, dir, "source", "freshness")
	if code != 1 || !strings.Contains(out, "ERROR freshness of feeds.events") || !strings.Contains(out, "error after 12 hours") {
		t.Fatalf("a feed loaded two days ago is past error_after 12 hours (exit 1), got %d:\n%s", code, out)
	}
	doc, err := os.ReadFile(filepath.Join(dir, "target/sources.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"unique_id": "source.tiny.raw.documents"`, `"status": "pass"`, `"status": "error"`, `"period": "hour"`} {
		if !strings.Contains(string(doc), want) {
			t.Errorf("sources.json lacks %s:\n%s", want, doc)
		}
	}
	schemaPath, _ := filepath.Abs(filepath.Join(repo, "../shared/dbt/schemas/sources/v3.json"))
	if _, err := os.Stat(schemaPath); err != nil {
		t.Logf("no %s: sources.json not validated", schemaPath)
		return
	}
	sch, err := jsonschema.NewCompiler().Compile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(string(doc)))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(v); err != nil {
		t.Fatalf("target/sources.json is not valid sources/v3: %v", err)
	}
}

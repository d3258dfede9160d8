package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestParseWritesTheManifest: dbt parse (a real project's setup checks
// target/manifest.json after it) reads the project and writes the manifest
// without building or opening the warehouse. docket had no parse command
// ("unknown command").
func TestParseWritesTheManifest(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"dbt_project.yml": "name: pa\nversion: '1'\nconfig-version: 2\nprofile: p\n",
		"profiles.yml":    "p:\n  target: dev\n  outputs:\n    dev: {type: duckdb, path: pa.duckdb, schema: main}\n",
		"models/m.sql":    "select 1 as id",
	})
	must(t, dir, "parse")
	b, err := os.ReadFile(filepath.Join(dir, "target", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Nodes map[string]any `json:"nodes"`
	}
	if err := json.Unmarshal(b, &doc); err != nil || doc.Nodes["model.pa.m"] == nil {
		t.Errorf("manifest.json: %v, nodes %v", err, len(doc.Nodes))
	}
	if _, err := os.Stat(filepath.Join(dir, "pa.duckdb")); err == nil {
		t.Errorf("parse created the warehouse")
	}
}

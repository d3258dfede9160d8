package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestEmptyDbtProject: a dbt project with no node (dbt-tests-adapter's
// BaseEmpty) seeds and runs with exit 0 and writes manifest.json and an
// empty run_results.json as dbt does; docs generate then writes a catalog
// of no nodes and no sources.
func TestEmptyDbtProject(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "dbt_project.yml"), []byte("name: empty\nversion: '1'\nconfig-version: 2\nprofile: p\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "profiles.yml"), []byte("p:\n  target: dev\n  outputs:\n    dev: {type: duckdb, path: e.duckdb, schema: main}\n"), 0o644)
	for _, cmd := range []string{"seed", "run"} {
		must(t, dir, cmd)
		b, err := os.ReadFile(filepath.Join(dir, "target", "run_results.json"))
		if err != nil {
			t.Fatalf("docket %s wrote no run_results.json: %v", cmd, err)
		}
		var rr struct{ Results []any }
		if json.Unmarshal(b, &rr) != nil || len(rr.Results) != 0 {
			t.Errorf("docket %s: run_results %s", cmd, b)
		}
	}
	validateDBTArtifacts(t, filepath.Join(dir, "target"))
	must(t, dir, "docs", "generate")
	b, err := os.ReadFile(filepath.Join(dir, "target", "catalog.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cat struct{ Nodes, Sources map[string]any }
	if json.Unmarshal(b, &cat) != nil || cat.Nodes == nil || len(cat.Nodes) != 0 || len(cat.Sources) != 0 {
		t.Errorf("catalog.json: %s", b)
	}
}

package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLsVersionedModels: docket ls names each version of a versioned model
// by its own relation (main.dim_v1, main.dim_v2), and the version
// selectors pick them. Before, both versions were listed as main.dim.
func TestLsVersionedModels(t *testing.T) {
	dir := versionedDim(t, "select 1 as id")
	for sel, want := range map[string]string{"dim": "model\tmain.dim_v1\tview\nmodel\tmain.dim_v2\tview", "dim.v1": "model\tmain.dim_v1\tview", "version:latest": "model\tmain.dim_v2\tview"} {
		if got := strings.TrimSpace(must(t, dir, "ls", "--resource-type", "model", "-s", sel)); got != want {
			t.Errorf("docket ls -s %s:\n%s\nwant:\n%s", sel, got, want)
		}
	}
}

// versionedDim is a tinyProject made a dbt project with model dim in two
// versions: dim_v1.sql (v1sql) and dim_v2.sql, the latest.
func versionedDim(t *testing.T, v1sql string) string {
	t.Helper()
	dir := tinyProject(t)
	writeFiles(t, dir, map[string]string{
		"dbt_project.yml":   "name: tiny\nversion: '1.0'\nprofile: tiny\n",
		"models/dim_v1.sql": v1sql,
		"models/dim_v2.sql": "select 2 as id",
		"models/dim.yml":    "version: 2\nmodels:\n  - name: dim\n    versions:\n      - v: 1\n      - v: 2\n",
	})
	return dir
}

// writeFiles writes files (path under dir → content), making folders.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for rel, body := range files {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

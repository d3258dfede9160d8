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
	dir := tinyProject(t)
	write := func(rel, body string) {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	write("dbt_project.yml", "name: tiny\nversion: '1.0'\nprofile: tiny\n")
	write("models/dim_v1.sql", "select 1 as id")
	write("models/dim_v2.sql", "select 2 as id")
	write("models/dim.yml", "version: 2\nmodels:\n  - name: dim\n    versions:\n      - v: 1\n      - v: 2\n")
	for sel, want := range map[string]string{"dim": "model\tmain.dim_v1\tview\nmodel\tmain.dim_v2\tview", "dim.v1": "model\tmain.dim_v1\tview", "version:latest": "model\tmain.dim_v2\tview"} {
		if got := strings.TrimSpace(must(t, dir, "ls", "--resource-type", "model", "-s", sel)); got != want {
			t.Errorf("docket ls -s %s:\n%s\nwant:\n%s", sel, got, want)
		}
	}
}

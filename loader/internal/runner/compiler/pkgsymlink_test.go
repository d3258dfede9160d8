package compiler_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestSymlinkedPackageIsInstalled: a package under dbt_packages/ that is a
// symbolic link to its folder (what `dbt deps` makes of a local: entry, and
// how a shared checkout is usually installed) is a package. Before, it was
// skipped without a word (the folder walk took only real folders), so the
// project read "package dbt_utils is listed but not installed" and every
// dbt_utils test stopped it.
func TestSymlinkedPackageIsInstalled(t *testing.T) {
	shared := t.TempDir()
	os.MkdirAll(filepath.Join(shared, "macros"), 0o755)
	os.WriteFile(filepath.Join(shared, "dbt_project.yml"), []byte("name: dbt_utils\nversion: '1'\nconfig-version: 2\n"), 0o644)
	os.WriteFile(filepath.Join(shared, "macros", "t.sql"), []byte("{% test positive(model, column_name) %}select * from {{ model }} where {{ column_name }} <= 0{% endtest %}\n"), 0o644)
	files := map[string]string{
		"dbt_project.yml": "name: p\n",
		"packages.yml":    "packages:\n  - package: dbt-labs/dbt_utils\n    version: 1.3.1\n",
		"models/a.sql":    "select 1 as id",
		"models/a.yml":    "version: 2\nmodels:\n  - name: a\n    columns:\n      - name: id\n        data_tests: [dbt_utils.positive]\n",
	}
	m, diags := parseDirWith(t, files, func(dir string) {
		os.MkdirAll(filepath.Join(dir, "dbt_packages"), 0o755)
		if err := os.Symlink(shared, filepath.Join(dir, "dbt_packages", "dbt_utils")); err != nil {
			t.Skip("no symlinks here:", err)
		}
	})
	if len(diags) > 0 {
		t.Fatalf("a symlinked package was not read: %v (warnings %v)", diags, compilertest.Strings(m.Warnings))
	}
	for _, w := range compilertest.Strings(m.Warnings) {
		if strings.Contains(w, "not installed") {
			t.Errorf("warning %q for a symlinked package", w)
		}
	}
	if m.Nodes["test.p.dbt_utils_positive_a_id"] == nil {
		t.Errorf("the package's test did not build: nodes %v", keys(m))
	}
}

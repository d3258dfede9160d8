package compiler_test

import (
	"strings"
	"testing"
)

// TestPackagesInstallPath: dbt_project.yml's packages-install-path (here
// with env_var, as Som-Energia/somenergia-kpis writes it) is where dbt deps
// puts packages and dbt reads them. docket warned it as "a dbt setting docket
// does not act on" and read dbt_packages/ anyway: a project whose packages
// live elsewhere read "package dbt_utils is listed but not installed" and
// every test of it stopped the project. target-path's Jinja was not
// rendered either: artifacts went to a folder named "{{ env_var(...) }}".
func TestPackagesInstallPath(t *testing.T) {
	files := map[string]string{
		"dbt_project.yml":                  "name: p\npackages-install-path: \"{{ env_var('PKG_DIR_R33', 'vendor') }}\"\ntarget-path: \"{{ env_var('TGT_R33', 'out') }}\"\n",
		"packages.yml":                     "packages:\n  - package: dbt-labs/dbt_utils\n    version: 1.3.1\n",
		"vendor/dbt_utils/dbt_project.yml": "name: dbt_utils\nversion: '1'\nconfig-version: 2\n",
		"vendor/dbt_utils/macros/t.sql":    "{% test positive(model, column_name) %}select * from {{ model }} where {{ column_name }} <= 0{% endtest %}\n",
		"models/a.sql":                     "select 1 as id",
		"models/a.yml":                     "version: 2\nmodels:\n  - name: a\n    columns:\n      - name: id\n        data_tests: [dbt_utils.positive]\n",
	}
	m, diags := parseDir(t, files) // PKG_DIR_R33 unset: env_var's default
	if len(diags) > 0 {
		t.Fatalf("packages under packages-install-path were not read: %v", diags)
	}
	for _, w := range m.Warnings {
		if s := w.String(); strings.Contains(s, "not installed") || strings.Contains(s, "packages-install-path") {
			t.Errorf("warning %q", s)
		}
	}
	if !strings.HasSuffix(m.Project.TargetDir, "/out") {
		t.Errorf("target-path with env_var: %q, want <project>/out (it was a folder named after the Jinja)", m.Project.TargetDir)
	}
	if m.Nodes["test.p.dbt_utils_positive_a_id"] == nil {
		t.Errorf("the package's test did not build: nodes %v", keys(m))
	}
}

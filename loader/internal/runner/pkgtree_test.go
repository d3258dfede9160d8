package runner

import (
	"strings"
	"testing"
)

// TestTreeKeyOfAMissingPackage: a models: key naming a package that
// packages.yml lists but that is not installed says so, not "not the
// project name, a package or a folder" (robust29's ClickBench hunt:
// models: dbt_artifacts: +schema: beside a git package dbt_artifacts.git).
func TestTreeKeyOfAMissingPackage(t *testing.T) {
	_, _, ws := probeWarnings(t, map[string]string{
		"dbt_project.yml": "name: probe\nversion: '1'\nconfig-version: 2\nprofile: p\nmodels:\n  dbt_artifacts:\n    +schema: dbt_artifacts\n  nothing_here:\n    +schema: x\n",
		"packages.yml":    "packages:\n  - git: https://github.com/someone/dbt_artifacts.git\n    revision: main\n",
		"models/m/a.sql":  "select 1 as id",
	}, "models: key")
	if len(ws) != 2 || !strings.Contains(ws[0], `key "dbt_artifacts" names a package packages.yml lists but is not installed`) ||
		!strings.Contains(ws[1], `key "nothing_here" is not the project name`) {
		t.Errorf("warnings %q", ws)
	}
}

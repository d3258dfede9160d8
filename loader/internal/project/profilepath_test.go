package project

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProfileRelativePathFromAnotherFolderIsWarned: dbt-duckdb opens a
// relative profiles.yml path from the folder dbt runs in, so `dbt build
// --project-dir dbt_project` from a repository root builds ./dev.duckdb
// there (robust29's hunt: a project's Makefile ran `duckdb dev.duckdb` in
// the root); docket opens it from the project folder. The difference is a
// warning at the path's line naming both files; run from the project
// folder (or a path that is absolute) there is none.
func TestProfileRelativePathFromAnotherFolderIsWarned(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "dbt_project")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, sub, "dbt_project.yml", "name: acme\nprofile: acme\nconfig-version: 2\n")
	profiles := "acme:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n      path: dev.duckdb\n"
	writeFile(t, root, "profiles.yml", profiles)
	t.Setenv("DBT_PROFILES_DIR", "")
	t.Setenv("HOME", t.TempDir())
	t.Chdir(root)
	p, err := Load(sub)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range p.Warnings {
		if strings.Contains(w.Msg, "dev.duckdb") {
			got = append(got, w.String())
		}
	}
	want := filepath.Join(root, "profiles.yml") + ":6:"
	if len(got) != 1 || !strings.HasPrefix(got[0], want) || !strings.Contains(got[0], filepath.Join(root, "dev.duckdb")) ||
		!strings.Contains(got[0], filepath.Join(sub, "dev.duckdb")) || p.Warehouse != filepath.Join(sub, "dev.duckdb") {
		t.Errorf("warehouse %s, warnings %q: want one at %s naming both files", p.Warehouse, got, want)
	}
	// from the project folder: dbt and docket open the same file
	t.Chdir(sub)
	writeFile(t, sub, "profiles.yml", profiles)
	p, err = Load(sub)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range p.Warnings {
		if strings.Contains(w.Msg, "dev.duckdb") {
			t.Errorf("from the project folder: %s", w)
		}
	}
}

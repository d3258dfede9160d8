package compiler_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestUnappliedConfigWarnedAtEveryPlace: a config docket does not apply
// is warned at every place it is written, not only at the first: before,
// dbt-utils' integration_tests set +quote_columns at the seeds: level and
// again under two seeds, and only the first line was named (the lookup
// took the first "+quote_columns:" line of the file); a model's own
// config(docs=...) hid the +docs its folder sets.
func TestUnappliedConfigWarnedAtEveryPlace(t *testing.T) {
	files := map[string]string{
		"dbt_project.yml": `name: p
seeds:
  +quote_columns: false
  p:
    a:
      +quote_columns: true
    b:
      +column_types: {id: integer}
      +quote_columns: true
models:
  p:
    own:
      +docs: {node_color: red}
    marts:
      +grants: {select: [reporter]}
`,
		"seeds/a.csv":           "id\n1\n",
		"seeds/b.csv":           "id\n1\n",
		"seeds/c.csv":           "id\n1\n",
		"models/own/m.sql":      "{{ config(docs={'show': false}) }}\nselect 1 as id\n",
		"models/marts/mart.sql": "select 1 as id\n",
	}
	m := compileDir(t, files)
	var got []string
	for _, w := range m.Warnings {
		got = append(got, w.String())
	}
	for _, want := range []string{
		"dbt_project.yml:3:3: config quote_columns is read but not applied",
		"dbt_project.yml:6:7: config quote_columns is read but not applied",
		"dbt_project.yml:9:7: config quote_columns is read but not applied",
		"dbt_project.yml:13:7: config docs is read but not applied",
		"models/own/m.sql:1:4: config docs is read but not applied",
		"dbt_project.yml:15:7: config grants is read but not applied",
	} {
		if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, want) }) {
			t.Errorf("no warning %q in\n%s", want, strings.Join(got, "\n"))
		}
	}
}

// TestRequireDbtVersionChecked: a require-dbt-version that the dbt
// version docket builds as does not meet, in the project's or an
// installed package's dbt_project.yml, is a warning at its line (dbt
// stops there; it was taken without a word), and so is a config-version
// other than 2. A range it meets, and the project's own version:, say
// nothing.
func TestRequireDbtVersionChecked(t *testing.T) {
	m := compileDir(t, map[string]string{
		"dbt_project.yml":                "name: p\nversion: '3.1'\nconfig-version: 2\nrequire-dbt-version: ['>=1.7.0', '<2.0.0']\n",
		"models/m.sql":                   "select 1 as id\n",
		"packages.yml":                   "packages:\n  - local: dbt_packages/q\n",
		"dbt_packages/q/dbt_project.yml": "name: q\nconfig-version: 1\nrequire-dbt-version: \">=1.10.0, <2.0.0\"\n",
	})
	var got []string
	for _, w := range m.Warnings {
		if strings.Contains(w.Msg, "version") {
			got = append(got, w.String())
		}
	}
	want := []string{
		"dbt_packages/q/dbt_project.yml:2:1: config-version 1: docket reads dbt_project.yml as version 2, the only one dbt 1.x reads (version 1 was removed in dbt 1.0)",
		"dbt_packages/q/dbt_project.yml:3:1: require-dbt-version >=1.10.0, <2.0.0 is not met by dbt 1.8.0, the version docket builds as: docket builds anyway (dbt 1.8.0 would stop), and features of later dbt versions may be warned or missing",
	}
	if !slices.Equal(got, want) {
		t.Errorf("warnings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// compileDir writes files into a temporary folder and compiles it as a
// project on disk (project.Load reads dbt_project.yml there, which
// compilertest.Compile's project.yaml-only parse does not).
func compileDir(t *testing.T, files map[string]string) *compiler.Manifest {
	t.Helper()
	m, diags := parseDir(t, files)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	return m
}

// parseDir is compileDir that returns the diagnostics (path:line:col: msg).
func parseDir(t *testing.T, files map[string]string) (*compiler.Manifest, []string) {
	t.Helper()
	return parseDirWith(t, files, nil)
}

// parseDirWith is parseDir with more done in the folder (prepare) before it
// is read.
func parseDirWith(t *testing.T, files map[string]string, prepare func(dir string)) (*compiler.Manifest, []string) {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if prepare != nil {
		prepare(dir)
	}
	p, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, diags, err := compiler.Parse(p, compiler.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return m, compilertest.Strings(diags)
}

package project

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestBuiltInExtensionsAreNotWarned: a profile's extensions that docket's
// DuckDB has built in and loaded (parquet, json, icu) are what dbt-duckdb's
// INSTALL/LOAD would give, so only the others are warned, by name
// (robust29's ClickBench hunt: `extensions: [parquet, httpfs]` was one
// warning that read as if parquet did not work).
func TestBuiltInExtensionsAreNotWarned(t *testing.T) {
	for _, tc := range []struct{ list, want string }{
		{"[parquet, json]", ""},
		{"[parquet, httpfs]", "extensions httpfs of output"},
		{"[{name: spatial}, icu]", "extensions spatial of output"},
	} {
		dir := t.TempDir()
		writeFile(t, dir, "dbt_project.yml", "name: acme\nprofile: acme\nconfig-version: 2\n")
		writeFile(t, dir, "profiles.yml", "acme:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n      path: acme.duckdb\n      extensions: "+tc.list+"\n")
		t.Setenv("DBT_PROFILES_DIR", dir)
		p, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, w := range p.Warnings {
			if w.File == filepath.Join(dir, "profiles.yml") {
				got = append(got, w.Msg)
			}
		}
		if tc.want == "" && len(got) != 0 || tc.want != "" && (len(got) != 1 || !strings.HasPrefix(got[0], tc.want)) {
			t.Errorf("%s: warnings %q, want %q", tc.list, got, tc.want)
		}
	}
}

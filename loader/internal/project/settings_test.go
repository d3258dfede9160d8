package project

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestProfileSettings: a dbt-duckdb output's settings: are applied as
// dbt-duckdb applies them (SET name = 'value' on each connection), not
// warned wholesale as before (robust29's Left: clickbench's memory_limit,
// preserve_insertion_order and parquet_metadata_cache were all dropped
// with one warning). The settings docket cannot apply are warned each at
// its line; memory_limit and temp_directory give way to project.yaml's
// build: keys when it writes them (docket's own file), and only then.
func TestProfileSettings(t *testing.T) {
	profile := `acme:
  target: dev
  outputs:
    dev:
      type: duckdb
      path: acme.duckdb
      settings:
        memory_limit: 2GB
        preserve_insertion_order: false
        threads: 2
        autoload_known_extensions: true
        TimeZone: "Europe/O'Brien"
        temp_directory: /tmp/spill
`
	for _, tc := range []struct {
		name, projectYAML string
		applied, warned   string
	}{
		{"no project.yaml", "",
			"TimeZone=Europe/O'Brien@12 memory_limit=2GB@8 preserve_insertion_order=false@9 temp_directory=/tmp/spill@13 threads=2@10",
			"11:autoload_known_extensions"},
		{"project.yaml writes build", "version: 1\nname: acme\nbuild:\n  memory_limit: 1GB\n  temp_directory: spill\n",
			"TimeZone=Europe/O'Brien@12 preserve_insertion_order=false@9 threads=2@10",
			"11:autoload_known_extensions 8:memory_limit 13:temp_directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir, "dbt_project.yml", "name: acme\nprofile: acme\nconfig-version: 2\n")
			writeFile(t, dir, "profiles.yml", profile)
			if tc.projectYAML != "" {
				writeFile(t, dir, "project.yaml", tc.projectYAML)
			}
			t.Setenv("DBT_PROFILES_DIR", dir)
			p, err := Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			var applied, warned []string
			for _, s := range p.Target.Settings {
				applied = append(applied, fmt.Sprintf("%s=%s@%d", s.Name, s.Value, s.Line))
			}
			for _, w := range p.Warnings {
				if w.File == filepath.Join(dir, "profiles.yml") {
					warned = append(warned, fmt.Sprintf("%d:%s", w.Line, strings.Fields(w.Msg)[1]))
					if strings.Contains(w.Msg, "memory_limit") && !strings.Contains(w.Msg, "project.yaml:4") {
						t.Errorf("the warning does not name project.yaml's line: %s", w.Msg)
					}
				}
			}
			if got := strings.Join(applied, " "); got != tc.applied {
				t.Errorf("applied %s\nwant    %s", got, tc.applied)
			}
			if got := strings.Join(warned, " "); got != tc.warned {
				t.Errorf("warned %s, want %s", got, tc.warned)
			}
		})
	}
	if got, want := (Setting{Name: "TimeZone", Value: "Europe/O'Brien"}).SQL(), "SET TimeZone = 'Europe/O''Brien'"; got != want {
		t.Errorf("SQL %s, want %s", got, want)
	}
}

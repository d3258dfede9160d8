package project

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// profiles.yml values are Jinja as dbt renders them: env_var with a
// default (the shape dbt-duckdb's docs and most projects use) must give
// the path, never a file literally named "{{ env_var(...) }}".
func TestProfilesEnvVar(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "dbt_project.yml", "name: acme\nprofile: acme\nconfig-version: 2\n")
	writeFile(t, dir, "profiles.yml", `acme:
  target: dev
  outputs:
    dev:
      type: duckdb
      path: "{{ env_var('DOCKET_TEST_DUCKDB_PATH', 'acme.duckdb') }}"
      threads: "{{ env_var('DOCKET_TEST_THREADS', 3) | int }}"
    strict:
      type: duckdb
      path: "{{ env_var('DOCKET_TEST_UNSET_PATH') }}"
    other:
      type: duckdb
      path: "{{ target.name }}.duckdb"
`)
	t.Setenv("DBT_PROFILES_DIR", dir)
	os.Unsetenv("DOCKET_TEST_DUCKDB_PATH")
	os.Unsetenv("DOCKET_TEST_UNSET_PATH")
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p.Warehouse != filepath.Join(dir, "acme.duckdb") || p.Target.Threads != 3 {
		t.Errorf("default: warehouse %s threads %d, want %s and 3", p.Warehouse, p.Target.Threads, filepath.Join(dir, "acme.duckdb"))
	}
	t.Setenv("DOCKET_TEST_DUCKDB_PATH", "/data/wh.duckdb")
	if p, err = Load(dir); err != nil || p.Warehouse != "/data/wh.duckdb" {
		t.Errorf("env set: warehouse %v, %v; want /data/wh.duckdb", p, err)
	}
	if err := p.UseTarget("strict"); err == nil || !strings.Contains(err.Error(), "DOCKET_TEST_UNSET_PATH is not set") {
		t.Errorf("unset env_var without default: %v", err)
	}
	if err := p.UseTarget("other"); err == nil || !strings.Contains(err.Error(), "profiles.yml") {
		t.Errorf("other Jinja must be an error naming profiles.yml: %v", err)
	}
}

// Every key of the dbt-duckdb output in use is applied or warned at its
// line in profiles.yml: extensions, settings, attach, ... were dropped in
// silence. external_root is applied (absolute, from the project folder).
func TestProfileKeysNotAppliedAreWarned(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "dbt_project.yml", "name: acme\nprofile: acme\nconfig-version: 2\n")
	writeFile(t, dir, "profiles.yml", `acme:
  target: dev
  outputs:
    dev:
      type: duckdb
      path: acme.duckdb
      external_root: out
      extensions:
        - httpfs
      settings:
        memory_limit: 2GB
      keep_open: true
    other:
      type: duckdb
      path: other.duckdb
`)
	t.Setenv("DBT_PROFILES_DIR", dir)
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range p.Warnings {
		if w.File == filepath.Join(dir, "profiles.yml") {
			got = append(got, fmt.Sprintf("%d:%s", w.Line, strings.Fields(w.Msg)[0]))
		}
	}
	if want := []string{"8:extensions", "12:keep_open"}; fmt.Sprint(got) != fmt.Sprint(want) { // settings: TestProfileSettings
		t.Errorf("warnings %q, want %q", got, want)
	}
	if p.Target.ExternalRoot != filepath.Join(dir, "out") {
		t.Errorf("external_root %q, want %q", p.Target.ExternalRoot, filepath.Join(dir, "out"))
	}
	// another target replaces the first one's warnings
	if err := p.UseTarget("other"); err != nil {
		t.Fatal(err)
	}
	for _, w := range p.Warnings {
		if w.File == filepath.Join(dir, "profiles.yml") {
			t.Errorf("target other: %s", w)
		}
	}
}

// TestProfilesInCurrentFolder: dbt reads profiles.yml where it runs
// before ~/.dbt, so `dbt build --project-dir sub` from a repository root
// holding profiles.yml uses it (dbt-duckdb recipe repos are laid out so).
// docket built into warehouse.duckdb without a word.
func TestProfilesInCurrentFolder(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "dbt_project")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, sub, "dbt_project.yml", "name: acme\nprofile: acme\nconfig-version: 2\n")
	profiles := "acme:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n      path: dev.duckdb\n      schema: analytics\n"
	writeFile(t, root, "profiles.yml", profiles)
	t.Setenv("DBT_PROFILES_DIR", "")
	t.Setenv("HOME", t.TempDir())
	t.Chdir(root)
	p, err := Load(sub)
	if err != nil {
		t.Fatal(err)
	}
	if p.Target.Schema != "analytics" || filepath.Base(p.Warehouse) != "dev.duckdb" || p.Target.File != filepath.Join(root, "profiles.yml") {
		t.Errorf("target %+v, warehouse %s: want the current folder's profiles.yml (schema analytics, dev.duckdb)", p.Target, p.Warehouse)
	}
}

// TestProfilesDirMissedIsWarned: DBT_PROFILES_DIR (or --profiles-dir)
// naming a folder without profiles.yml is dbt's error; docket reads the
// next place but says so (it did in silence, building into the current
// folder's profile's file).
func TestProfilesDirMissedIsWarned(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "dbt_project.yml", "name: acme\nprofile: acme\nconfig-version: 2\n")
	profiles := "acme:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n      path: dev.duckdb\n"
	writeFile(t, root, "profiles.yml", profiles)
	empty := t.TempDir()
	t.Setenv("DBT_PROFILES_DIR", empty)
	t.Setenv("HOME", t.TempDir())
	t.Chdir(root)
	p, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range p.Warnings {
		if strings.Contains(w.Msg, "DBT_PROFILES_DIR") {
			got = append(got, w.String())
		}
	}
	if len(got) != 1 || !strings.Contains(got[0], empty) || !strings.Contains(got[0], filepath.Join(root, "profiles.yml")) {
		t.Errorf("warnings %q: want one naming %s and the profiles.yml read instead", got, empty)
	}
	t.Setenv("DBT_PROFILES_DIR", root)
	if p, err = Load(root); err != nil {
		t.Fatal(err)
	}
	for _, w := range p.Warnings {
		if strings.Contains(w.Msg, "DBT_PROFILES_DIR") {
			t.Errorf("warned with profiles.yml found there: %s", w)
		}
	}
}

// TestProfileDefaultTargetEnvVar: a profile's default `target:` is Jinja
// as its outputs are (target: "{{ env_var('DBT_ENVIRONMENT', 'dev') }}",
// as frizzleqq/f1-dbt-duckdb writes it); it was taken as the output's name.
func TestProfileDefaultTargetEnvVar(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "dbt_project.yml", "name: f1\nprofile: f1\nconfig-version: 2\n")
	profiles := "f1:\n  target: \"{{ env_var('DOCKET_TEST_DBT_ENV', 'dev') }}\"\n  outputs:\n    dev:\n      type: duckdb\n      path: dev.duckdb\n      schema: public\n" +
		"    prod:\n      type: duckdb\n      path: prod.duckdb\n"
	writeFile(t, dir, "profiles.yml", profiles)
	t.Setenv("DBT_PROFILES_DIR", dir)
	os.Unsetenv("DOCKET_TEST_DBT_ENV")
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p.Target.Name != "dev" || p.Target.Schema != "public" {
		t.Errorf("default target %q schema %q, want dev and public", p.Target.Name, p.Target.Schema)
	}
	t.Setenv("DOCKET_TEST_DBT_ENV", "prod")
	if p, err = Load(dir); err != nil || p.Target.Name != "prod" || filepath.Base(p.Warehouse) != "prod.duckdb" {
		t.Errorf("DOCKET_TEST_DBT_ENV=prod: %v %v", p, err)
	}
}

// writeFile writes name into dir, failing the test on an error.
func writeFile(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The profile dbt_project.yml names and docket cannot use (no profiles.yml
// anywhere it looks, or one without that profile) is a warning at the
// profile: line saying what is used instead: before, docket built into
// its default warehouse without a word (dbt stops there).
func TestProfileNotFoundIsWarned(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "dbt_project.yml", "name: acme\nconfig-version: 2\nprofile: acme\n")
	t.Setenv("DBT_PROFILES_DIR", "")
	t.Setenv("HOME", t.TempDir())
	t.Chdir(root)
	profileWarnings := func() []string {
		p, err := Load(root)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, w := range p.Warnings {
			if strings.Contains(w.Msg, "profile") {
				got = append(got, w.String())
			}
		}
		return got
	}
	at := filepath.Join(root, "dbt_project.yml") + ":3: "
	if got := profileWarnings(); len(got) != 1 || !strings.HasPrefix(got[0], at) || !strings.Contains(got[0], "no profiles.yml") ||
		!strings.Contains(got[0], "builds into warehouse.duckdb,") {
		t.Errorf("no profiles.yml: warnings %q, want one at %s naming the warehouse used, relative to the project", got, at)
	}
	writeFile(t, root, "profiles.yml", "other:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n      path: other.duckdb\n")
	if got := profileWarnings(); len(got) != 1 || !strings.HasPrefix(got[0], at) || !strings.Contains(got[0], `no profile "acme"`) {
		t.Errorf("profile not in profiles.yml: warnings %q, want one at %s", got, at)
	}
	writeFile(t, root, "profiles.yml", "acme:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n      path: acme.duckdb\n")
	if got := profileWarnings(); len(got) != 0 {
		t.Errorf("profile found: warnings %q", got)
	}
	// A folder with project.yaml too: it names the warehouse, the dbt
	// profile is only a fallback, so its absence is no setting lost.
	os.Remove(filepath.Join(root, "profiles.yml"))
	writeFile(t, root, "project.yaml", "version: 1\nname: acme\n")
	if got := profileWarnings(); len(got) != 0 {
		t.Errorf("project.yaml beside dbt_project.yml, no profiles.yml: warnings %q, want none", got)
	}
}

// dbt renders every string of the profile, nested ones too: an attach:
// entry's path and options and a settings: value with env_var were passed
// on as written, so docket attached (or set a temp_directory to) a file
// literally named "{{ env_var(...) }}".
func TestProfilesNestedJinja(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "dbt_project.yml", "name: acme\nprofile: acme\nconfig-version: 2\n")
	writeFile(t, dir, "profiles.yml", `acme:
  target: dev
  outputs:
    dev:
      type: duckdb
      path: acme.duckdb
      attach:
        - path: "{{ env_var('DOCKET_TEST_LAKE', 'lake') }}/catalog.duckdb"
          alias: "{{ 'lake' | upper }}"
          options:
            data_path: "{{ env_var('DOCKET_TEST_LAKE', 'lake') }}/data/"
      settings:
        temp_directory: "{{ env_var('DOCKET_TEST_TMP', 'spill') }}"
`)
	t.Setenv("DBT_PROFILES_DIR", dir)
	for _, k := range []string{"DOCKET_TEST_LAKE", "DOCKET_TEST_TMP"} {
		t.Setenv(k, "") // restored after the test
		os.Unsetenv(k)
	}
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Target.Attach) != 1 {
		t.Fatalf("attach: %+v", p.Target.Attach)
	}
	a := p.Target.Attach[0]
	if a.Path != filepath.Join(dir, "lake", "catalog.duckdb") || a.Alias != "LAKE" || a.Options["data_path"] != "'lake/data/'" {
		t.Errorf("attach rendered as %+v, want path %s, alias LAKE, data_path lake/data/", a, filepath.Join(dir, "lake", "catalog.duckdb"))
	}
	var tmp string
	for _, s := range p.Target.Settings {
		if s.Name == "temp_directory" {
			tmp = s.Value
		}
	}
	if tmp != "spill" {
		t.Errorf("settings temp_directory = %q, want spill", tmp)
	}
}

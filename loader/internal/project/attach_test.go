package project

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestProfileAttachRead: dbt-duckdb's attach: entries are read (path from
// the project folder, alias or the file's stem, type, read_only,
// options) instead of warned as not applied; an entry without path and a
// key docket does not apply are warned at their line.
func TestProfileAttachRead(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "dbt_project.yml", "name: acme\nprofile: acme\nconfig-version: 2\n")
	writeFile(t, dir, "profiles.yml", `acme:
  target: dev
  outputs:
    dev:
      type: duckdb
      path: acme.duckdb
      attach:
        - path: data/other.duckdb
          alias: other
          read_only: true
        - path: /abs/lake.db
          type: sqlite
          options: {busy_timeout: 100, note: "it's"}
        - alias: nopath
        - path: ':memory:'
          alias: mem
          is_ducklake: false
`)
	t.Setenv("DBT_PROFILES_DIR", dir)
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range p.Warnings {
		if w.File == filepath.Join(dir, "profiles.yml") {
			got = append(got, fmt.Sprintf("%d:%s", w.Line, strings.Join(strings.Fields(w.Msg)[:3], " ")))
		}
	}
	if want := []string{"14:attach entry 3", "17:is_ducklake of attach"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("warnings %q, want %q", got, want)
	}
	var sqls []string
	for _, a := range p.Target.Attach {
		sqls = append(sqls, fmt.Sprintf("%d %s", a.Line, a.SQL()))
	}
	want := []string{
		fmt.Sprintf(`8 attach if not exists '%s' as "other" (read_only)`, filepath.Join(dir, "data/other.duckdb")),
		`11 attach if not exists '/abs/lake.db' as "lake" (type sqlite, busy_timeout 100, note 'it''s')`,
		`15 attach if not exists ':memory:' as "mem"`,
	}
	if strings.Join(sqls, "\n") != strings.Join(want, "\n") {
		t.Errorf("attach:\n%s\nwant\n%s", strings.Join(sqls, "\n"), strings.Join(want, "\n"))
	}
}

package runner

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestSeedBuiltInAttachedDatabase: a seed whose database config names a
// profiles.yml attach: entry is loaded into that file, as dbt-duckdb
// loads it, and a ref() to it reads it there (robust28 built it in the
// warehouse with a warning); built again (its CSV edited) it is replaced
// there. A read_only attachment stays warned.
func TestSeedBuiltInAttachedDatabase(t *testing.T) {
	ctx := context.Background()
	files := map[string]string{
		"dbt_project.yml": "name: adb\nversion: '1'\nconfig-version: 2\nprofile: p\n" +
			"seeds:\n  adb:\n    codes:\n      +database: lake\n      +schema: ref\n    ro_codes:\n      +database: ro\n",
		"profiles.yml": "p:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n      path: adb.duckdb\n      attach:\n" +
			"        - path: lake.duckdb\n        - path: ro.duckdb\n          read_only: true\n",
		"seeds/codes.csv":    "code,label\na,Alpha\nb,Beta\n",
		"seeds/ro_codes.csv": "code\nz\n",
		"models/reads.sql":   "{{ config(materialized='table') }}\nselect count(*) as n from {{ ref('codes') }}",
	}
	dir, m := attachProbe(t, files, "lake.duckdb", "ro.duckdb")
	var ws []string
	for _, w := range m.Warnings {
		if strings.Contains(w.Msg, "database") {
			ws = append(ws, w.String())
		}
	}
	if len(ws) != 1 || !strings.Contains(ws[0], `config database "ro"`) || !strings.Contains(ws[0], "read_only") {
		t.Errorf("warnings %q: want one, for ro_codes", ws)
	}
	if rel := m.Nodes["seed.adb.codes"].Relation; rel != "lake.main_ref.codes" {
		t.Errorf("codes' relation %s", rel)
	}
	db, rr := buildProbe(t, m)
	for _, r := range rr.Results {
		if r.Status != executor.StatusSuccess {
			t.Errorf("%s: %s %s", r.UniqueID, r.Status, r.Message)
		}
	}
	// the CSV edited: loaded again into the attached file
	writeFile(t, filepath.Join(dir, "seeds", "codes.csv"), []byte("code,label\na,Alpha\nb,Beta\nc,Gamma\n"))
	m, _ = parseProbe(t, dir)
	if rr, err := executor.Execute(ctx, m, db, executor.RunOptions{Command: "build", Threads: 1}); err != nil || rr.Failed() {
		t.Fatalf("second build: %v %+v", err, rr)
	}
	q := shapeQuery(t, db)
	if s := q("select string_agg(database_name || '.' || schema_name || '.' || table_name, ' ' order by 1) from duckdb_tables() where table_name in ('codes', 'ro_codes', 'reads')"); s !=
		"adb.main.reads adb.main.ro_codes lake.main_ref.codes" {
		t.Errorf("tables: %s", s)
	}
	if s := q("select (select count(*) from lake.main_ref.codes) || ' ' || (select n from main.reads)"); s != "3 3" {
		t.Errorf("codes rows, reads.n: %s", s)
	}
}

package runner

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestSnapshotBuiltInAttachedDatabase: a snapshot whose database config
// names a profiles.yml attach: entry is written in that file, as
// dbt-duckdb writes it: created on its first run, a changed row closed
// and its new version inserted on the next (robust28 and robust29's
// first commit built it in the warehouse with a warning).
func TestSnapshotBuiltInAttachedDatabase(t *testing.T) {
	ctx := context.Background()
	files := map[string]string{
		"dbt_project.yml": "name: adb\nversion: '1'\nconfig-version: 2\nprofile: p\n",
		"profiles.yml": "p:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n      path: adb.duckdb\n      attach:\n" +
			"        - path: lake.duckdb\n",
		"seeds/codes.csv": "code,label\na,Alpha\nb,Beta\n",
		"snapshots/snap.sql": "{% snapshot snap %}{{ config(database='lake', target_schema='hist', unique_key='code', strategy='check', check_cols='all') }}\n" +
			"select * from {{ ref('codes') }}{% endsnapshot %}",
		"models/reads.sql": "{{ config(materialized='table') }}\nselect count(*) as n from {{ ref('snap') }}",
	}
	dir, m := attachProbe(t, files, "lake.duckdb")
	for _, w := range m.Warnings {
		if strings.Contains(w.Msg, "database") {
			t.Errorf("warning: %s", w)
		}
	}
	if rel := m.Nodes["snapshot.adb.snap"].Relation; rel != "lake.hist.snap" {
		t.Errorf("snap's relation %s", rel)
	}
	db, rr := buildProbe(t, m)
	for _, r := range rr.Results {
		if r.Status != executor.StatusSuccess {
			t.Errorf("%s: %s %s", r.UniqueID, r.Status, r.Message)
		}
	}
	writeFile(t, filepath.Join(dir, "seeds", "codes.csv"), []byte("code,label\na,Alpha\nb,Bravo\n"))
	m, _ = parseProbe(t, dir)
	if rr, err := executor.Execute(ctx, m, db, executor.RunOptions{Command: "build", Threads: 1}); err != nil || rr.Failed() {
		for _, r := range rr.Results {
			t.Log(r.UniqueID, r.Status, r.Message)
		}
		t.Fatalf("second build: %v", err)
	}
	q := shapeQuery(t, db)
	if s := q("select string_agg(database_name || '.' || schema_name || '.' || table_name, ' ' order by 1) from duckdb_tables() where table_name in ('snap', 'reads')"); s !=
		"adb.main.reads lake.hist.snap" {
		t.Errorf("tables: %s", s)
	}
	if s := q("select count(*) || ' ' || count(dbt_valid_to) || ' ' || (select n from main.reads) from lake.hist.snap"); s != "3 1 3" {
		t.Errorf("snapshot rows, closed rows, reads.n: %s", s)
	}
}

package runner

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/executor"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// TestModelBuiltInAttachedDatabase: a table or incremental model whose
// database config names a profiles.yml attach: entry is built in that
// file, as dbt-duckdb writes it (it was built in the warehouse with a
// warning), and a ref() to it reads it there; a view with that config
// stays in the warehouse with a warning saying why; an attachment that is
// read_only is not written (warned, built in the warehouse); a view of the
// warehouse reading such a model is warned as one reading an attached
// source. An ephemeral with that config is not warned: it is built
// nowhere.
func TestModelBuiltInAttachedDatabase(t *testing.T) {
	ctx := context.Background()
	files := map[string]string{
		"dbt_project.yml": "name: adb\nversion: '1'\nconfig-version: 2\nprofile: p\n",
		"profiles.yml": "p:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n      path: adb.duckdb\n      attach:\n" +
			"        - path: lake.duckdb\n        - path: ro.duckdb\n          read_only: true\n",
		"models/base.sql":     "{{ config(materialized='table') }}\nselect 1 as id union all select 2",
		"models/in_lake.sql":  "{{ config(materialized='table', database='lake', schema='marts') }}\nselect * from {{ ref('base') }}",
		"models/inc_lake.sql": "{{ config(materialized='incremental', unique_key='id', database='lake') }}\nselect * from {{ ref('base') }}",
		"models/v_lake.sql":   "{{ config(materialized='view', database='lake') }}\nselect * from {{ ref('base') }}",
		"models/in_ro.sql":    "{{ config(materialized='table', database='ro') }}\nselect 1 as id",
		"models/reads.sql":    "{{ config(materialized='table') }}\nselect count(*) as n from {{ ref('in_lake') }}",
		"models/v_reads.sql":  "select * from {{ ref('in_lake') }}",
		// an ephemeral is a CTE, built nowhere: its database config is
		// nothing to warn about (main warned "docket builds it into its
		// warehouse file, as main.eph_lake", which it does not)
		"models/eph_lake.sql": "{{ config(materialized='ephemeral', database='lake') }}\nselect 3 as id",
		"models/uses_eph.sql": "{{ config(materialized='table') }}\nselect * from {{ ref('eph_lake') }}",
	}
	_, m := attachProbe(t, files, "lake.duckdb", "ro.duckdb")
	var ws []string
	for _, w := range m.Warnings {
		if strings.Contains(w.Msg, "database") {
			ws = append(ws, w.String())
		}
	}
	if len(ws) != 3 || !strings.Contains(ws[0], "models/in_ro.sql:1:4: config database \"ro\"") ||
		!strings.Contains(ws[1], "models/v_lake.sql:1:4: config database \"lake\" is not applied to view v_lake") ||
		!strings.Contains(ws[2], "models/v_reads.sql:1:1: view v_reads reads model in_lake from database \"lake\"") {
		t.Errorf("warnings %q", ws)
	}
	if rel := m.Nodes["model.adb.in_lake"].Relation; rel != "lake.main_marts.in_lake" {
		t.Errorf("in_lake's relation %s", rel)
	}
	db, rr := buildProbe(t, m)
	for _, r := range rr.Results {
		if r.Status != executor.StatusSuccess {
			t.Errorf("%s: %s %s", r.UniqueID, r.Status, r.Message)
		}
	}
	// built again: the incremental writes into the attached table
	if rr, err := executor.Execute(ctx, m, db, executor.RunOptions{Command: "build", Threads: 1, Force: true}); err != nil || rr.Failed() {
		t.Fatalf("second build: %v %+v", err, rr)
	}
	q := shapeQuery(t, db)
	if s := q("select string_agg(database_name || '.' || schema_name || '.' || table_name, ' ' order by 1) from duckdb_tables() where table_name in ('in_lake', 'inc_lake', 'in_ro', 'reads')"); s !=
		"adb.main.in_ro adb.main.reads lake.main.inc_lake lake.main_marts.in_lake" {
		t.Errorf("tables: %s", s)
	}
	if s := q("select (select count(*) from lake.main.inc_lake) || ' ' || (select n from main.reads)"); s != "2 2" {
		t.Errorf("inc_lake rows, reads.n: %s", s)
	}
	if s := q("select count(*) from duckdb_views() where view_name = 'v_lake' and database_name = 'adb'"); s != "1" {
		t.Errorf("v_lake in the warehouse: %s", s)
	}
}

// attachProbe writes a probe project, creates the DuckDB files its
// profiles.yml attaches (empty), and parses it.
func attachProbe(t *testing.T, files map[string]string, attached ...string) (string, *compiler.Manifest) {
	t.Helper()
	dir := writeProbe(t, files)
	for _, f := range attached {
		db, err := warehouse.Open(context.Background(), filepath.Join(dir, f), warehouse.Options{})
		if err != nil {
			t.Fatal(err)
		}
		db.Close()
	}
	m, diags := parseProbe(t, dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	return dir, m
}

// TestTestsOfAttachedRelationsRun: a test of a source in an attached
// database (sources: database: lake), and of a model built there, runs:
// the "does it exist yet" check looks in the parent's own database. Before,
// it looked in the warehouse, so the tests were skipped as reading a
// relation "which does not exist yet" and every model downstream of them
// was skipped in a build without an error (Fatombe/dbt_amelin's demo_src
// in dwh_flight: 15 nodes skipped).
func TestTestsOfAttachedRelationsRun(t *testing.T) {
	ctx := context.Background()
	files := map[string]string{
		"dbt_project.yml": "name: adb\nversion: '1'\nconfig-version: 2\nprofile: p\n",
		"profiles.yml":    "p:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n      path: adb.duckdb\n      attach:\n        - path: lake.duckdb\n",
		"models/src.yml": "version: 2\nsources:\n  - name: raw\n    database: lake\n    tables:\n      - name: t\n        columns:\n          - name: id\n            data_tests: [not_null]\n" +
			"models:\n  - name: in_lake\n    columns:\n      - name: id\n        data_tests: [unique]\n",
		"models/stg.sql":     "{{ config(materialized='table') }}\nselect * from {{ source('raw', 't') }}",
		"models/in_lake.sql": "{{ config(materialized='table', database='lake') }}\nselect * from {{ ref('stg') }}",
	}
	dir, m := attachProbe(t, files, "lake.duckdb")
	lake, err := warehouse.Open(ctx, filepath.Join(dir, "lake.duckdb"), warehouse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lake.SQL().ExecContext(ctx, "create schema raw; create table raw.t as select 1 as id"); err != nil {
		t.Fatal(err)
	}
	lake.Close()
	db, rr := buildProbe(t, m)
	got := resultsByName(rr)
	for _, name := range []string{"source_not_null_raw_t_id", "stg", "in_lake", "unique_in_lake_id"} {
		if r := got[name]; r.Status != executor.StatusSuccess && r.Status != executor.StatusPass {
			t.Errorf("build: %s: %s %s", name, r.Status, r.Message)
		}
	}
	// docket test alone: in_lake is not built by this run, its test reads it
	// in lake
	rr, err = executor.Execute(ctx, m, db, executor.RunOptions{Command: "test", Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r := resultsByName(rr)["unique_in_lake_id"]; r.Status != executor.StatusPass {
		t.Errorf("test: unique_in_lake_id: %s %s", r.Status, r.Message)
	}
}

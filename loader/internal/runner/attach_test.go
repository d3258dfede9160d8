package runner

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// TestProfileAttachApplied: profiles.yml's attach: (dbt-duckdb) is
// attached on the run's connection, so a source with database: <alias>
// reads the attached file (on main: warned as not applied, and the model
// failed with "Catalog other does not exist"). A view reading such a
// source, directly or through an ephemeral model, is warned at its
// materialized config or file (a plain client opening the warehouse lacks
// the ATTACH); a table is not. run-operation attaches too. An ATTACH that
// fails is an error naming its profiles.yml line.
func TestProfileAttachApplied(t *testing.T) {
	ctx := context.Background()
	files := map[string]string{
		"dbt_project.yml": "name: att\nversion: '1'\nconfig-version: 2\nprofile: p\nmodels:\n  att:\n    folder:\n      +materialized: view\n",
		"profiles.yml": "p:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n      path: att.duckdb\n      attach:\n" +
			"        - path: other.duckdb\n          alias: other\n          read_only: true\n",
		"models/sources.yml":       "version: 2\nsources:\n  - name: crm\n    database: other\n    schema: s\n    tables:\n      - name: people\n",
		"models/people.sql":        "{{ config(materialized='table') }}\nselect * from {{ source('crm', 'people') }}",
		"models/v_people.sql":      "select * from {{ source('crm', 'people') }}",
		"models/eph.sql":           "{{ config(materialized='ephemeral') }}\nselect * from {{ source('crm', 'people') }}",
		"models/v_eph.sql":         "\n\n{{ config(materialized='view') }}\nselect * from {{ ref('eph') }}",
		"models/folder/v_fold.sql": "select * from {{ source('crm', 'people') }}",
		"models/t_eph.sql":         "{{ config(materialized='table') }}\nselect * from {{ ref('eph') }}",
		"macros/ops.sql":           "{% macro count_people() %}{% do run_query('create table main.counted as select count(*) as n from other.s.people') %}{% endmacro %}",
	}
	dir, m, ws := probeWarnings(t, files, "") // every warning
	other, err := warehouse.Open(ctx, filepath.Join(dir, "other.duckdb"), warehouse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.SQL().Exec("create schema s; create table s.people as select * from (values (1, 'ada'), (2, 'bob')) v(id, name)"); err != nil {
		t.Fatal(err)
	}
	other.Close()
	joined := strings.Join(ws, "\n")
	for _, want := range []string{"models/v_people.sql:1:1: view v_people reads source crm.people from database \"other\"",
		"models/v_eph.sql:3:", "dbt_project.yml:8:7: view v_fold"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no warning %q in:\n%s", want, joined)
		}
	}
	if len(ws) != 3 || strings.Contains(joined, "not applied") {
		t.Errorf("want three view warnings and no attach: not applied:\n%s", joined)
	}
	db, rr := buildProbe(t, m)
	for _, r := range rr.Results {
		if r.Status != executor.StatusSuccess && r.Status != executor.StatusPass {
			t.Errorf("%s: %s %s", r.UniqueID, r.Status, r.Message)
		}
	}
	var n int
	if err := db.SQL().QueryRow("select count(*) from main.t_eph").Scan(&n); err != nil || n != 2 {
		t.Errorf("t_eph: %d %v, want the attached file's 2 rows", n, err)
	}
	if op, err := m.FindOperation("count_people"); err != nil {
		t.Errorf("run-operation: %v", err)
	} else if rr, err := executor.RunOperation(ctx, m, db, op, nil); err != nil || rr.Failed() {
		t.Errorf("run-operation: %v %+v", err, rr)
	}

	// an ATTACH that fails: an error at its line
	files["profiles.yml"] = strings.Replace(files["profiles.yml"], "other.duckdb", "missing.duckdb", 1)
	dir2 := writeProbe(t, files)
	m2, _ := parseProbe(t, dir2)
	db2, err := warehouse.Open(ctx, m2.Project.Warehouse, warehouse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	_, err = executor.Execute(ctx, m2, db2, executor.RunOptions{Command: "build", Threads: 1})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir2, "profiles.yml")+":8: attach") {
		t.Errorf("a failing attach: %v", err)
	}
}

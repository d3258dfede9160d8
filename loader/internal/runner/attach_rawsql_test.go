package runner

import (
	"strings"
	"testing"
)

// TestViewNamingAnAttachedTableInSQLIsWarned: a view whose SQL names a
// table of an attached database directly (lake.main.events, not through
// source() or ref()) is warned like one reading an attached source: a
// plain DuckDB client opening the warehouse has no such catalog (robust27
// and robust28 left it silent). A name that only looks alike (a column
// lake.x of a table alias, a string) is not warned, nor is a table.
func TestViewNamingAnAttachedTableInSQLIsWarned(t *testing.T) {
	files := map[string]string{
		"dbt_project.yml": "name: adb\nversion: '1'\nconfig-version: 2\nprofile: p\n",
		"profiles.yml": "p:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n      path: adb.duckdb\n      attach:\n" +
			"        - path: lake.duckdb\n",
		"models/raw_view.sql":  "select * from lake.main.events",
		"models/quoted.sql":    "{{ config(materialized='view') }}\nselect * from \"lake\".\"main\".\"events\" e",
		"models/raw_table.sql": "{{ config(materialized='table') }}\nselect * from lake.main.events",
		"models/lookalike.sql": "select lake.id, 'lake.main.events' as s from (select 1 as id) as lake",
	}
	_, _, ws := probeWarnings(t, files, "lake")
	if len(ws) != 2 || !strings.Contains(ws[0], "models/quoted.sql:1:4: view quoted reads lake.main.events") ||
		!strings.Contains(ws[1], "models/raw_view.sql:1:1: view raw_view reads lake.main.events") {
		t.Errorf("warnings %q", ws)
	}
}

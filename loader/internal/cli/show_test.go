package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestShow: docket show is dbt show. -s previews the model's compiled SQL
// (its ephemeral parent a CTE) as an agate table, 5 rows by default,
// laid out as agate's print_table; --limit and --output json ({"node", "show"},
// values typed); --inline compiles ref() and previews "inline node";
// -s +a previews a alone (dbt's show previews the nodes -s names); a seed
// shows its rows. Nothing is written: the warehouse files and target/ keep
// their times. Before, "show" was an unknown command.
func TestShow(t *testing.T) {
	dir := tinyProject(t)
	writeFiles(t, dir, map[string]string{
		"dbt_project.yml": "name: tiny\nversion: '1.0'\nprofile: tiny\n",
		"seeds/s.csv":     "k,v\nx,1\ny,2\n",
		"models/e.sql":    "{{ config(materialized='ephemeral') }} select i as id, 'n' || i as label from range(1, 8) t(i)",
		"models/a.sql":    "{{ config(materialized='table') }} select id, label, id * 1.5 as score, id > 3 as big, date '2024-01-01' + id::int as day, id * 1000.25 as amt, 'x' as seventh from {{ ref('e') }} order by id",
	})
	must(t, dir, "build")
	stamps := func() map[string]time.Time {
		out := map[string]time.Time{}
		filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
			if err == nil && !fi.IsDir() && (strings.Contains(p, ".duckdb") || strings.Contains(p, "target")) {
				out[p] = fi.ModTime()
			}
			return nil
		})
		return out
	}
	before := stamps()
	time.Sleep(10 * time.Millisecond)

	out := must(t, dir, "show", "-s", "a")
	// agate's print_table as dbt show calls it: every column but Text
	// right-justified, header too (booleans and dates were left-aligned, as
	// was the header of a number), numbers grouped, 6 columns then "...".
	want := "Previewing node 'a':\n| id | label | score |   big |        day |      amt | ... |\n" +
		"| -- | ----- | ----- | ----- | ---------- | -------- | --- |\n|  1 | n1    |   1.5 | False | 2024-01-02 | 1,000.25 | ... |\n"
	if !strings.Contains(out, want) || strings.Count(out, "| n") != 5 {
		t.Errorf("show -s a:\n%s\nwant it to start with\n%s(5 rows)", out, want)
	}
	out = must(t, dir, "show", "-s", "a", "--limit", "2", "--output", "json")
	var doc struct {
		Node string           `json:"node"`
		Show []map[string]any `json:"show"`
	}
	if err := json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &doc); err != nil {
		t.Fatalf("show --output json: %v\n%s", err, out)
	}
	if doc.Node != "a" || len(doc.Show) != 2 || doc.Show[1]["id"] != 2.0 || doc.Show[1]["label"] != "n2" || doc.Show[1]["score"] != 3.0 || doc.Show[1]["big"] != false {
		t.Errorf("show --output json: %+v", doc)
	}
	out = must(t, dir, "show", "--inline", "select count(*) as n from {{ ref('a') }} where big")
	if !strings.Contains(out, "Previewing inline node:\n| n |\n| - |\n| 4 |\n") {
		t.Errorf("show --inline:\n%s", out)
	}
	out = must(t, dir, "show", "-s", "+a", "--limit", "-1")
	if !strings.Contains(out, "Previewing node 'a':") || strings.Count(out, "| n") != 7 || strings.Contains(out, "Previewing node 'e'") {
		t.Errorf("show -s +a --limit -1:\n%s", out)
	}
	if out := must(t, dir, "show", "-s", "s"); !strings.Contains(out, "| k | v |\n| - | - |\n| x | 1 |\n| y | 2 |\n") {
		t.Errorf("show -s s (a seed):\n%s", out)
	}
	for p, was := range stamps() {
		if !before[p].Equal(was) {
			t.Errorf("show wrote %s", p)
		}
	}
	// --limit -1 reads the query as any limit does, from a subquery: a
	// statement that is no query (COPY ... TO writes a file) is refused.
	written := filepath.Join(t.TempDir(), "written.csv")
	if out, code := run(t, dir, "show", "--inline", "copy (select 1) to '"+written+"'", "--limit", "-1"); code == 0 {
		t.Errorf("show --inline COPY --limit -1: exit 0\n%s", out)
	}
	if _, err := os.Stat(written); err == nil {
		t.Errorf("show --inline COPY --limit -1 wrote %s", written)
	}
	if out, code := run(t, dir, "show", "-s", "a", "--inline", "select 1"); code != 2 || !strings.Contains(out, "--inline and -s") {
		t.Errorf("show -s with --inline: exit %d\n%s", code, out)
	}
	if out, code := run(t, dir, "show"); code != 2 || !strings.Contains(out, "give -s MODEL or --inline") {
		t.Errorf("show alone: exit %d\n%s", code, out)
	}
}

// TestShowPythonForms: docket show prints an INTERVAL, BLOB, LIST,
// STRUCT, MAP, TIMETZ, TIMESTAMPTZ and a fractional TIMESTAMP as dbt show
// does, str() of the Python value dbt's agate table holds (the mapping
// run_query uses): "1 day, 2:00:00", b'a\xaa', json.dumps text in the
// STRUCT's field order, +00:00, .500000. Before, each was DuckDB's own
// text (1 day 02:00:00, \xAA, [a, b], {'b': 1, 'a': x}, +00, .5) without a
// word.
func TestShowPythonForms(t *testing.T) {
	dir := tinyProject(t)
	writeFiles(t, dir, map[string]string{"dbt_project.yml": "name: tiny\nversion: '1.0'\nprofile: tiny\n",
		"models/a.sql": "{{ config(materialized='table') }} select 1 as id"})
	must(t, dir, "build")
	q := `select interval '1 day 2 hours' as i, 'a\xAA'::blob as b, ['a', 'é'] as l, {'b': 1, 'a': 'x'} as st, ` +
		`map {'k2': 1, 'k1': 2} as mp, '03:04:05+02'::timetz as tt, timestamptz '2024-01-02 03:04:05.5+00' as tz, ` +
		`timestamp '2024-01-02 03:04:05.5' as ts, null::interval as n`
	out := must(t, dir, "show", "--inline", q, "--output", "json")
	for _, want := range []string{`"i": "1 day, 2:00:00"`, `"b": "b'a\\xaa'"`, `"l": "[\"a\", \"\\u00e9\"]"`,
		`"st": "{\"b\": 1, \"a\": \"x\"}"`, `"mp": "{\"k2\": 1, \"k1\": 2}"`, `"tt": "03:04:05+02:00"`,
		`"tz": "2024-01-02 03:04:05.500000+00:00"`, `"ts": "2024-01-02 03:04:05.500000"`, `"n": null`} {
		if !strings.Contains(out, want) {
			t.Errorf("show --output json: want %s in\n%s", want, out)
		}
	}
	out = must(t, dir, "show", "--inline", `select interval '-90 seconds' as i, {'b': 1, 'a': 'x'} as st`)
	if want := `| -1 day, 23:58:30 | {"b": 1, "a": "x"} |`; !strings.Contains(out, want) {
		t.Errorf("show:\n%s\nwant a row %s", out, want)
	}
}

package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestSnapshotSchemaAsDbt19: in a dbt project a snapshot's schema config
// goes through generate_schema_name as a model's (dbt >= 1.9): schema: x
// lands in <target schema>_x, no schema in the target schema, a project
// macro decides when there is one; a legacy target_schema is used as
// written. A docket project keeps folder = schema: snapshots/ lands in
// snapshots, schema: x in x. Before, every snapshot went to its schema
// or target_schema as written, else to snapshots.
func TestSnapshotSchemaAsDbt19(t *testing.T) {
	snaps := map[string]string{
		"models/src.sql": "select 1 as id, 'a' as v",
		"snapshots/s.sql": "{% snapshot legacy %}{{ config(target_schema='hist', unique_key='id', strategy='check', check_cols='all') }}select * from {{ ref('src') }}{% endsnapshot %}\n" +
			"{% snapshot plain %}{{ config(unique_key='id', strategy='check', check_cols='all') }}select * from {{ ref('src') }}{% endsnapshot %}",
		"snapshots/s.yml": "snapshots:\n  - name: in_yaml\n    relation: ref('src')\n    config: {schema: x, unique_key: id, strategy: check, check_cols: all}\n",
	}
	copyFiles := func(extra map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range snaps {
			out[k] = v
		}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	for _, c := range []struct {
		name  string
		files map[string]string
		want  map[string]string
	}{
		{"dbt", shapeProject("p", copyFiles(nil)),
			map[string]string{"legacy": "hist", "plain": "test_schema", "in_yaml": "test_schema_x"}},
		{"dbt-macro", shapeProject("p", copyFiles(map[string]string{"macros/gsn.sql": "{% macro generate_schema_name(custom, node) %}{{ custom or 'base' }}_{{ node.resource_type }}{% endmacro %}"})),
			map[string]string{"legacy": "hist", "plain": "base_snapshot", "in_yaml": "x_snapshot"}},
		{"docket", copyFiles(nil),
			map[string]string{"legacy": "hist", "plain": "snapshots", "in_yaml": "x"}},
	} {
		m, diags := parseProbe(t, writeProbe(t, c.files))
		for _, d := range diags {
			t.Fatalf("%s: %s", c.name, d)
		}
		for name, want := range c.want {
			n := m.Nodes["snapshot."+m.Name+"."+name]
			if n == nil {
				t.Fatalf("%s: no snapshot %s", c.name, name)
			}
			if n.Schema != want || n.Relation != want+"."+name {
				t.Errorf("%s: snapshot %s in %s (%s), want schema %s", c.name, name, n.Schema, n.Relation, want)
			}
		}
	}
}

// TestSnapshotProperties: a snapshots: entry without relation: is dbt's
// snapshot properties for a {% snapshot %} block (in snapshots/*.yml or a
// schema file beside the models): its description, columns and tests
// apply, and the tests run on the snapshot. Before, in snapshots/ it was
// an error ("a snapshot needs a name and a relation") and beside models
// it was kept but not acted on, its tests never run.
func TestSnapshotProperties(t *testing.T) {
	dir := writeProbe(t, shapeProject("sp", map[string]string{
		"models/src.sql": "select 1 as id, 'a' as v union all select 2, 'b'",
		"snapshots/s.sql": "{% snapshot hist %}{{ config(unique_key='id', strategy='check', check_cols='all') }}select * from {{ ref('src') }}{% endsnapshot %}\n" +
			"{% snapshot hist2 %}{{ config(unique_key='id', strategy='check', check_cols='all') }}select * from {{ ref('src') }}{% endsnapshot %}",
		"snapshots/props.yml": "snapshots:\n  - name: hist\n    description: history of src\n    columns:\n      - name: id\n        tests: [unique, not_null]\n",
		"models/schema.yml":   "version: 2\nsnapshots:\n  - name: hist2\n    columns:\n      - name: v\n        data_tests: [{accepted_values: {values: [a]}}]\n",
	}))
	m, diags := parseProbe(t, dir)
	for _, d := range diags {
		t.Fatal(d)
	}
	if n := m.Nodes["snapshot.sp.hist"]; n == nil || n.Description != "history of src" {
		t.Fatalf("hist: %+v", n)
	}
	db := shapeDB(t, dir)
	rr, err := executor.Execute(context.Background(), m, db, executor.RunOptions{Command: "build", Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range rr.Results {
		got[r.UniqueID] = r.Status
	}
	for id, want := range map[string]string{"test.sp.unique_hist_id": "pass", "test.sp.not_null_hist_id": "pass", "test.sp.accepted_values_hist2_v__a": "fail"} {
		if got[id] != want {
			t.Errorf("%s: %q, want %q (results %v)", id, got[id], want, got)
		}
	}
}

// TestSnapshotHistoryLeftBehind: a dbt project's snapshot that docket
// built before it followed dbt 1.9's schema rules lives in snapshots.<name>
// (or its schema as written); where the new place is empty and that table
// holds a snapshot history, the snapshot stops and says how to move it,
// instead of starting a new history in silence. Elsewhere it builds.
func TestSnapshotHistoryLeftBehind(t *testing.T) {
	dir := writeProbe(t, shapeProject("p", map[string]string{
		"models/src.sql": "select 1 as id, 'a' as v",
		"snapshots/s.sql": "{% snapshot plain %}{{ config(unique_key='id', strategy='check', check_cols='all') }}select * from {{ ref('src') }}{% endsnapshot %}\n" +
			"{% snapshot fresh %}{{ config(unique_key='id', strategy='check', check_cols='all') }}select * from {{ ref('src') }}{% endsnapshot %}",
	}))
	m, diags := parseProbe(t, dir)
	for _, d := range diags {
		t.Fatal(d)
	}
	db := shapeDB(t, dir)
	if _, err := db.SQL().ExecContext(context.Background(), "create schema snapshots; create table snapshots.plain (id int, v varchar, dbt_scd_id varchar, dbt_valid_from timestamp, dbt_valid_to timestamp)"); err != nil {
		t.Fatal(err)
	}
	rr, err := executor.Execute(context.Background(), m, db, executor.RunOptions{Command: "build", Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range rr.Results {
		got[r.UniqueID] = r.Status + " " + r.Message
	}
	if g := got["snapshot.p.plain"]; !strings.HasPrefix(g, "error ") || !strings.Contains(g, "history is in snapshots.plain") || !strings.Contains(g, "test_schema.plain") {
		t.Errorf("plain: %s", g)
	}
	if g := got["snapshot.p.fresh"]; !strings.HasPrefix(g, "success") {
		t.Errorf("fresh: %s", g)
	}
}

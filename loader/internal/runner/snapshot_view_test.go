package runner

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestSnapshotOfAViewSeesItsInputsChange: `docket snapshot` (no model run)
// over a view whose input changed since the last build must snapshot the
// change. A view's data version was the one recorded when the view was
// last built, so a snapshot of a view chain over a source (robust30's hunt:
// mananyev/dbt_training's daily_revenue_snapshot on ref('fct_orders'), a
// view over views over stripe.payment) was "UP TO DATE" after the source's
// rows changed, and so was one over a view of a table model rebuilt by
// `docket run -s` alone: the change was never recorded, silently.
func TestSnapshotOfAViewSeesItsInputsChange(t *testing.T) {
	base := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	var calls atomic.Int64 // snapshots run on the run's threads
	compiler.SnapshotNow = func() time.Time { return base.Add(time.Duration(calls.Add(1)) * time.Hour) }
	defer func() { compiler.SnapshotNow = time.Now }()
	files := shapeProject("sv", map[string]string{
		"models/src.yml":  "version: 2\nsources:\n  - name: shop\n    schema: shop\n    tables:\n      - name: payment\n      - name: other\n",
		"models/stg.sql":  "select id, amount from {{ source('shop', 'payment') }}",
		"models/paid.sql": "select id, sum(amount) as amount from {{ ref('stg') }} group by id",
		"models/base.sql": "{{ config(materialized='table') }}\nselect * from {{ source('shop', 'other') }}",
		"models/over.sql": "select * from {{ ref('base') }}",
		"snapshots/snaps.sql": "{% snapshot paid_snap %}\n{{ config(target_schema='snaps', unique_key='id', strategy='check', check_cols=['amount']) }}\n" +
			"select * from {{ ref('paid') }}\n{% endsnapshot %}\n" +
			"{% snapshot over_snap %}\n{{ config(target_schema='snaps', unique_key='id', strategy='check', check_cols=['v']) }}\n" +
			"select * from {{ ref('over') }}\n{% endsnapshot %}\n",
	})
	dir := writeProbe(t, files)
	db := shapeDB(t, dir)
	for _, q := range []string{"create schema shop", "create table shop.payment as select 1 as id, 10 as amount",
		"create table shop.other as select 1 as id, 1 as v"} {
		if _, err := db.SQL().ExecContext(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	shapeRun(t, db, dir, "build", nil)
	shapeRun(t, db, dir, "snapshot", nil) // nothing changed: up to date
	if _, err := db.SQL().ExecContext(context.Background(), "update shop.payment set amount = 20; update shop.other set v = 2"); err != nil {
		t.Fatal(err)
	}
	// `docket run -s base`: the table is rebuilt, the view over it is not
	p, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := compiler.Parse(p, compiler.ParseOptions{Owned: testOwned, Vars: nil})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := executor.Execute(context.Background(), m, db, executor.RunOptions{Command: "run", Selected: []string{"model.sv.base"}}); err != nil {
		t.Fatal(err)
	}
	rr := shapeRun(t, db, dir, "snapshot", nil)
	for _, r := range rr.Results {
		if r.Status != "success" || strings.Contains(r.Message, "up to date") {
			t.Errorf("%s: %s %q, want it snapshotted", r.UniqueID, r.Status, r.Message)
		}
	}
	rows := func(q string) string { return strings.Join(queryStrings(t, db.SQL(), q), " ") }
	if got, want := rows("select amount || ':' || (dbt_valid_to is null) from snaps.paid_snap order by dbt_valid_from"), "10:false 20:true"; got != want {
		t.Errorf("paid_snap %s, want %s", got, want)
	}
	if got, want := rows("select v || ':' || (dbt_valid_to is null) from snaps.over_snap order by dbt_valid_from"), "1:false 2:true"; got != want {
		t.Errorf("over_snap %s, want %s", got, want)
	}
	// after a build (the views rebuilt on their inputs) the snapshot of the
	// view over the table is up to date; the one over the source chain runs
	// (a source's rows have no version)
	shapeRun(t, db, dir, "build", nil)
	rr = shapeRun(t, db, dir, "snapshot", nil)
	for _, r := range rr.Results {
		if up := strings.Contains(r.Message, "up to date"); up != (r.UniqueID == "snapshot.sv.over_snap") {
			t.Errorf("after a build: %s %s %q", r.UniqueID, r.Status, r.Message)
		}
	}
}

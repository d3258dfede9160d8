package runner

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// microbatchFiles: a seed of events over four days (the third has a row
// the model cannot cast: its batch fails) with event_time ts, a model
// without event_time, a daily microbatch model reading both, and a model
// after it.
var microbatchFiles = map[string]string{
	"seeds/events.csv": "id,ts,amount\n1,2024-01-01 01:00:00,10\n2,2024-01-01 23:00:00,11\n3,2024-01-02 12:00:00,20\n" +
		"4,2024-01-03 08:00:00,-1\n5,2024-01-03 09:00:00,31\n6,2024-01-04 00:00:00,40\n7,2024-01-04 05:00:00,41\n8,2024-01-04 06:00:00,42\n",
	"seeds/events.yml":  "version: 2\nseeds:\n  - name: events\n    config:\n      event_time: ts\n      column_types: {id: integer, ts: timestamp, amount: integer}\n",
	"models/m/dims.sql": "select 1 as k union all select 2",
	"models/m/daily.sql": "{{ config(materialized='incremental', incremental_strategy='microbatch',\n" +
		"  event_time='ts', batch_size='day', begin='2024-01-01') }}\n" +
		"select e.id, e.ts,\n  cast(case when e.amount < 0 then 'not a number' else cast(e.amount as varchar) end as integer) as amount,\n" +
		"  (select count(*) from {{ ref('events') }}) as seen,\n  (select count(*) from {{ ref('dims') }}) as dims,\n" +
		"  '{{ model.batch.id }}' as batch\nfrom {{ ref('events') }} e",
	"models/m/after.sql": "select count(*) as n from {{ ref('daily') }}",
}

// TestMicrobatch: a microbatch model (dbt 1.9) runs one batch a day from
// begin on its first build, each batch reading only its day of the
// upstream that has an event_time (the model without one whole); a
// failed batch is reported with the rest kept (partial success, its
// children skipped); a retry of the failed batches runs only them; an
// incremental run runs the lookback day and today's; --event-time-start/
// end bound the batches and --full-refresh starts from begin again.
// Before microbatch was built, the model errored and nothing was written.
func TestMicrobatch(t *testing.T) {
	dir := writeProbe(t, microbatchFiles)
	db := shapeDB(t, dir)
	q := shapeQuery(t, db)
	end := time.Date(2024, 1, 5, 0, 0, 0, 0, time.UTC)
	run := func(opts executor.RunOptions) map[string]executor.Result {
		t.Helper()
		p, err := project.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		m, diags, err := compiler.Parse(p, compiler.ParseOptions{Owned: testOwned})
		if err != nil || len(diags) > 0 {
			t.Fatal(err, diags)
		}
		opts.Command, opts.Threads = "build", 1
		rr, err := executor.Execute(context.Background(), m, db, opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := executor.WriteArtifacts(m, filepath.Join(dir, "target"), rr); err != nil {
			t.Fatal(err)
		}
		validateTarget(t, filepath.Join(dir, "target"))
		out := map[string]executor.Result{}
		for _, r := range rr.Results {
			out[r.Name] = r
		}
		return out
	}
	ids := func(r executor.Result) string {
		var s []string
		for _, b := range r.Batches {
			s = append(s, b.ID+":"+b.Status)
		}
		return strings.Join(s, " ")
	}

	// first build: four daily batches from begin, the third fails
	got := run(executor.RunOptions{EventTimeEnd: end})
	d := got["daily"]
	if d.Status != executor.StatusPartialSuccess || !d.Failed() {
		t.Fatalf("daily: %s %q, want partial success", d.Status, d.Message)
	}
	if s := ids(d); s != "20240101:success 20240102:success 20240103:error 20240104:success" {
		t.Errorf("batches %s", s)
	}
	if br := d.BatchResults; br == nil || len(br.Successful) != 3 || len(br.Failed) != 1 ||
		br.Failed[0] != [2]string{"2024-01-03T00:00:00Z", "2024-01-04T00:00:00Z"} {
		t.Errorf("batch_results %+v", d.BatchResults)
	}
	if got["after"].Status != executor.StatusSkipped {
		t.Errorf("after: %s, want skipped", got["after"].Status)
	}
	// each row saw only its own day's events, and every dims row
	if s := q("select string_agg(id || '/' || seen || '/' || dims || '/' || batch, ' ' order by id) from m.daily"); s !=
		"1/2/2/20240101 2/2/2/20240101 3/1/2/20240102 6/3/2/20240104 7/3/2/20240104 8/3/2/20240104" {
		t.Errorf("daily after the first build: %s", s)
	}

	// the seed is mended; a retry of the failed batch runs it alone
	writeFile(t, filepath.Join(dir, "seeds/events.csv"), []byte(strings.Replace(microbatchFiles["seeds/events.csv"], ",-1\n", ",30\n", 1)))
	failed := []compiler.Batch{{ID: "20240103", Start: time.Date(2024, 1, 3, 0, 0, 0, 0, time.UTC), End: time.Date(2024, 1, 4, 0, 0, 0, 0, time.UTC)}}
	got = run(executor.RunOptions{RetryBatches: map[string][]compiler.Batch{"model.probe.daily": failed}})
	if d := got["daily"]; d.Status != executor.StatusSuccess || ids(d) != "20240103:success" {
		t.Errorf("retry: %s %q batches %s, want the failed batch alone", d.Status, d.Message, ids(d))
	}
	if s := q("select count(*) || ' ' || sum(amount) from m.daily"); s != "8 225" {
		t.Errorf("daily after the retry: %s rows, amount", s)
	}

	// an incremental run: the lookback day and today's, rows replaced
	got = run(executor.RunOptions{Now: time.Date(2024, 1, 4, 12, 0, 0, 0, time.UTC)})
	if s := ids(got["daily"]); s != "20240103:success 20240104:success" {
		t.Errorf("incremental batches %s", s)
	}
	if s := q("select count(*) || ' ' || count(distinct id) from m.daily"); s != "8 8" {
		t.Errorf("daily after an incremental run: %s (rows, ids)", s)
	}

	// --event-time-start/end: only their window's batch
	got = run(executor.RunOptions{EventTimeStart: time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC), EventTimeEnd: time.Date(2024, 1, 3, 0, 0, 0, 0, time.UTC)})
	if s := ids(got["daily"]); s != "20240102:success" {
		t.Errorf("--event-time-start/end batches %s", s)
	}

	// --full-refresh: from begin again, the table made anew
	got = run(executor.RunOptions{FullRefresh: true, EventTimeEnd: end})
	d = got["daily"]
	if s := ids(d); s != "20240101:success 20240102:success 20240103:success 20240104:success" || !strings.HasPrefix(d.Batches[0].Message, "CREATE TABLE 2") {
		t.Errorf("--full-refresh batches %s (%+v)", s, d.Batches)
	}
	if s := q("select count(*) from m.daily"); s != "8" {
		t.Errorf("daily after --full-refresh: %s rows", s)
	}
}

// TestMicrobatchBatches: the windows dbt-core's MicrobatchBuilder makes
// for each batch_size, begin, lookback and --event-time-start/end.
func TestMicrobatchBatches(t *testing.T) {
	at := func(s string) time.Time {
		x, err := compiler.ParseEventTime(s)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	three := 3
	for _, c := range []struct {
		size, begin string
		lookback    *int
		plan        compiler.BatchPlan
		want        string
	}{
		{"day", "2024-09-15", nil, compiler.BatchPlan{Now: at("2024-09-17T16:06:00")}, "20240915 20240916 20240917"},
		{"day", "2024-09-15", nil, compiler.BatchPlan{Incremental: true, Now: at("2024-09-17T16:06:00")}, "20240916 20240917"},
		{"day", "2024-09-15", &three, compiler.BatchPlan{Incremental: true, Now: at("2024-09-17T16:06:00")}, "20240914 20240915 20240916 20240917"},
		{"hour", "2024-09-17", nil, compiler.BatchPlan{Incremental: true, Now: at("2024-09-17T16:06:00")}, "20240917T15 20240917T16"},
		{"month", "2024-07-20", nil, compiler.BatchPlan{Now: at("2024-09-17T16:06:00")}, "20240701 20240801 20240901"},
		{"year", "2022-05-01", nil, compiler.BatchPlan{Now: at("2024-09-17")}, "20220101 20230101 20240101"},
		{"day", "2024-01-01", nil, compiler.BatchPlan{Incremental: true, Start: at("2024-03-01T10:00:00"), End: at("2024-03-03"), Now: at("2025-01-01")}, "20240301 20240302"},
	} {
		b := at(c.begin)
		n := &compiler.Node{Name: "m", Config: compiler.Config{BatchSize: c.size, Begin: &b, Lookback: c.lookback, EventTime: "ts"}}
		bs, err := n.Batches(c.plan)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, x := range bs {
			ids = append(ids, x.ID)
		}
		if s := strings.Join(ids, " "); s != c.want {
			t.Errorf("%s from %s %+v: %s, want %s", c.size, c.begin, c.plan, s, c.want)
		}
		if last := bs[len(bs)-1].End; c.plan.End.IsZero() && !last.After(c.plan.Now) {
			t.Errorf("%s: the last batch ends %s, not after now", c.size, last)
		}
	}
}

// TestMicrobatchWarnings: a microbatch model's unique_key (not applied:
// batches replace windows) and a microbatch model none of whose inputs
// has an event_time (each batch would insert every row) are warned at
// the model's config.
func TestMicrobatchWarnings(t *testing.T) {
	_, _, ws := probeWarnings(t, map[string]string{
		"models/m/src.sql": "select 1 as id, timestamp '2024-01-01' as ts",
		"models/m/mb.sql":  "{{ config(materialized='incremental', incremental_strategy='microbatch', unique_key='id', event_time='ts', batch_size='day', begin='2024-01-01') }}\nselect * from {{ ref('src') }}",
	}, "microbatch")
	if len(ws) != 2 || !strings.Contains(ws[0], "config unique_key is not applied to microbatch model mb") || !strings.Contains(ws[1], "reads no ref or source with an event_time") {
		t.Errorf("warnings %q", ws)
	}
}

// TestMicrobatchEphemeralInput: an ephemeral model with an event_time is
// filtered to the batch's window like any other input (review28: its CTE
// was read whole, every batch inserted every row, 6 rows for 3 ids, with
// no warning).
func TestMicrobatchEphemeralInput(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/src.sql": "{{ config(materialized='table') }}\nselect 1 as id, timestamp '2024-01-01 10:00:00' as ts union all select 2, timestamp '2024-01-02 10:00:00' union all select 3, timestamp '2024-01-03 10:00:00'",
		"models/m/eph.sql": "{{ config(materialized='ephemeral', event_time='ts') }}\nselect * from {{ ref('src') }}",
		"models/m/mb.sql":  "{{ config(materialized='incremental', incremental_strategy='microbatch', event_time='ts', batch_size='day', begin='2024-01-01') }}\nselect * from {{ ref('eph') }}",
	})
	db := shapeDB(t, dir)
	p, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, diags, err := compiler.Parse(p, compiler.ParseOptions{Owned: testOwned})
	if err != nil || len(diags) > 0 {
		t.Fatal(err, diags)
	}
	rr, err := executor.Execute(context.Background(), m, db, executor.RunOptions{Command: "run", Threads: 1, EventTimeEnd: time.Date(2024, 1, 4, 0, 0, 0, 0, time.UTC)})
	if err != nil || rr.Failed() {
		t.Fatalf("%v %+v", err, rr)
	}
	if s := shapeQuery(t, db)("select count(*) || ' ' || count(distinct id) from m.mb"); s != "3 3" {
		t.Errorf("mb: %s (rows, ids), want each row once", s)
	}
}

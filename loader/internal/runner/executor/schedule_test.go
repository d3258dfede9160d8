package executor

import (
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestSchedule: the scheduler alone, nodes "run" by a function (no
// Database): a failing error-severity test skips its model's downstream
// (naming why) but not its siblings, a warn-severity one skips nothing,
// an erroring model skips its children; every node gets one numbered
// result; with one worker the order is tests, seeds, models as ready.
func TestSchedule(t *testing.T) {
	files := map[string]string{
		"seeds/s.csv":     "id\n1\n",
		"models/a.sql":    "select * from {{ ref('s') }}",
		"models/b.sql":    "select * from {{ ref('a') }}",
		"models/c.sql":    "select * from {{ ref('s') }}",
		"models/d.sql":    "select * from {{ ref('c') }}",
		"models/e.sql":    "select * from {{ ref('d') }}",
		"models/s.yml":    "version: 2\nmodels:\n  - name: a\n    columns: [{name: id, tests: [not_null]}]\n",
		"models/warn.yml": "version: 2\nmodels:\n  - name: c\n    columns: [{name: id, tests: [{unique: {config: {severity: warn}}}]}]\n",
	}
	m, diags := compilertest.Compile(t, files)
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	const nn, uq = "test.mem.not_null_a_id", "test.mem.unique_c_id"
	outcome := map[string]string{nn: StatusFail, uq: StatusFail, "model.mem.d": StatusError}
	for _, workers := range []int{1, 3} {
		exec, deps, err := m.Plan("build", nil)
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		ran := map[string]int{}
		var got []Result
		schedule(m, plan{exec: exec, deps: deps}, workers, func(_ int, id string) Result {
			mu.Lock()
			ran[id]++
			mu.Unlock()
			n := m.Nodes[id]
			st := outcome[id]
			if st == "" {
				st = map[bool]string{true: StatusPass, false: StatusSuccess}[n.ResourceType == compiler.Test]
			}
			return Result{UniqueID: id, Status: st, ResourceType: n.ResourceType, Name: n.Name, Severity: n.Config.Severity}
		}, func(r Result) { got = append(got, r) })

		status := map[string]string{}
		for i, r := range got {
			status[r.UniqueID] = r.Status
			if r.Index != i+1 || r.Total != len(exec) {
				t.Errorf("workers %d: result %d numbered %d/%d", workers, i, r.Index, r.Total)
			}
		}
		want := map[string]string{"seed.mem.s": StatusSuccess, "model.mem.a": StatusSuccess, nn: StatusFail,
			"model.mem.b": StatusSkipped, "model.mem.c": StatusSuccess, uq: StatusFail, "model.mem.d": StatusError, "model.mem.e": StatusSkipped}
		if !reflect.DeepEqual(status, want) {
			t.Errorf("workers %d: statuses %v, want %v", workers, status, want)
		}
		for id, k := range ran {
			if k != 1 || want[id] == StatusSkipped {
				t.Errorf("workers %d: %s ran %d times", workers, id, k)
			}
		}
		for _, r := range got {
			if r.UniqueID == "model.mem.b" && r.Message != "skipped: upstream test not_null_a_id failed" {
				t.Errorf("b: %q", r.Message)
			}
			if r.UniqueID == "model.mem.e" && r.Message != "skipped: upstream model d errored" {
				t.Errorf("e: %q", r.Message)
			}
		}
		if workers == 1 {
			var order []string
			for _, r := range got {
				order = append(order, r.Name)
			}
			if want := []string{"s", "a", "not_null_a_id", "b", "c", "unique_c_id", "d", "e"}; !reflect.DeepEqual(order, want) {
				t.Errorf("one worker runs %v, want %v", order, want)
			}
		}
	}
}

// TestScheduleRetriesOutOfMemoryAlone: a model that DuckDB stopped with
// an Out of Memory Error while another node ran beside it runs once more,
// alone (no node runs beside its second run), and its downstream then
// runs; one result per node, the retried one saying beside what it failed.
// A model that ran out of memory alone is not run again.
func TestScheduleRetriesOutOfMemoryAlone(t *testing.T) {
	files := map[string]string{
		"models/a.sql": "select 1 as id",
		"models/b.sql": "select 1 as id",
		"models/c.sql": "select 1 as id",
		"models/d.sql": "select * from {{ ref('a') }}",
	}
	m, diags := compilertest.Compile(t, files)
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	const oom = "Out of Memory Error: failed to pin block of size 256.0 KiB (1023.7 MiB/1.0 GiB used)"
	for _, workers := range []int{2, 1} {
		exec, deps, err := m.Plan("build", nil)
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		ran := map[string]int{}
		active, activeAtRetry := 0, -1
		bStarted := make(chan struct{})
		var got []Result
		schedule(m, plan{exec: exec, deps: deps}, workers, func(_ int, id string) Result {
			mu.Lock()
			ran[id]++
			k := ran[id]
			active++
			if id == "model.mem.a" && k == 2 {
				activeAtRetry = active
			}
			mu.Unlock()
			defer func() { mu.Lock(); active--; mu.Unlock() }()
			n := m.Nodes[id]
			r := Result{UniqueID: id, Status: StatusSuccess, ResourceType: n.ResourceType, Name: n.Name}
			switch {
			case id == "model.mem.b":
				close(bStarted)
			case id == "model.mem.a" && k == 1:
				if workers > 1 {
					select {
					case <-bStarted:
					case <-time.After(30 * time.Second):
						t.Error("b never ran beside a")
					}
				}
				r.Status, r.Message = StatusError, oom
			}
			return r
		}, func(r Result) { got = append(got, r) })

		status := map[string]Result{}
		for _, r := range got {
			if _, dup := status[r.UniqueID]; dup {
				t.Errorf("workers %d: two results of %s", workers, r.UniqueID)
			}
			status[r.UniqueID] = r
		}
		a, d := status["model.mem.a"], status["model.mem.d"]
		if workers == 1 {
			if ran["model.mem.a"] != 1 || a.Status != StatusError || d.Status != StatusSkipped || a.RetriedAlone != "" {
				t.Errorf("one worker: a ran %d times, %s (retried beside %q), d %s; want once, error, d skipped",
					ran["model.mem.a"], a.Status, a.RetriedAlone, d.Status)
			}
			continue
		}
		if beside := a.RetriedAlone; ran["model.mem.a"] != 2 || a.Status != StatusSuccess || (beside != "model.mem.b" && beside != "model.mem.c") {
			t.Errorf("a ran %d times, %s, retried beside %q; want twice, success, beside b or c", ran["model.mem.a"], a.Status, beside)
		}
		if activeAtRetry != 1 {
			t.Errorf("a's second run had %d nodes running (itself included), want 1", activeAtRetry)
		}
		if d.Status != StatusSuccess || ran["model.mem.d"] != 1 || len(got) != len(exec) {
			t.Errorf("d %s (ran %d), %d results of %d nodes", d.Status, ran["model.mem.d"], len(got), len(exec))
		}
	}
}

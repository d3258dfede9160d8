package executor

import (
	"reflect"
	"sync"
	"testing"

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
		schedule(m, plan{exec, deps}, workers, func(_ int, id string) Result {
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

package runner

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestMicrobatchBatchesReportedAsTheyEnd: each batch of a microbatch
// model is reported (RunOptions.OnBatch) when it ends, in order and before
// the model's result, as dbt prints a batch line per batch while the model
// runs (robust28 printed them all when the model had finished: a model of
// 4,906 daily batches, robust29's ClickBench hunt, showed nothing for 33 s).
// The third batch's row the model cannot cast: its report says error.
func TestMicrobatchBatchesReportedAsTheyEnd(t *testing.T) {
	dir := writeProbe(t, microbatchFiles)
	db := shapeDB(t, dir)
	p, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, diags, err := compiler.Parse(p, compiler.ParseOptions{Owned: testOwned})
	if err != nil || len(diags) > 0 {
		t.Fatal(err, diags)
	}
	var events []string
	opts := executor.RunOptions{Command: "build", Threads: 1,
		EventTimeEnd: time.Date(2024, 1, 5, 0, 0, 0, 0, time.UTC),
		OnBatch: func(r executor.Result, i, total int, b executor.BatchRun) {
			events = append(events, fmt.Sprintf("%s %d/%d %s %s", r.Name, i, total, b.ID, b.Status))
		},
		OnResult: func(r executor.Result) {
			if r.Name == "daily" {
				events = append(events, r.Name+" "+r.Status)
			}
		},
	}
	if _, err := executor.Execute(context.Background(), m, db, opts); err != nil {
		t.Fatal(err)
	}
	want := "daily 1/4 20240101 success|daily 2/4 20240102 success|daily 3/4 20240103 error|daily 4/4 20240104 success|daily partial success"
	if got := strings.Join(events, "|"); got != want {
		t.Errorf("events\n%s\nwant\n%s", got, want)
	}
}

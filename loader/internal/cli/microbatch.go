package cli

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/docket-dev/docket/loader/internal/runner"
)

// eventTimes are --event-time-start and --event-time-end (zero when not
// given); the start must come before the end.
func (f *modelFlags) eventTimes() (start, end time.Time, err error) {
	if f.eventTimeStart != "" {
		if start, err = runner.ParseEventTime(f.eventTimeStart); err != nil {
			return start, end, fmt.Errorf("--event-time-start: %v", err)
		}
	}
	if f.eventTimeEnd != "" {
		if end, err = runner.ParseEventTime(f.eventTimeEnd); err != nil {
			return start, end, fmt.Errorf("--event-time-end: %v", err)
		}
	}
	if !start.IsZero() && !end.IsZero() && !start.Before(end) {
		return start, end, fmt.Errorf("--event-time-start (%s) must be before --event-time-end (%s)", f.eventTimeStart, f.eventTimeEnd)
	}
	return start, end, nil
}

type retryBatchesKey struct{}

// withRetryBatches: the run of ctx runs only these batches of the
// microbatch models they are of (docket retry).
func withRetryBatches(ctx context.Context, b map[string][]runner.Batch) context.Context {
	return context.WithValue(ctx, retryBatchesKey{}, b)
}

func retryBatches(ctx context.Context) map[string][]runner.Batch {
	b, _ := ctx.Value(retryBatchesKey{}).(map[string][]runner.Batch)
	return b
}

// failedBatches are the failed batches of the last run's microbatch
// models that also had batches succeed, as dbt 1.9's retry takes them
// (a model none of whose batches succeeded runs whole again: it may have
// to be built from begin).
func failedBatches(lr *lastRun) (map[string][]runner.Batch, error) {
	out := map[string][]runner.Batch{}
	for _, r := range lr.Results {
		br := r.BatchResults
		if br == nil || len(br.Successful) == 0 || len(br.Failed) == 0 {
			continue
		}
		for _, w := range br.Failed {
			s, err1 := time.Parse(time.RFC3339, w[0])
			e, err2 := time.Parse(time.RFC3339, w[1])
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("%s: batch %v is not two RFC 3339 times", r.UniqueID, w)
			}
			out[r.UniqueID] = append(out[r.UniqueID], runner.Batch{ID: batchID(s, e), Start: s.UTC(), End: e.UTC()})
		}
	}
	return out, nil
}

// batchID is dbt's id of a batch from its window (hours when it is
// shorter than a day).
func batchID(s, e time.Time) string {
	if e.Sub(s) < 24*time.Hour && (s.Hour() != 0 || e.Sub(s) <= time.Hour) {
		return s.UTC().Format("20060102T15")
	}
	return s.UTC().Format("20060102")
}

// batchNames are model:batch ids, sorted.
func batchNames(b map[string][]runner.Batch) []string {
	var out []string
	for id, bs := range b {
		for _, x := range bs {
			out = append(out, nodeName(id)+":"+x.ID)
		}
	}
	sort.Strings(out)
	return out
}

package executor

import (
	"fmt"
	"time"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// microbatch builds a microbatch model (dbt 1.9) batch by batch, as
// dbt-core's MicrobatchModelRunner with dbt-duckdb's strategy: the
// pre-hooks before the first batch, then each batch rendered with its
// window (refs and sources with an event_time read only it) and written
// on its own: the first of a first build or --full-refresh creates the
// table, every later one replaces the table's rows in its window
// (delete+insert in one transaction). A failed batch is reported and the
// next ones still run; the model is "partial success" when some failed
// (error when all did) and its batch_results list both, which `docket
// retry` reads to run only the failed ones. The post-hooks run after the
// last batch when any succeeded.
func (x *nodeExec) microbatch(existing string, full bool) error {
	n, opts := x.n, x.opts
	incremental := existing == "BASE TABLE" && !full
	var batches []compiler.Batch
	for _, b := range opts.RetryBatches[n.UniqueID] {
		b.ID = compiler.BatchID(b.Start, n.Config.BatchSize)
		batches = append(batches, b)
	}
	if len(batches) == 0 || !incremental {
		now := opts.Now
		if now.IsZero() {
			now = time.Now()
		}
		var err error
		batches, err = n.Batches(compiler.BatchPlan{Incremental: incremental, Start: opts.EventTimeStart, End: opts.EventTimeEnd, Now: now})
		if err != nil {
			return err
		}
	}
	if err := x.preHooks(incremental); err != nil {
		return err
	}
	if err := x.sqlHeader(); err != nil {
		return err
	}
	br := &BatchResults{Successful: [][2]string{}, Failed: [][2]string{}}
	var rows int64
	var lastErr error
	created := false
	for i := range batches {
		b := batches[i]
		t0 := time.Now()
		written, err := x.oneBatch(&b, incremental || created, existing)
		run := BatchRun{Batch: b, Status: StatusSuccess, Message: fmt.Sprintf("INSERT %d", written), Seconds: time.Since(t0).Seconds()}
		window := [2]string{b.Start.UTC().Format(time.RFC3339), b.End.UTC().Format(time.RFC3339)}
		if err != nil {
			run.Status, run.Message, lastErr = StatusError, err.Error(), err
			br.Failed = append(br.Failed, window)
		} else {
			if !incremental && !created {
				created, run.Message = true, fmt.Sprintf("CREATE TABLE %d", written)
			}
			rows += written
			br.Successful = append(br.Successful, window)
		}
		x.r.Batches = append(x.r.Batches, run)
		if opts.OnBatch != nil {
			opts.OnBatch(*x.r, i+1, len(batches), run)
		}
	}
	x.batch = nil
	x.r.BatchResults = br
	x.r.AdapterResponse = AdapterResponse{Message: fmt.Sprintf("INSERT %d", rows), RowsAffected: rows}
	ok, failed := len(br.Successful), len(br.Failed)
	switch {
	case failed == 0:
		x.r.Status, x.r.Message = StatusSuccess, fmt.Sprintf("SUCCESS (%d batch%s, %d rows)", ok, esPlural(ok), rows)
	case ok == 0:
		return fmt.Errorf("every batch failed (%d); the last: %w", failed, lastErr)
	default:
		x.r.Status = StatusPartialSuccess
		x.r.Message = fmt.Sprintf("PARTIAL SUCCESS (%d/%d batches; `docket retry` runs the failed ones)", ok, ok+failed)
	}
	return x.postHooks(incremental || created)
}

// oneBatch renders and writes batch b: a table of its rows when the
// model has none yet (exists false), else its window replaced. It
// returns the rows written.
func (x *nodeExec) oneBatch(b *compiler.Batch, exists bool, existing string) (int64, error) {
	body, err := x.m.RenderBatch(x.ctx, sqlQuerier{x.c}, x.n, exists, b)
	if err != nil {
		return 0, err
	}
	x.r.CompiledCode = body
	if err := x.checkContract(body); err != nil {
		return 0, err
	}
	if !exists {
		if err := x.table(body, existing); err != nil {
			return 0, err
		}
		return x.r.AdapterResponse.RowsAffected, nil
	}
	x.batch = b
	if err := x.incremental(body); err != nil {
		return 0, err
	}
	return x.r.AdapterResponse.RowsAffected, nil
}

func esPlural(n int) string {
	if n == 1 {
		return ""
	}
	return "es"
}

package executor

import (
	"time"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// Result statuses, as in dbt's run_results.json.
const (
	StatusSuccess = "success"
	StatusError   = "error"
	StatusSkipped = "skipped"
	StatusPass    = "pass"
	StatusFail    = "fail"
	StatusWarn    = "warn"
	// StatusPartialSuccess: a microbatch model some of whose batches
	// failed (dbt 1.9); it fails the run, and retry runs the failed ones
	StatusPartialSuccess = "partial success"
)

// RunOptions tune Execute.
type RunOptions struct {
	Command     string   // build, run, test or seed
	Selected    []string // node ids from Select; nil = every node of the command's types
	FullRefresh bool
	// Force runs every selected node, even one whose inputs did not change
	// since its last build (state.go); FullRefresh implies it.
	Force bool
	// Empty is dbt 1.8's --empty: refs and sources read no rows, so the
	// models build with their columns and zero rows.
	Empty   bool
	Threads int
	// FailFast is dbt's --fail-fast (-x): after the first node that errors
	// or fails, no other node starts; they are skipped, saying why.
	FailFast bool
	// WarnError is dbt's --warn-error: a test that warns fails. A node's
	// Warnings (settings docket did not apply) stay warnings: dbt fires no
	// event for them.
	WarnError bool
	// EventTimeStart and EventTimeEnd are --event-time-start/end: the
	// window of a microbatch model's batches (zero: its own, microbatch.go);
	// Now is the time its batches end by default (zero: time.Now()).
	EventTimeStart, EventTimeEnd, Now time.Time
	// RetryBatches are, by unique_id, the batches of a microbatch model
	// that failed in the run retried: only they run again.
	RetryBatches map[string][]compiler.Batch
	// OnResult, when set, is called once per node as it finishes (never
	// concurrently), with Index counting finished nodes and Total the count.
	OnResult func(Result)
	// OnBatch, when set, is called as each batch of a microbatch model
	// ends (dbt prints its batch lines so), before the model's OnResult:
	// r is the model's result so far (its name and relation), i counts
	// batches from 1 of total. Batches of one model are never concurrent;
	// a call may run beside another node's OnResult.
	OnBatch func(r Result, i, total int, b BatchRun)
}

// Timing is one phase of a node.
type Timing struct {
	Name        string    `json:"name"`
	StartedAt   time.Time `json:"started_at"`
	CompletedAt time.Time `json:"completed_at"`
}

// Sample is up to 5 failing rows of a data test.
type Sample struct {
	Columns []string   `json:"columns"`
	Rows    [][]string `json:"rows"`
}

// AdapterResponse mirrors dbt's.
type AdapterResponse struct {
	Message      string `json:"_message"`
	RowsAffected int64  `json:"rows_affected"`
	// StatementRows: the rows the model's own statement wrote, when its
	// post-hooks wrote more into the table (a batched full build's first
	// batch); RowsAffected is then the table's rows after them. dbt's
	// adapter_response is an open object; adapters add their own keys.
	StatementRows *int64 `json:"statement_rows,omitempty"`
}

// Result is the outcome of one node.
type Result struct {
	UniqueID        string               `json:"unique_id"`
	Status          string               `json:"status"`
	Timing          []Timing             `json:"timing"`
	ThreadID        string               `json:"thread_id"`
	ExecutionTime   float64              `json:"execution_time"`
	AdapterResponse AdapterResponse      `json:"adapter_response"`
	Message         string               `json:"message"`
	Failures        *int64               `json:"failures"`
	CompiledCode    string               `json:"compiled_code,omitempty"`
	RelationName    string               `json:"relation_name,omitempty"`
	Sample          *Sample              `json:"sample,omitempty"`
	Diagnostic      *compiler.Diagnostic `json:"diagnostic,omitempty"`
	// BatchResults: a microbatch model's batches that succeeded and failed
	BatchResults *BatchResults `json:"batch_results,omitempty"`
	// Batches: a microbatch model's batches in the order run, each with
	// its outcome (printed as their own lines)
	Batches []BatchRun `json:"-"`

	ResourceType string `json:"-"`
	Name         string `json:"-"`
	Materialized string `json:"-"`
	Language     string `json:"-"` // a model's: "python" for a Python model (never built), else "sql"
	Severity     string `json:"-"`
	Index        int    `json:"-"`
	// UpToDate: not run, its inputs did not change since its last build
	// (Status success, or pass for a test; Message UpToDateMessage).
	UpToDate bool `json:"-"`
	// Scoped: a test checked only the rows its model wrote since the
	// test last passed (delta.go); says which (also in Message).
	Scoped string `json:"-"`
	Total  int    `json:"-"`
	// RetriedAlone: the node ran out of DuckDB's memory while this node
	// (a unique_id) ran beside it, and the result is of its second run,
	// alone.
	RetriedAlone string `json:"-"`
	// Warnings are settings the node's run did not apply, each with its
	// place (file:line: what); the command says them on stderr.
	Warnings []string `json:"-"`
}

// BatchResults is dbt 1.9's batch_results of a run result: the windows
// [start, end] of the batches that succeeded and failed.
type BatchResults struct {
	Successful [][2]string `json:"successful"`
	Failed     [][2]string `json:"failed"`
}

// BatchRun is one batch of a microbatch model as it ran.
type BatchRun struct {
	compiler.Batch
	Status  string // success or error
	Message string // CREATE TABLE n / INSERT n, or the error
	Seconds float64
}

// Failed reports whether the result makes the run exit 1.
func (r Result) Failed() bool {
	return r.Status == StatusError || r.Status == StatusFail || r.Status == StatusPartialSuccess
}

// RunResults is target/run_results.json.
type RunResults struct {
	Metadata    map[string]any `json:"metadata"`
	Results     []Result       `json:"results"`
	ElapsedTime float64        `json:"elapsed_time"`
	Args        map[string]any `json:"args"`
}

// Failed reports whether any node failed (exit code 1).
func (rr *RunResults) Failed() bool {
	for _, r := range rr.Results {
		if r.Failed() {
			return true
		}
	}
	return false
}

package executor

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// model builds a model by its materialization: view (view.go), table
// (table.go), incremental (incremental.go); ephemeral models are inlined
// where they are used (Plan leaves them out).
func (x *nodeExec) model() error {
	n := x.n
	if n.Language == "python" {
		return errors.New(compiler.PythonModelError(n))
	}
	if n.RunError != "" {
		return errors.New(n.RunError)
	}
	t0 := time.Now()
	existing, err := x.relationType(n.Schema, n.Alias)
	if err != nil {
		return err
	}
	full := x.full && (n.Config.FullRefresh == nil || *n.Config.FullRefresh) // full_refresh: false wins over --full-refresh
	custom := n.CustomMat != nil                                             // a custom materialization runs every time: what it reads is its own
	// so do dbt-duckdb's: an external model's file or a table function are not relations docket's state sees
	always := custom || n.Config.External != nil || n.Config.TableFunction != nil
	// and a microbatch model, whose batches move with the clock (dbt runs it every time)
	mb := n.Config.Materialized == "incremental" && n.Config.IncrementalStrategy == "microbatch" && !custom
	always = always || mb
	// --full-refresh runs full_refresh: false models too (incrementally)
	if x.upToDate(existing, x.full || always) {
		x.timing("compile", t0)
		x.markUpToDate()
		return nil
	}
	if mb {
		x.timing("compile", t0)
		return x.microbatch(existing, full)
	}
	incremental := n.Config.Materialized == "incremental" && existing == "BASE TABLE" && !full
	body, err := x.compile(incremental)
	x.timing("compile", t0)
	if err != nil {
		return err
	}
	x.r.CompiledCode = body
	t1 := time.Now()
	defer x.timing("execute", t1)
	if err := x.checkContract(body); err != nil {
		return err
	}
	if custom {
		return x.custom(body, full)
	}
	if err := x.preHooks(incremental); err != nil {
		return err
	}
	if err := x.sqlHeader(); err != nil {
		return err
	}
	switch n.Config.Materialized {
	case "view":
		if err := x.view(body, existing); err != nil {
			return err
		}
	case "table":
		if err := x.table(body, existing); err != nil {
			return err
		}
	case "external":
		if err := x.external(body, existing); err != nil {
			return err
		}
	case "table_function":
		if err := x.tableFunction(body); err != nil {
			return err
		}
	case "incremental":
		if incremental {
			err = x.incremental(body)
		} else {
			err = x.table(body, existing)
		}
		if err != nil {
			return err
		}
	default:
		return fmt.Errorf("materialization %q cannot be run", n.Config.Materialized)
	}
	if err := x.postHooks(incremental); err != nil {
		return err
	}
	x.recountAfterHooks(incremental)
	x.r.Status = StatusSuccess
	return nil
}

// recountAfterHooks: a table (or an incremental model's full build) is
// reported as "CREATE TABLE n", n counted before the post-hooks ran; a
// post-hook that writes rows into it (the batched full builds of
// macros/batching.sql insert every batch after the first) made that the
// first batch's count: "OK 118835 rows" for a 1.19M-row doc_chunks. The
// table is counted again after them (a hook may have dropped or renamed
// it: then the count before them stands).
func (x *nodeExec) recountAfterHooks(incremental bool) {
	n := x.n
	if incremental || len(n.Config.PostHook) == 0 || !strings.HasPrefix(x.r.AdapterResponse.Message, "CREATE TABLE ") {
		return
	}
	rows, err := x.count(n.Relation)
	if err != nil {
		return
	}
	if first := x.r.AdapterResponse.RowsAffected; rows != first {
		x.r.AdapterResponse = AdapterResponse{Message: fmt.Sprintf("CREATE TABLE %d", rows), RowsAffected: rows, StatementRows: &first}
		x.r.Message = x.r.AdapterResponse.Message
	}
}

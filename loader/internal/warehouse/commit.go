package warehouse

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/duckdb/duckdb-go/v2"
)

// CommitError is a failure of a transaction's commit itself (not of a
// statement before it). After one, this process writes nothing more to
// the warehouse (DB.Land, LandShard, LandDecisions, MarkDeleted,
// FinishRun, CheckpointLean and a shard's Scratch.Land return the error,
// Close does not checkpoint): DuckDB 1.5 does not undo a commit that
// fails under memory pressure cleanly. None of the batch's rows are
// visible, but its keys stay in the primary keys'
// indexes (every later insert of one fails with "Duplicate key ...
// violates primary key constraint": the document-by-document retry of
// mem20's 200k load at memory_limit 128MB) and its column data stays
// appended: a later batch's commit then succeeded with the failed batch's
// rows landed in place of its own (a document's row without its pages,
// kept through a reopen), and a checkpoint fails with "Corrupted
// in-memory column ... misaligned count" and invalidates the database.
// The write-ahead log holds only the committed batches: the next open
// replays them, without the failed batch's rows or keys.
//
// A fatal error of DuckDB while a batch lands (DuckDB then invalidates the
// open database: "FATAL Error: ...", then "The database has been
// invalidated because of a previous fatal error"; seen for a checkpoint
// that failed under a low memory_limit, f216ac8) is a CommitError too.
type CommitError struct{ Err error }

func (e *CommitError) Error() string {
	if fatal(e.Err) {
		return "warehouse: DuckDB invalidated the open database: " + e.Err.Error()
	}
	return "warehouse: commit failed: " + e.Err.Error()
}
func (e *CommitError) Unwrap() error { return e.Err }

// OutOfMemory says DuckDB failed for want of memory under its
// memory_limit (loader.memory_limit).
func (e *CommitError) OutOfMemory() bool { return outOfMemory(e.Err) }

// MemoryAdvice says, when DuckDB ran out of memory, which setting to
// raise from what (limit, in bytes: loader.memory_limit as the load
// gave it); "" for any other failure. Every command that lands
// documents says it in these words, then what to run again.
func (e *CommitError) MemoryAdvice(limit int64) string {
	if !e.OutOfMemory() {
		return ""
	}
	return fmt.Sprintf("DuckDB ran out of memory under loader.memory_limit (%dMiB): raise loader.memory_limit in project.yaml", limit>>20)
}

// fatal says DuckDB failed fatally, or had before: the open database is
// invalidated. By the error's type, not its text, which may quote a
// document's value ("FATAL Error", "database has been invalidated"):
// DuckDB's own errors (statements, the appender, the commit) carry it.
// Only an error carrying no duckdb.Error is read by its text.
func fatal(err error) bool {
	var de *duckdb.Error
	if errors.As(err, &de) {
		return de.Type == duckdb.ErrorTypeFatal
	}
	return strings.Contains(err.Error(), "database has been invalidated")
}

func outOfMemory(err error) bool {
	s := strings.ToLower(err.Error())
	return strings.Contains(s, "out of memory") || strings.Contains(s, "failed to pin block") || strings.Contains(s, "could not allocate block")
}

// Hooks are fault-injection points, set by tests; production code leaves
// them nil and never reads them from the environment.
var Hooks struct {
	// Statement runs in DB.Land once the batch's rows are written, before
	// the commit: an error it returns fails that statement (the
	// transaction is rolled back, as for any failed statement).
	Statement func(batch []Landing) error
	// Commit runs in DB.Land in place of the commit when set and returns
	// an error: the commit fails with it (a CommitError, which stops
	// this process's writes as a failure of DuckDB's commit does).
	Commit func(batch []Landing) error
}

// commit commits c's transaction; a failure is a CommitError, and the
// database takes no more writes from this process.
func (w *DB) commit(ctx context.Context, c *sql.Conn, batch []Landing) error {
	var err error
	if Hooks.Commit != nil {
		err = Hooks.Commit(batch)
	}
	if err == nil {
		_, err = c.ExecContext(ctx, "commit")
		if err == nil {
			return nil
		}
	} else {
		c.ExecContext(context.Background(), "rollback")
	}
	return w.fail(err)
}

// landTx runs fn in a transaction on c and commits it (see commit); a
// fatal error of fn's is a CommitError too.
func (w *DB) landTx(ctx context.Context, c *sql.Conn, batch []Landing, fn func() error) error {
	if err := w.begin(ctx, c); err != nil {
		return err
	}
	if err := fn(); err != nil {
		c.ExecContext(context.Background(), "rollback")
		if fatal(err) {
			return w.fail(err)
		}
		return err
	}
	return w.commit(ctx, c, batch)
}

// begin starts a transaction on c. It fails when DuckDB had failed
// fatally before (the open database is invalidated: every statement
// fails): that is a CommitError too, so the batch is not retried
// document by document.
func (w *DB) begin(ctx context.Context, c *sql.Conn) error {
	_, err := c.ExecContext(ctx, "begin transaction")
	if err != nil && fatal(err) {
		return w.fail(err)
	}
	return err
}

// fail records err as the failure after which the database takes no more
// writes from this process, and returns it as a CommitError.
func (w *DB) fail(err error) error {
	ce := &CommitError{Err: err}
	w.mu.Lock()
	if w.broken == nil {
		w.broken = ce
	}
	w.mu.Unlock()
	return ce
}

// refuse returns an error when an earlier commit of this process failed
// (see CommitError): the write must not run.
func (w *DB) refuse() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.broken == nil {
		return nil
	}
	return fmt.Errorf("warehouse: not written, an earlier commit of this process failed: %w", w.broken)
}

// Broken returns the CommitError after which this process writes nothing
// more to the warehouse, or nil.
func (w *DB) Broken() *CommitError {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.broken
}

// IsCommitError reports whether err is, or wraps, a CommitError.
func IsCommitError(err error) bool {
	var ce *CommitError
	return errors.As(err, &ce)
}

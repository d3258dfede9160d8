package warehouse

import (
	"context"
	"database/sql"
	"errors"
	"testing"
	"time"

	"github.com/duckdb/duckdb-go/v2"
)

// invalidate makes DuckDB fail fatally on db, as it does for a checkpoint
// that cannot get memory (f216ac8): a checkpoint aborted by DuckDB's own
// testing setting debug_checkpoint_abort raises the same fatal error, and
// the open database is then invalidated: every statement fails. It used
// to be a real out-of-memory checkpoint (rows held in memory, no
// temp_directory, memory_limit at what they took), but where that gave
// out depended on what DuckDB's threads held at the moment, and under a
// loaded machine it once failed cleanly instead (pdfspeed22, load ~15):
// the abort is the same at any load.
func invalidate(t *testing.T, db *sql.DB) {
	t.Helper()
	ctx := context.Background()
	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, q := range []string{
		`create table main.ballast (i bigint)`, // something for the checkpoint to write
		`insert into main.ballast values (1)`,
		`set debug_checkpoint_abort = 'before_header'`,
	} {
		if _, err := c.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	_, err = c.ExecContext(ctx, `checkpoint`)
	if de := (*duckdb.Error)(nil); !errors.As(err, &de) || de.Type != duckdb.ErrorTypeFatal {
		t.Fatalf("the aborted checkpoint gave %v, not DuckDB's fatal error: the test no longer invalidates the database", err)
	}
}

// TestBeginOnInvalidatedDatabase: once DuckDB has failed fatally (a real
// failure, see invalidate), even a batch's `begin transaction` fails.
// That is a CommitError: the process writes nothing more and the loader
// does not retry the batch document by document. The old Land, MarkDeleted
// and Scratch.Land (landTx) returned the begin's error as a statement's.
func TestBeginOnInvalidatedDatabase(t *testing.T) {
	ctx := context.Background()
	doc := func(id string) []Landing {
		return []Landing{{Doc: DocRow{DocID: id, SourceName: "s", RelPath: id + ".txt", URI: "file:///" + id, Hash: "h" + id, Status: StatusQuarantined, ErrorKind: "empty"}, Event: "new"}}
	}
	check := func(what string, err error, broken *CommitError) {
		t.Helper()
		if !IsCommitError(err) || !fatal(err) {
			t.Errorf("%s on an invalidated database: %v, want a fatal CommitError", what, err)
		}
		if broken == nil {
			t.Errorf("%s on an invalidated database: the warehouse still takes writes", what)
		}
	}

	db := openWithSchema(t)
	invalidate(t, db.SQL())
	err := db.Land(ctx, "run", time.Now(), doc("a"), nil)
	check("Land", err, db.Broken())

	db = openWithSchema(t)
	invalidate(t, db.SQL())
	_, err = db.MarkDeleted(ctx, "run", time.Now(), []string{"a"})
	check("MarkDeleted", err, db.Broken())

	s, err := OpenScratch(ctx, t.TempDir(), 96<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	invalidate(t, s.db.sql)
	err = s.Land(ctx, "run", time.Now(), doc("a"), nil)
	check("Scratch.Land", err, s.db.Broken())
}

// TestValueQuotingInvalidatedIsNoFatalError: a statement's error of
// DuckDB's that quotes a value saying "database has been invalidated" is
// that statement's failure (its batch is retried document by document),
// not DuckDB's fatal error: the old fatal matched the words anywhere in
// the text and stopped the load.
func TestValueQuotingInvalidatedIsNoFatalError(t *testing.T) {
	ctx := context.Background()
	db := openWithSchema(t)
	Hooks.Statement = func([]Landing) error {
		return &duckdb.Error{Type: duckdb.ErrorTypeConversion, Msg: "Conversion Error: a value ('The database has been invalidated') does not fit (injected)"}
	}
	err := db.Land(ctx, "run", time.Now(), []Landing{{Doc: DocRow{DocID: "a", SourceName: "s", RelPath: "a.txt", URI: "file:///a", Hash: "ha", Status: StatusQuarantined, ErrorKind: "empty"}, Event: "new"}}, nil)
	Hooks.Statement = nil
	if err == nil || IsCommitError(err) || db.Broken() != nil {
		t.Fatalf("got %v (broken: %v), want the statement's own error", err, db.Broken())
	}
	// The same words outside any error of DuckDB's are still read.
	if !fatal(errors.New("Failed: database has been invalidated because of a previous fatal error")) {
		t.Error("an error without DuckDB's type saying the database was invalidated is not fatal")
	}
}

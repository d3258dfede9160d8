package warehouse

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/duckdb/duckdb-go/v2"
)

// invalidate makes DuckDB fail fatally on db, as it does for a checkpoint
// that cannot get memory (f216ac8): rows held in memory, no temp_directory
// to evict them to, memory_limit at what they take, then a checkpoint. The
// open database is then invalidated: every statement fails.
//
// Where the checkpoint gives out depends on what DuckDB's threads hold at
// that moment, and once in a full package run under a loaded machine
// (pdfspeed22) it failed cleanly (out of memory, not fatal) instead. So a
// checkpoint that fails without invalidating is tried again one step
// higher, and one that succeeds starts over with new rows, a few times,
// before the test gives up.
func invalidate(t *testing.T, db *sql.DB) {
	t.Helper()
	ctx := context.Background()
	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	exec := func(q string) {
		t.Helper()
		if _, err := c.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`set temp_directory = ''`)
	exec(`set checkpoint_threshold = '100GB'`)
	var last error
	for round := 0; round < 4; round++ {
		if fatalCheckpoint(t, c, round, &last) {
			return
		}
		exec(`set memory_limit = '4GB'`)
	}
	t.Fatalf("no checkpoint made DuckDB fail fatally (last: %v); the test no longer invalidates the database", last)
}

// fatalCheckpoint holds two statements' rows in memory, sets memory_limit
// to the lowest DuckDB takes, and checkpoints, raising the limit in steps
// under a block's size while the checkpoint fails without invalidating.
// It reports whether the database is now invalidated.
func fatalCheckpoint(t *testing.T, c *sql.Conn, round int, last *error) bool {
	t.Helper()
	ctx := context.Background()
	table := fmt.Sprintf("main.ballast%d", round)
	for _, q := range []string{
		`create table ` + table + ` (i bigint, s varchar)`,
		// statements under a row group: the rows stay in memory
		`insert into ` + table + ` select i, md5(i::varchar) || md5((i + 1)::varchar) from range(100000) r(i)`,
		`insert into ` + table + ` select i, md5(i::varchar) || md5((i + 1)::varchar) from range(100000) r(i)`,
	} {
		if _, err := c.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	var used int64
	if err := c.QueryRowContext(ctx, `select sum(memory_usage_bytes)::bigint from duckdb_memory()`).Scan(&used); err != nil {
		t.Fatal(err)
	}
	// The lowest limit DuckDB takes (what duckdb_memory() lists is not
	// all it holds).
	limit := used
	for ; ; limit += 64 << 10 {
		if _, err := c.ExecContext(ctx, fmt.Sprintf(`set memory_limit = '%dB'`, limit)); err == nil {
			break
		} else if limit > used+(64<<20) {
			t.Fatal(err)
		}
	}
	for step := 0; step < 16; step, limit = step+1, limit+(64<<10) {
		if step > 0 {
			if _, err := c.ExecContext(ctx, fmt.Sprintf(`set memory_limit = '%dB'`, limit)); err != nil {
				*last = err
				continue
			}
		}
		_, err := c.ExecContext(ctx, `checkpoint`)
		var de *duckdb.Error
		switch {
		case errors.As(err, &de) && de.Type == duckdb.ErrorTypeFatal:
			return true
		case err == nil:
			*last = fmt.Errorf("the checkpoint under memory_limit %d B succeeded", limit)
			return false // the rows are written: start over with new ones
		default:
			t.Logf("the checkpoint under memory_limit %d B failed without invalidating: %v", limit, err)
			*last = err
		}
	}
	return false
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

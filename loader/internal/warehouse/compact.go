package warehouse

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Compacting (issue 15). DuckDB reuses the blocks that rebuilt tables and
// deletes free, but never gives them back to the file system except at
// its end: a warehouse stays at its high-water mark. VACUUM does not
// reclaim space in DuckDB 1.5 and CHECKPOINT only truncates trailing free
// blocks; the documented way is a copy into a fresh file with COPY FROM
// DATABASE. Compact does that under the writer's lock, checks that the
// copy holds the same relations with the same row counts, and renames it
// over the warehouse.

// BlockStats is DuckDB's pragma database_size of a warehouse.
type BlockStats struct {
	BlockSize, Total, Used, Free int64
}

// FreeShare is the share of the file's blocks that are free.
func (b BlockStats) FreeShare() float64 {
	if b.Total == 0 {
		return 0
	}
	return float64(b.Free) / float64(b.Total)
}

// Blocks reads the open warehouse's block counts.
func (db *DB) Blocks(ctx context.Context) (BlockStats, error) {
	var b BlockStats
	err := db.sql.QueryRowContext(ctx, `select block_size, total_blocks, used_blocks, free_blocks
		from pragma_database_size() where database_name = current_database()`).Scan(&b.BlockSize, &b.Total, &b.Used, &b.Free)
	return b, err
}

// CompactResult says what Compact did.
type CompactResult struct {
	Before, After int64 // file bytes
	Blocks        BlockStats
	Relations     int // tables and views copied
}

// Compact rewrites the warehouse at path into a fresh file holding the same
// schemas, tables, views, macros and sequences, and replaces the file with
// it. db is the warehouse opened for writing at path (Compact closes it:
// the file must be checkpointed and unlocked before the rename).
func Compact(ctx context.Context, db *DB) (*CompactResult, error) {
	path := db.Path
	res := &CompactResult{}
	st, err := os.Stat(path)
	if err != nil {
		db.Close()
		return nil, err
	}
	res.Before = st.Size()
	if res.Blocks, err = db.Blocks(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("warehouse: compact: %w", err)
	}
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".compact.tmp")
	os.Remove(tmp)
	os.Remove(tmp + ".wal")
	ok := false
	defer func() {
		if !ok {
			os.Remove(tmp)
			os.Remove(tmp + ".wal")
		}
	}()
	c, err := db.sql.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, err
	}
	var name string
	steps := []string{
		"checkpoint",
		fmt.Sprintf("attach '%s' as docket_compact", strings.ReplaceAll(tmp, "'", "''")),
		"", // copy from database (needs the name)
	}
	if err := c.QueryRowContext(ctx, "select current_database()").Scan(&name); err != nil {
		c.Close()
		db.Close()
		return nil, err
	}
	steps[2] = fmt.Sprintf(`copy from database "%s" to docket_compact`, strings.ReplaceAll(name, `"`, `""`))
	for _, q := range steps {
		if _, err := c.ExecContext(ctx, q); err != nil {
			c.ExecContext(ctx, "detach database if exists docket_compact")
			c.Close()
			db.Close()
			return nil, fmt.Errorf("warehouse: compact: %s: %w", q, err)
		}
	}
	n, diff, err := compareCopy(ctx, c, name, "docket_compact")
	c.ExecContext(ctx, "detach database if exists docket_compact")
	c.Close()
	if err == nil && diff != "" {
		err = fmt.Errorf("the copy differs from the warehouse (%s); the warehouse is left as it was", diff)
	}
	if cerr := db.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("warehouse: compact: %w", err)
	}
	res.Relations = n
	before, err := fileState(path)
	if err != nil {
		return nil, err
	}
	// Hold a read lock (what a read-only DuckDB client takes) while
	// swapping, so no writer is between its open and its writes; a writer
	// that came in since the copy was made changed the file: give up.
	src, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	if pid, err := readLock(src); err != nil {
		if pid != 0 || errors.Is(err, errLocked) {
			return nil, &BusyError{Path: path, PID: pid, Holder: processCommand(pid)}
		}
		return nil, err
	}
	if now, err := fileState(path); err != nil || now != before {
		return nil, fmt.Errorf("warehouse: compact: %s changed while it was copied; run docket compact again", filepath.Base(path))
	}
	if err := os.Rename(tmp, path); err != nil {
		return nil, fmt.Errorf("warehouse: compact: %w", err)
	}
	ok = true
	if st, err := os.Stat(path); err == nil {
		res.After = st.Size()
	}
	return res, nil
}

// compareCopy checks that database b has the same tables, views, macros
// and sequences as a, and each table the same row count (COPY FROM
// DATABASE copies rows as they are; this catches a relation it skipped).
// It returns the number of tables and views and a description of the
// first difference ("" when none).
func compareCopy(ctx context.Context, c *sql.Conn, a, b string) (int, string, error) {
	objects := func(db string) (map[string]bool, []string, error) {
		rows, err := c.QueryContext(ctx, `
			select 'table ' || schema_name || '.' || table_name from duckdb_tables() where database_name = $1
			union all select 'view ' || schema_name || '.' || view_name from duckdb_views() where database_name = $1 and not internal
			union all select distinct 'macro ' || schema_name || '.' || function_name from duckdb_functions()
				where database_name = $1 and function_type in ('macro', 'table_macro') and not internal
			union all select 'sequence ' || schema_name || '.' || sequence_name from duckdb_sequences() where database_name = $1`, db)
		if err != nil {
			return nil, nil, err
		}
		defer rows.Close()
		set := map[string]bool{}
		var tables []string
		for rows.Next() {
			var o string
			if err := rows.Scan(&o); err != nil {
				return nil, nil, err
			}
			set[o] = true
			if t, ok := strings.CutPrefix(o, "table "); ok {
				tables = append(tables, t)
			}
		}
		return set, tables, rows.Err()
	}
	oa, tables, err := objects(a)
	if err != nil {
		return 0, "", err
	}
	ob, _, err := objects(b)
	if err != nil {
		return 0, "", err
	}
	for o := range oa {
		if !ob[o] {
			return 0, o + " is missing from the copy", nil
		}
	}
	for o := range ob {
		if !oa[o] {
			return 0, "the copy has an extra " + o, nil
		}
	}
	n := 0
	for o := range oa {
		if !strings.HasPrefix(o, "macro ") && !strings.HasPrefix(o, "sequence ") {
			n++
		}
	}
	q := func(db, t string) string {
		schema, name, _ := strings.Cut(t, ".")
		return fmt.Sprintf(`select count(*) from "%s"."%s"."%s"`, strings.ReplaceAll(db, `"`, `""`), strings.ReplaceAll(schema, `"`, `""`), strings.ReplaceAll(name, `"`, `""`))
	}
	for _, t := range tables {
		var na, nb int64
		if err := c.QueryRowContext(ctx, q(a, t)).Scan(&na); err != nil {
			return 0, "", err
		}
		if err := c.QueryRowContext(ctx, q(b, t)).Scan(&nb); err != nil {
			return 0, "", err
		}
		if na != nb {
			return 0, fmt.Sprintf("%s has %d rows, its copy %d", t, na, nb), nil
		}
	}
	return n, "", nil
}

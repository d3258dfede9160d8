package warehouse

// SourcePages: a source's top-level documents read in WalkKey order a
// page at a time, each page costing about its own rows. The documents
// and their extractions lie in the order they were landed (by size, as
// workers finished), not in walk order, so a query for "the next n in
// walk order" scans and sorts the whole source each time: SourceDocuments
// did that for every batch of 4,096, and a no-op load of 200k documents
// spent ~40 % more CPU than the whole-map plan before it (plan24).
//
// Instead the source is numbered once: a temporary table of (row id of
// the document, row id of its extraction) in walk order, ~16 bytes a
// document, made by one sort of the walk keys and one join. A page is
// then read by row id (`where rowid in (select drow from the numbering
// where its rowid is in the page)`): DuckDB pushes the page's row ids
// into the scans as a filter, and only the page's rows are decompressed,
// joined and handed on. What stays proportional to the table per page
// is DuckDB checking each row id against that filter (vectorized; its
// profile still counts every row as scanned).
//
// Measured on copies of bench-scale's warehouses (load average ~14): a
// page of 4,096 took 27-53 ms (documents) + 40-180 ms (extractions) at
// 200k, about the same at 50k; SourceDocuments' 0.8-2.4 s at 200k.
//
// Tried and dropped (loader/tools/MEASUREMENTS.md, session 22): one
// ordered query for the whole source (the driver materializes results,
// and DuckDB's sort of every column ran out of memory under the load's
// 160 MiB limit at 200k, also written to a file with COPY); a temporary
// table with every column (~400 bytes a document in DuckDB's pool, and
// its window function ran out of memory there too); point look-ups by
// doc_id through the primary key's index (an index scan, but ~0.3 ms a
// row to fetch); a join on the row ids instead of the filter (DuckDB
// then scans and hands on every row).

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// SourcePages reads a source's documents in WalkKey order (see above).
// Close it when done: it holds a connection.
type SourcePages struct {
	conn *sql.Conn
	next int64 // the number of the next document to read (its rowid in the numbering)
	prof func(ScanCount)
}

// ScanCount is what the table scans of one state read handed on (Rows:
// after their filters) and scanned (Scanned: DuckDB's own count, which
// includes the rows a filter turned away), summed over the query's scans.
type ScanCount struct {
	Rows, Scanned int64
}

// ProfileReads has DuckDB profile the plan's paged reads (SourcePages and
// the old SourceDocuments) and gives f each query's scans: a test bounds
// them. nil stops it.
func (w *DB) ProfileReads(f func(ScanCount)) { w.profReads = f }

// ErrNumbering: a page did not hold what the numbering said (two contents
// with one hash(), or rows that moved): the caller reads another way.
var ErrNumbering = errors.New("warehouse: the numbering of the documents does not hold")

// SourcePages numbers the top-level documents of source in WalkKey order.
func (w *DB) SourcePages(ctx context.Context, source string) (*SourcePages, error) {
	conn, err := w.sql.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("warehouse: read documents: %w", err)
	}
	p := &SourcePages{conn: conn, prof: w.profReads}
	fail := func(err error) (*SourcePages, error) {
		p.Close()
		return nil, fmt.Errorf("warehouse: read documents: %w", err)
	}
	if p.prof != nil {
		if _, err := conn.ExecContext(ctx, `pragma enable_profiling = 'no_output'`); err != nil {
			return fail(err)
		}
	}
	// Ordered as it is made, so a row's rowid is its number (DuckDB keeps
	// an insert's order; the planner checks the walk order of what it
	// reads and plans from whole maps if it is not). Not in a transaction:
	// rows a transaction appends have row ids of their own until it
	// commits; nothing writes the warehouse while a load plans. Joined by hash():
	// the join's hash table of 64-character strings was 28 MiB at 200k
	// documents, and a window's row_number() sorted more than the keys
	// (the numbering peaked at 140 MB in a process of 39 MB before, 104
	// with both changes). Two contents with one hash() would number a
	// document twice: Next refuses a page whose extraction is not the
	// document's.
	if _, err := conn.ExecContext(ctx, `create or replace temp table docket_plan_pages as
		select d.rowid as drow, e.rowid as erow
		from raw.documents d left join staging.extractions e on hash(e.source_hash) = hash(d.source_hash)
		where d.source_name = ? and coalesce(d.parent_doc_id, '') = ''
		order by replace(d.rel_path, '/', chr(1))`, source); err != nil {
		return fail(err)
	}
	return p, nil
}

// Next returns the next n documents (fewer at the end) with their contents.
func (p *SourcePages) Next(ctx context.Context, n int) ([]KnownContent, error) {
	lo, hi := p.next, p.next+int64(n)
	var order [][2]sql.NullInt64 // drow, erow in walk order
	err := p.query(ctx, func(rows *sql.Rows) error {
		var r [2]sql.NullInt64
		if err := rows.Scan(&r[0], &r[1]); err != nil {
			return err
		}
		order = append(order, r)
		return nil
	}, `select drow, erow from docket_plan_pages where rowid >= ? and rowid < ? order by rowid`, lo, hi)
	if err != nil || len(order) == 0 {
		return nil, err
	}
	docs := make(map[int64]Known, len(order))
	err = p.query(ctx, func(rows *sql.Rows) error {
		var id int64
		var k Known
		st := &k.Stat
		if err := rows.Scan(&id, &k.DocID, &k.Hash, &k.Status, &k.ErrorKind, &k.ParentDocID, &k.SourceName, &k.RelPath,
			&st.Size, &st.MTimeN, &st.Inode, &st.CTimeN, &st.TakenN); err != nil {
			return err
		}
		docs[id] = k
		return nil
	}, `select d.rowid, `+knownCols+` from raw.documents d
		where d.rowid in (select drow from docket_plan_pages where rowid >= ? and rowid < ?)`, lo, hi)
	if err != nil {
		return nil, err
	}
	exs := make(map[int64]Extraction, len(order))
	err = p.query(ctx, func(rows *sql.Rows) error {
		var id, ms int64
		var e Extraction
		if err := rows.Scan(&id, &e.Hash, &e.Status, &e.ErrorKind, &e.ErrorMessage, &e.Type, &e.Pages, &e.Attempts, &ms, &e.Version); err != nil {
			return err
		}
		e.Duration = time.Duration(ms) * time.Millisecond
		exs[id] = e
		return nil
	}, `select e.rowid, e.source_hash, `+extractionCols[len(`e.source_hash is not null, `):]+` from staging.extractions e
		where e.rowid in (select erow from docket_plan_pages where rowid >= ? and rowid < ?)`, lo, hi)
	if err != nil {
		return nil, err
	}
	out := make([]KnownContent, 0, len(order))
	in := interner{}
	for _, r := range order {
		k, ok := docs[r[0].Int64]
		if !ok {
			return nil, fmt.Errorf("%w: row %d has no document", ErrNumbering, r[0].Int64)
		}
		k.Status, k.ErrorKind, k.SourceName = in.of(k.Status), in.of(k.ErrorKind), in.of(k.SourceName)
		kc := KnownContent{Known: k}
		if r[1].Valid {
			e, ok := exs[r[1].Int64]
			if !ok || e.Hash != k.Hash {
				return nil, fmt.Errorf("%w: the extraction of %s is not the one numbered", ErrNumbering, k.DocID)
			}
			e.Status, e.ErrorKind, e.Type, e.Version = in.of(e.Status), in.of(e.ErrorKind), in.of(e.Type), in.of(e.Version)
			kc.Content, kc.Extracted = e, true
		}
		out = append(out, kc)
	}
	p.next = hi
	return out, nil
}

// Close ends the reads and drops the numbering.
func (p *SourcePages) Close() error {
	if p.conn == nil {
		return nil
	}
	_, err := p.conn.ExecContext(context.Background(), `drop table if exists docket_plan_pages`)
	if cerr := p.conn.Close(); err == nil {
		err = cerr
	}
	p.conn = nil
	return err
}

func (p *SourcePages) query(ctx context.Context, scan func(*sql.Rows) error, q string, args ...any) error {
	rows, err := p.conn.QueryContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("warehouse: read documents: %w", err)
	}
	for rows.Next() {
		if err := scan(rows); err != nil {
			rows.Close()
			return fmt.Errorf("warehouse: read documents: %w", err)
		}
	}
	if err := rows.Close(); err != nil {
		return fmt.Errorf("warehouse: read documents: %w", err)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("warehouse: read documents: %w", err)
	}
	if p.prof != nil {
		return profiled(p.conn, p.prof)
	}
	return nil
}

// profiled gives f the table scans of the last query on conn.
func profiled(conn *sql.Conn, f func(ScanCount)) error {
	info, err := duckdb.GetProfilingInfo(conn)
	if err != nil {
		return err
	}
	var c ScanCount
	var walk func(duckdb.ProfilingInfo)
	walk = func(n duckdb.ProfilingInfo) {
		if n.Metrics["OPERATOR_TYPE"] == "TABLE_SCAN" {
			var rows, scanned int64
			fmt.Sscan(n.Metrics["OPERATOR_CARDINALITY"], &rows)
			fmt.Sscan(n.Metrics["OPERATOR_ROWS_SCANNED"], &scanned)
			c.Rows += rows
			c.Scanned += scanned
		}
		for _, ch := range n.Children {
			walk(ch)
		}
	}
	walk(info)
	f(c)
	return nil
}

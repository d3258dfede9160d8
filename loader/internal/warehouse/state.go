package warehouse

// The loader's run records and what it reads of the warehouse's state,
// and the writes outside a landed batch: stats of unchanged files,
// tombstones, skipped entries.

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/docket-dev/docket/loader/internal/document"
)

// Run is an ops.load_runs row.
type Run struct {
	ID                                     string
	StartedAt, FinishedAt                  time.Time
	Status, Version                        string
	Seen, New, Changed, Unchanged, Deleted int
	Quarantined, Landed, Pages, OCRPages   int
	Options                                any
}

// StartRun records a running load; runs left "running" by a killed loader
// are marked aborted.
func (w *DB) StartRun(ctx context.Context, r Run) error {
	if _, err := w.sql.ExecContext(ctx, `update ops.load_runs set status = 'aborted' where status = 'running'`); err != nil {
		return err
	}
	opts, _ := json.Marshal(r.Options)
	_, err := w.sql.ExecContext(ctx, `insert into ops.load_runs (run_id, started_at, status, docket_version, options) values (?, ?, 'running', ?, ?)`,
		r.ID, r.StartedAt, r.Version, string(opts))
	return err
}

// FinishRun records a load's counts.
func (w *DB) FinishRun(ctx context.Context, r Run) error {
	if err := w.refuse(); err != nil {
		return err // the run stays "running": the next load marks it aborted
	}
	_, err := w.sql.ExecContext(ctx, `update ops.load_runs set finished_at = ?, status = ?, seen = ?, new = ?, changed = ?, unchanged = ?,
		deleted = ?, quarantined = ?, landed = ?, pages = ?, ocr_pages = ?, duration_ms = ? where run_id = ?`,
		r.FinishedAt, r.Status, r.Seen, r.New, r.Changed, r.Unchanged, r.Deleted, r.Quarantined, r.Landed, r.Pages, r.OCRPages,
		r.FinishedAt.Sub(r.StartedAt).Milliseconds(), r.ID)
	return err
}

// Known is what the warehouse already knows of a document.
type Known struct {
	DocID, Hash, Status, ErrorKind, ParentDocID string
	SourceName, RelPath                         string
	Stat                                        FileStat // as the load that last read the file saw it (TakenN 0: none)
}

// KnownDocuments returns raw.documents keyed by doc_id. A document's
// hash that is a key of contents (the extractions, when read first) is
// that key's string, not a copy: 64 bytes less per document of the
// state a plan holds.
func (w *DB) KnownDocuments(ctx context.Context, contents map[string]Extraction) (map[string]Known, error) {
	rows, err := w.sql.QueryContext(ctx, `select doc_id, coalesce(source_hash, ''), status, coalesce(error_kind, ''), coalesce(parent_doc_id, ''),
		source_name, rel_path, coalesce(stat_size, 0), coalesce(stat_mtime_ns, 0), coalesce(stat_inode, 0)::ubigint, coalesce(stat_ctime_ns, 0),
		coalesce(stat_taken_ns, 0) from raw.documents`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]Known{}
	in := interner{}
	for rows.Next() {
		var k Known
		st := &k.Stat
		if err := rows.Scan(&k.DocID, &k.Hash, &k.Status, &k.ErrorKind, &k.ParentDocID, &k.SourceName, &k.RelPath,
			&st.Size, &st.MTimeN, &st.Inode, &st.CTimeN, &st.TakenN); err != nil {
			return nil, err
		}
		k.Status, k.ErrorKind, k.SourceName = in.of(k.Status), in.of(k.ErrorKind), in.of(k.SourceName)
		if ex, ok := contents[k.Hash]; ok {
			k.Hash = ex.Hash
		}
		out[k.DocID] = k
	}
	return out, rows.Err()
}

// Extraction is a staging.extractions row.
type Extraction struct {
	Hash, Status, ErrorKind, ErrorMessage, Type string
	Version                                     string // extractor_version (see extract/version)
	Pages                                       int
	Attempts                                    int           // extractions of the content so far
	Duration                                    time.Duration // of the last one
	Flagged                                     bool          // it has a review reason (staging.reviews)
}

// Extractions returns staging.extractions keyed by source_hash.
func (w *DB) Extractions(ctx context.Context) (map[string]Extraction, error) {
	return w.extractions(ctx, "")
}

// interner keeps one copy of each value of a column with few distinct
// values (status, source, type, extractor version): the state of 200k
// documents held a copy per row of each.
type interner map[string]string

func (in interner) of(s string) string {
	if v, ok := in[s]; ok {
		return v
	}
	in[s] = s
	return s
}

// StatUpdate is a document whose file was read and found unchanged, with
// the stat to keep for the next load.
type StatUpdate struct {
	DocID string
	Stat  FileStat
}

// RecordStats stores the stats of unchanged files that were read (their
// stat moved, or it was too recent to trust), in one statement; the rest
// of their rows is left as it is.
func (w *DB) RecordStats(ctx context.Context, ups []StatUpdate) error {
	if len(ups) == 0 {
		return nil
	}
	c, err := w.sql.Conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	return recordStats(ctx, c, ups)
}

func recordStats(ctx context.Context, c *sql.Conn, ups []StatUpdate) error {
	if len(ups) == 0 {
		return nil
	}
	if _, err := c.ExecContext(ctx, `create or replace temp table restat (doc_id varchar, stat_size bigint, stat_mtime_ns bigint,
		stat_inode ubigint, stat_ctime_ns bigint, stat_taken_ns bigint)`); err != nil {
		return err
	}
	if err := withAppender(c, "temp", "restat", func(a *duckdb.Appender) error {
		for _, u := range ups {
			v := statValues(u.Stat)
			if err := a.AppendRow(u.DocID, v[0], v[1], v[2], v[3], v[4]); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return err
	}
	if _, err := c.ExecContext(ctx, `update raw.documents d set stat_size = r.stat_size, stat_mtime_ns = r.stat_mtime_ns, stat_inode = r.stat_inode,
		stat_ctime_ns = r.stat_ctime_ns, stat_taken_ns = r.stat_taken_ns from restat r where d.doc_id = r.doc_id`); err != nil {
		return fmt.Errorf("warehouse: record stats: %w", err)
	}
	_, err := c.ExecContext(ctx, `drop table restat`)
	return err
}

// MarkDeleted tombstones documents (and their attachments, recursively)
// in one transaction and returns how many were newly tombstoned.
func (w *DB) MarkDeleted(ctx context.Context, runID string, now time.Time, docIDs []string) (n int, err error) {
	if len(docIDs) == 0 {
		return 0, nil
	}
	if err := w.refuse(); err != nil {
		return 0, err
	}
	c, err := w.sql.Conn(ctx)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	err = w.landTx(ctx, c, nil, func() (err error) {
		n, err = markDeleted(ctx, c, runID, now, docIDs)
		return err
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}

// markDeleted tombstones documents and their descendants on c, inside the
// caller's transaction.
func markDeleted(ctx context.Context, c *sql.Conn, runID string, now time.Time, docIDs []string) (int, error) {
	if len(docIDs) == 0 {
		return 0, nil
	}
	if err := tempIDs(ctx, c, "gone_roots", docIDs); err != nil {
		return 0, err
	}
	stmts := []struct {
		q    string
		args []any
	}{
		{`create or replace temp table gone as
			with recursive tree(doc_id) as (
				select doc_id from gone_roots
				union select d.doc_id from raw.documents d join tree t on d.parent_doc_id = t.doc_id)
			select distinct d.doc_id from tree join raw.documents d using (doc_id) where d.status <> 'deleted'`, nil},
		{`insert into ops.document_events (run_id, doc_id, source_hash, event, status, event_at)
			select ?, doc_id, source_hash, 'deleted', 'deleted', ? from raw.documents where doc_id in (select doc_id from gone)`, []any{runID, now}},
		{`update raw.documents set status = 'deleted', last_run_id = ? where doc_id in (select doc_id from gone)`, []any{runID}},
	}
	for _, st := range stmts {
		if _, err := c.ExecContext(ctx, st.q, st.args...); err != nil {
			return 0, fmt.Errorf("warehouse: delete: %w", err)
		}
	}
	var n int
	if err := c.QueryRowContext(ctx, `select count(*) from gone`).Scan(&n); err != nil {
		return 0, err
	}
	_, err := c.ExecContext(ctx, `drop table gone; drop table gone_roots`)
	return n, err
}

// Attachments returns staging.attachments keyed by parent content hash.
func (w *DB) Attachments(ctx context.Context) (map[string][]AttachmentRef, error) {
	rows, err := w.sql.QueryContext(ctx, `select source_hash, seq, name, child_hash, coalesce(size_bytes, 0) from staging.attachments order by source_hash, seq`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]AttachmentRef{}
	for rows.Next() {
		var h string
		var a AttachmentRef
		if err := rows.Scan(&h, &a.Seq, &a.Name, &a.ChildHash, &a.Size); err != nil {
			return nil, err
		}
		out[h] = append(out[h], a)
	}
	return out, rows.Err()
}

// OCRContents lists contents with OCR'd or OCR-pending pages (for --reocr).
func (w *DB) OCRContents(ctx context.Context) (map[string]bool, error) {
	rows, err := w.sql.QueryContext(ctx, `select distinct source_hash from staging.pages where method = 'ocr' or needs_ocr`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			return nil, err
		}
		out[h] = true
	}
	return out, rows.Err()
}

// tempIDs fills a temporary one-column table (doc_id) with ids through the
// appender, for set-based statements over them.
func tempIDs(ctx context.Context, c *sql.Conn, table string, ids []string) error {
	if _, err := c.ExecContext(ctx, `create or replace temp table `+table+` (doc_id varchar)`); err != nil {
		return err
	}
	return withAppender(c, "temp", table, func(a *duckdb.Appender) error {
		for _, id := range ids {
			if err := a.AppendRow(id); err != nil {
				return err
			}
		}
		return nil
	})
}

// Skip is an entry of a source folder the load did not take as a document
// (a symlink, a FIFO or device, a path too long to open, a folder it could
// not read), recorded in ops.load_skips with why.
type Skip struct {
	SourceName, RelPath string
	RelPathBytes        []byte // when the path is not valid UTF-8
	Kind, Reason        string
}

// RecordSkips appends the run's skipped entries to ops.load_skips.
func (w *DB) RecordSkips(ctx context.Context, runID string, now time.Time, skips []Skip) error {
	if len(skips) == 0 {
		return nil
	}
	c, err := w.sql.Conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	return recordSkips(c, runID, now, skips)
}

func recordSkips(c *sql.Conn, runID string, now time.Time, skips []Skip) error {
	rows := make([]skipRow, len(skips))
	wr := &writer{runID: runID, now: now}
	for i := range skips {
		rows[i] = skipRow{&skips[i], wr}
	}
	return skipsTable.appendTo(c, "ops", "load_skips", rows)
}

// LaTeXSources are what a landed LaTeX document's extraction recorded of
// the files its \input/\include commands named (metadata extra
// latex_includes and latex_sources_sha256, see document.ExtraLaTeXIncludes).
type LaTeXSources struct {
	// Includes are the files, as slash paths relative to the document's
	// folder: empty when it named none, nil when its extraction did not
	// record them (landed before docket did).
	Includes []string
	// Digest is document.SourcesDigest of their bytes as read ("" when
	// not recorded: none named, or landed before docket recorded it).
	Digest string
}

// LaTeXIncludes returns, by doc_id, the LaTeXSources of each landed LaTeX
// document.
func (w *DB) LaTeXIncludes(ctx context.Context) (map[string]LaTeXSources, error) {
	rows, err := w.sql.QueryContext(ctx, `select d.doc_id, json_extract_string(d.metadata, '$.extra.`+document.ExtraLaTeXIncludes+`'),
		json_extract_string(d.metadata, '$.extra.`+document.ExtraLaTeXSources+`')
		from raw.documents d join staging.extractions e on e.source_hash = d.source_hash
		where d.status = 'landed' and e.detected_type = 'latex'`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]LaTeXSources{}
	for rows.Next() {
		var id string
		var inc, digest sql.NullString
		if err := rows.Scan(&id, &inc, &digest); err != nil {
			return nil, err
		}
		var src LaTeXSources
		if inc.Valid {
			src.Includes = document.SplitIncludes(inc.String)
		}
		src.Digest = digest.String
		out[id] = src
	}
	return out, rows.Err()
}

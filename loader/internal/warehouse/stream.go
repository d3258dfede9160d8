package warehouse

// What a streamed plan reads of the warehouse's state: the top-level
// documents of a source in batches, in the order a walk of the source
// lists their files (WalkKey), each with its content's extraction, and
// the few rows it looks up by key. A query's result is held whole by the
// driver (and built whole by DuckDB), so each query returns one batch:
// a no-op load of 200k documents read ~100 MB of maps and DuckDB built
// ~140 MB of results to read them in one go.

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// KnownContent is a known document with its content's extraction, as the
// warehouse had it (without Flagged: see flaggedCol).
type KnownContent struct {
	Known
	Content Extraction
	// Extracted: staging.extractions has a row for Known.Hash.
	Extracted bool
}

// WalkKey is the key that orders relative paths as a walk of their
// folder lists them (each folder's entries by name, a folder's files
// before its next sibling): the path with each '/' as 0x01, compared as
// bytes. A name holding 0x01 breaks it (see OddDocuments).
func WalkKey(rel string) string { return strings.ReplaceAll(rel, "/", "\x01") }

// docCols are the raw.documents columns a plan reads (a CTE that keeps
// every column sorts the metadata JSON of each document with it).
const docCols = `doc_id, source_hash, status, error_kind, parent_doc_id, source_name, rel_path, stat_size, stat_mtime_ns, stat_inode,
	stat_ctime_ns, stat_taken_ns`

const knownCols = `d.doc_id, coalesce(d.source_hash, ''), d.status, coalesce(d.error_kind, ''), coalesce(d.parent_doc_id, ''),
	d.source_name, d.rel_path, coalesce(d.stat_size, 0), coalesce(d.stat_mtime_ns, 0), coalesce(d.stat_inode, 0)::ubigint, coalesce(d.stat_ctime_ns, 0),
	coalesce(d.stat_taken_ns, 0)`

const extractionCols = `e.source_hash is not null, coalesce(e.status, ''), coalesce(e.error_kind,''), coalesce(e.error_message,''), coalesce(e.detected_type,''),
	coalesce(e.page_count,0), coalesce(e.attempts, 1), coalesce(e.duration_ms, 0), coalesce(e.extractor_version, '')`

// flaggedCol says whether a content has a review reason: the documents'
// batches leave it out (no decision depends on it, and each batch built
// a hash table of staging.reviews); the look-ups of one content for
// reuse need it.
const flaggedCol = `e.source_hash in (select source_hash from staging.reviews)`

// SourceDocuments returns up to n top-level documents of source whose
// WalkKey is greater than after, in WalkKey order, with their contents:
// one query, but one that reads all of the source's documents to find
// them (a plan pages with SourcePages instead).
func (w *DB) SourceDocuments(ctx context.Context, source, after string, n int) ([]KnownContent, error) {
	return w.knownContents(ctx, `with d as (select `+docCols+` from raw.documents where source_name = ? and coalesce(parent_doc_id, '') = ''
		and replace(rel_path, '/', chr(1)) > ? order by replace(rel_path, '/', chr(1)) limit ?)
		select `+knownCols+`, `+extractionCols+` from d left join staging.extractions e on e.source_hash = d.source_hash
		order by replace(d.rel_path, '/', chr(1))`, source, after, n)
}

// OtherDocuments returns up to n top-level documents of sources not
// among sources, with a doc_id greater than after, in doc_id order.
func (w *DB) OtherDocuments(ctx context.Context, sources []string, after string, n int) ([]KnownContent, error) {
	not, args := "", []any{}
	if len(sources) > 0 {
		not = "and source_name not in (" + strings.TrimSuffix(strings.Repeat("?, ", len(sources)), ", ") + ")"
		for _, s := range sources {
			args = append(args, s)
		}
	}
	args = append(args, after, n)
	return w.knownContents(ctx, `with d as (select `+docCols+` from raw.documents where coalesce(parent_doc_id, '') = '' `+not+`
		and doc_id > ? order by doc_id limit ?)
		select `+knownCols+`, `+extractionCols+` from d left join staging.extractions e on e.source_hash = d.source_hash
		order by d.doc_id`, args...)
}

// OddDocuments returns the top-level documents a walk order cannot find
// by their path: the path was not UTF-8 (rel_path shows it escaped, so
// the doc_id is not made from it) or it holds 0x01. They are few; a plan
// finds them by doc_id.
func (w *DB) OddDocuments(ctx context.Context) ([]KnownContent, error) {
	return w.knownContents(ctx, `with d as (select `+docCols+` from raw.documents where coalesce(parent_doc_id, '') = ''
		and (rel_path_bytes is not null or contains(rel_path, chr(1)) or sha256(source_name || '/' || rel_path) <> doc_id))
		select `+knownCols+`, `+extractionCols+` from d left join staging.extractions e on e.source_hash = d.source_hash`)
}

// AttachedDocuments returns the live attachments (and archive members)
// of known documents by doc_id: a plan checks a parent's descendants.
func (w *DB) AttachedDocuments(ctx context.Context) (map[string]Known, error) {
	rows, err := w.knownContents(ctx, `with d as (select `+docCols+` from raw.documents where coalesce(parent_doc_id, '') <> '' and status <> 'deleted')
		select `+knownCols+`, `+extractionCols+` from d left join staging.extractions e on e.source_hash = d.source_hash`)
	if err != nil {
		return nil, err
	}
	out := make(map[string]Known, len(rows))
	for _, r := range rows {
		out[r.DocID] = r.Known
	}
	return out, nil
}

// FamilyExtractions returns the extractions of the contents that have
// attachments, of the attachments' contents and of the live attached
// documents' contents, by source_hash.
func (w *DB) FamilyExtractions(ctx context.Context) (map[string]Extraction, error) {
	return w.extractions(ctx, `where e.source_hash in (select source_hash from staging.attachments union all select child_hash from staging.attachments
		union all select source_hash from raw.documents where coalesce(parent_doc_id, '') <> '' and status <> 'deleted')`)
}

// ExtractorVersions returns the extractor versions of landed contents.
func (w *DB) ExtractorVersions(ctx context.Context) ([]string, error) {
	return queryStrings(ctx, w.sql, `select distinct extractor_version from staging.extractions where status = 'landed' order by 1`)
}

// LandedWithVersions returns the landed contents made by one of the
// extractor versions, by source_hash.
func (w *DB) LandedWithVersions(ctx context.Context, versions []string) (map[string]Extraction, error) {
	if len(versions) == 0 {
		return map[string]Extraction{}, nil
	}
	args := make([]any, len(versions))
	for i, v := range versions {
		args[i] = v
	}
	return w.extractions(ctx, `where e.status = 'landed' and e.extractor_version in (`+strings.TrimSuffix(strings.Repeat("?, ", len(versions)), ", ")+`)`, args...)
}

// ExtractionOf returns the extraction of one content.
func (w *DB) ExtractionOf(ctx context.Context, hash string) (Extraction, bool, error) {
	m, err := w.extractions(ctx, `where e.source_hash = ?`, hash)
	ex, ok := m[hash]
	return ex, ok, err
}

// HasState reports whether the warehouse has a document or an extraction.
func (w *DB) HasState(ctx context.Context) (bool, error) {
	var n int
	err := w.sql.QueryRowContext(ctx, `select (select count(*) from (select 1 from raw.documents limit 1)) + (select count(*) from (select 1 from staging.extractions limit 1))`).Scan(&n)
	return n > 0, err
}

func (w *DB) extractions(ctx context.Context, where string, args ...any) (map[string]Extraction, error) {
	rows, err := w.sql.QueryContext(ctx, `select `+extractionCols+`, `+flaggedCol+`, e.source_hash from staging.extractions e `+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]Extraction{}
	in := interner{}
	for rows.Next() {
		var e Extraction
		var ok bool
		var h string
		if err := scanExtraction(rows, &e, &ok, &h); err != nil {
			return nil, err
		}
		e.Hash = h
		e.Status, e.ErrorKind, e.Type, e.Version = in.of(e.Status), in.of(e.ErrorKind), in.of(e.Type), in.of(e.Version)
		out[h] = e
	}
	return out, rows.Err()
}

func scanExtraction(rows *sql.Rows, e *Extraction, ok *bool, more ...any) error {
	var ms int64
	dest := append([]any{ok, &e.Status, &e.ErrorKind, &e.ErrorMessage, &e.Type, &e.Pages, &e.Attempts, &ms, &e.Version, &e.Flagged}, more...) // flaggedCol
	if err := rows.Scan(dest...); err != nil {
		return err
	}
	e.Duration = time.Duration(ms) * time.Millisecond
	return nil
}

func (w *DB) knownContents(ctx context.Context, q string, args ...any) ([]KnownContent, error) {
	if w.profReads != nil {
		conn, err := w.sql.Conn(ctx)
		if err != nil {
			return nil, err
		}
		defer conn.Close()
		if _, err := conn.ExecContext(ctx, `pragma enable_profiling = 'no_output'`); err != nil {
			return nil, err
		}
		out, err := readKnownContents(conn.QueryContext(ctx, q, args...))
		if err == nil {
			err = profiled(conn, w.profReads)
		}
		return out, err
	}
	return readKnownContents(w.sql.QueryContext(ctx, q, args...))
}

func readKnownContents(rows *sql.Rows, err error) ([]KnownContent, error) {
	if err != nil {
		return nil, fmt.Errorf("warehouse: read documents: %w", err)
	}
	defer rows.Close()
	var out []KnownContent
	in := interner{}
	for rows.Next() {
		var r KnownContent
		k, st := &r.Known, &r.Known.Stat
		var ms int64
		e := &r.Content
		if err := rows.Scan(&k.DocID, &k.Hash, &k.Status, &k.ErrorKind, &k.ParentDocID, &k.SourceName, &k.RelPath,
			&st.Size, &st.MTimeN, &st.Inode, &st.CTimeN, &st.TakenN,
			&r.Extracted, &e.Status, &e.ErrorKind, &e.ErrorMessage, &e.Type, &e.Pages, &e.Attempts, &ms, &e.Version); err != nil {
			return nil, err
		}
		e.Duration = time.Duration(ms) * time.Millisecond
		k.Status, k.ErrorKind, k.SourceName = in.of(k.Status), in.of(k.ErrorKind), in.of(k.SourceName)
		e.Status, e.ErrorKind, e.Type, e.Version = in.of(e.Status), in.of(e.ErrorKind), in.of(e.Type), in.of(e.Version)
		if r.Extracted {
			e.Hash = k.Hash
		} else {
			r.Content = Extraction{}
		}
		out = append(out, r)
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	return out, rows.Err()
}

package warehouse

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/docket-dev/docket/loader/internal/document"
)

// DocRow is one raw.documents row.
type DocRow struct {
	DocID, SourceName, RelPath, URI string
	// RelPathBytes is the path's bytes when they are not valid UTF-8
	// (RelPath then shows them escaped, see EscapePath); nil otherwise.
	RelPathBytes                []byte
	Hash                        string
	Size                        int64
	DetectedType, ExtType, MIME string
	Mismatch                    bool
	Status                      string // landed | quarantined | deleted
	ErrorKind, ErrorMessage     string
	ParentDocID                 string
	Depth                       int
	Meta                        document.Metadata
	Warnings                    []string
	MTime                       time.Time
	// Stat is the file's stat when the load listed it (zero for
	// attachments): stored so that a later load can tell, without
	// reading it, that the file did not change.
	Stat FileStat
}

// FileStat is what a listing records of a file besides its path: what
// says, without reading it, whether it changed since.
type FileStat struct {
	Size   int64  `json:"size"`
	MTimeN int64  `json:"mtime_ns"` // modification time, ns since the epoch
	Inode  uint64 `json:"inode,omitempty"`
	CTimeN int64  `json:"ctime_ns,omitempty"` // inode change time, ns since the epoch
	// TakenN is when the listing that took the stat began (ns since the
	// epoch); 0: no stat.
	TakenN int64 `json:"taken_ns"`
}

// MTime is the modification time.
func (s FileStat) MTime() time.Time { return time.Unix(0, s.MTimeN) }

// Document statuses.
const (
	StatusLanded      = "landed"
	StatusQuarantined = "quarantined"
	StatusDeleted     = "deleted"
)

// Landing is one document to land: its manifest row, its event, and, when
// its content was extracted in this run, the extraction.
type Landing struct {
	Doc      DocRow
	Event    string           // new | changed | retried | reocr | quarantined
	Content  *document.Result // nil when the content was already landed or failed
	Duration time.Duration
	// Extracted says a worker ran on this content in this run: its result
	// (Content) or its failure (Doc.ErrorKind) is the verdict on the bytes
	// and replaces staging rows of the hash. File-level quarantines (empty,
	// too large, unreadable) and reused contents are not.
	Extracted bool
	// Attachments of the content (when Extracted and it has any).
	Attachments []AttachmentRef
	// Flagged: its content has a review reason (extracted in this run or
	// before), which the load's summary counts.
	Flagged bool
	// EventOnly records the event (a file that vanished or kept changing
	// during the load) without touching the document's row: the next
	// load decides about the file.
	EventOnly bool
	// Fresh: the warehouse has no row of this document and no staging
	// rows of its content (the load started on a warehouse without
	// documents or extractions, and has not landed this document or
	// content before). Land then does not look them up: a batch of fresh
	// landings skips the per-batch lookups of what the warehouse has.
	Fresh bool
}

// AttachmentRef records that a content carries an attachment, so a later
// document with the same bytes gets the same children without re-reading.
type AttachmentRef struct {
	Seq       int
	Name      string
	ChildHash string
	Size      int64
}

// Land writes a batch of documents in one transaction: manifest rows,
// versions, events, and the staging rows of contents extracted in this run.
// Either all of the batch is visible afterwards or none of it.
//
// deleted are documents (attachments a changed parent no longer has) to
// tombstone in the same transaction.
func (w *DB) Land(ctx context.Context, runID string, now time.Time, batch []Landing, deleted []string) (err error) {
	if len(batch) == 0 && len(deleted) == 0 {
		return nil
	}
	if err := w.refuse(); err != nil {
		return err
	}
	c, err := w.sql.Conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	if err = w.begin(ctx, c); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			c.ExecContext(context.Background(), "rollback")
			if !IsCommitError(err) && fatal(err) {
				err = w.fail(err) // invalidated: nothing more is written
			}
		}
	}()
	// Staging rows first: replace whatever an earlier extraction of the
	// same content left (re-OCR, retry of a quarantined content).
	contents := extractedContents(batch)
	if len(contents) > 0 {
		hashes := make([]string, len(contents))
		for i, l := range contents {
			hashes[i] = l.Doc.Hash
		}
		attempts := map[string]int{} // none before, when all are fresh
		if !allFresh(contents) {
			var cerr error
			if attempts, cerr = clearContents(ctx, c, hashes); cerr != nil {
				return cerr
			}
		}
		if err = appendContents(c, &writer{runID: runID, now: now, attempts: attempts}, contents); err != nil {
			return err
		}
	}
	var docs []Landing
	for _, l := range batch {
		if !l.EventOnly {
			docs = append(docs, l)
		}
	}
	if err = upsertDocs(ctx, c, runID, now, docs); err != nil {
		return err
	}
	if err = appendEvents(c, &writer{runID: runID, now: now}, batch); err != nil {
		return err
	}
	if _, err = markDeleted(ctx, c, runID, now, deleted); err != nil {
		return err
	}
	if Hooks.Statement != nil {
		if err = Hooks.Statement(batch); err != nil {
			return err
		}
	}
	err = w.commit(ctx, c, batch)
	return err
}

// contentTables are the staging tables holding a content's rows.
var contentTables = []decl{extractionsTable, attachmentsTable, pagesTable, reviewsTable, elementsTable, tablesTable, wordsTable}

// clearContents removes the staging rows an earlier extraction of these
// contents left (re-OCR, retry of a quarantined content) and returns the
// extractions each had so far.
func clearContents(ctx context.Context, c *sql.Conn, hashes []string) (map[string]int, error) {
	quoted := make([]string, len(hashes))
	for i, h := range hashes {
		quoted[i] = "'" + strings.ReplaceAll(h, "'", "''") + "'"
	}
	in := strings.Join(quoted, ",")
	// Only contents landed before (re-OCR, retries) have rows to clear;
	// one lookup saves six deletes for the usual, new contents.
	var landedBefore int
	if err := c.QueryRowContext(ctx, fmt.Sprintf("select count(*) from staging.extractions where source_hash in (%s)", in)).Scan(&landedBefore); err != nil {
		return nil, fmt.Errorf("warehouse: look up extractions: %w", err)
	}
	attempts := map[string]int{}
	if landedBefore == 0 {
		return attempts, nil
	}
	rows, err := c.QueryContext(ctx, fmt.Sprintf("select source_hash, coalesce(attempts, 1) from staging.extractions where source_hash in (%s)", in))
	if err != nil {
		return nil, fmt.Errorf("warehouse: look up attempts: %w", err)
	}
	for rows.Next() {
		var h string
		var n int
		rows.Scan(&h, &n)
		attempts[h] = n
	}
	rows.Close()
	for _, t := range contentTables {
		if _, err := c.ExecContext(ctx, fmt.Sprintf("delete from %s where source_hash in (%s)", t.qualified(), in)); err != nil {
			return nil, fmt.Errorf("warehouse: clear %s: %w", t.qualified(), err)
		}
	}
	return attempts, nil
}

// docColumns are raw.documents' columns as landed from a batch (those
// with a value from the landing, in declared order).
var docColumns = columnList(documentsTable.rowCols())

// upsertDocs lands the batch's manifest rows and versions with a few
// set-based statements: the rows go to a temporary table through the
// appender, then a few statements merge them (a statement per row cost
// about 5 ms per document).
func upsertDocs(ctx context.Context, c *sql.Conn, runID string, now time.Time, batch []Landing) error {
	if id, ok := namedTwice(batch); ok {
		return twiceError([]string{id})
	}
	if err := stageDocs(ctx, c, "temp", "land_docs", batch); err != nil {
		return err
	}
	known := landFacts{fresh: allFresh(batch), reused: 0, unique: true}
	for i := range batch {
		if batch[i].Reused() {
			known.reused = 1 // as appendDocs marks it
			break
		}
	}
	return mergeDocs(ctx, c, runID, now, known)
}

// namedTwice returns a doc_id the batch names more than once (the first
// whose second row is met, in batch order), if any.
func namedTwice(batch []Landing) (string, bool) {
	seen := make(map[string]struct{}, len(batch))
	for i := range batch {
		id := batch[i].Doc.DocID
		if _, ok := seen[id]; ok {
			return id, true
		}
		seen[id] = struct{}{}
	}
	return "", false
}

// twiceError refuses a batch that names a document (id) more than once.
func twiceError(id []string) error {
	return fmt.Errorf("warehouse: land documents: the batch names document %v more than once", id)
}

// allFresh: every landing is Fresh (the warehouse has none of them).
func allFresh(ls []Landing) bool {
	for i := range ls {
		if !ls[i].Fresh {
			return false
		}
	}
	return true
}

// landFacts is what mergeDocs' caller knows of temp.land_docs without
// asking the warehouse.
type landFacts struct {
	// fresh: raw.documents has none of land_docs' doc_ids.
	fresh bool
	// reused: 1 when a row of land_docs is reused, 0 when none is, -1
	// when not known (counted).
	reused int
	// unique: land_docs names each doc_id once (checked in Go, see
	// namedTwice); otherwise mergeDocs counts them (a count(distinct)
	// and its hash table per batch, ~1 % of a load's main process).
	unique bool
}

// stageDocs creates schema.name (a batch of raw.documents rows, metadata
// as text, and whether the row reuses a content landed before) and fills
// it with batch.
func stageDocs(ctx context.Context, c *sql.Conn, schema, name string, batch []Landing) error {
	if err := createDocBatch(ctx, c, schema, name); err != nil {
		return err
	}
	return appendDocs(c, schema, name, batch)
}

func createDocBatch(ctx context.Context, c *sql.Conn, schema, name string) error {
	if _, err := c.ExecContext(ctx, `create or replace `+map[bool]string{true: "temp ", false: ""}[schema == "temp"]+`table `+name+` as
		select `+strings.Replace(docColumns, "metadata,", "metadata::varchar as metadata,", 1)+`, false as reused from raw.documents limit 0`); err != nil {
		return fmt.Errorf("warehouse: stage documents: %w", err)
	}
	return nil
}

// Reused says the landing's content was landed before (same bytes as
// another document, this run or an earlier one): the document lands
// without content of its own, its facts taken from the content's rows.
func (l *Landing) Reused() bool {
	return l.Content == nil && l.Doc.Status == StatusLanded && l.Doc.Hash != ""
}

func appendDocs(c *sql.Conn, schema, name string, batch []Landing) error {
	rows := make([]docRow, len(batch))
	for i := range batch {
		rows[i] = docRow{&batch[i]}
	}
	reused := func(r docRow) any { return r.l.Reused() }
	return documentsTable.appendTo(c, schema, name, rows, reused)
}

// existingDocs lists, as SQL literals ("" for none), the doc_ids of
// temp.land_docs that raw.documents has (doc_ids are hex digests).
func existingDocs(ctx context.Context, c *sql.Conn) (string, error) {
	ids, err := queryStrings(ctx, c, `select doc_id from land_docs`)
	if err != nil || len(ids) == 0 {
		return "", err
	}
	for i, id := range ids {
		ids[i] = "'" + strings.ReplaceAll(id, "'", "''") + "'"
	}
	have, err := queryStrings(ctx, c, `select doc_id from raw.documents where doc_id in (`+strings.Join(ids, ",")+`)`)
	if err != nil || len(have) == 0 {
		return "", err
	}
	for i, id := range have {
		have[i] = "'" + strings.ReplaceAll(id, "'", "''") + "'"
	}
	return strings.Join(have, ","), nil
}

// querier is what queryStrings reads through: the database or one of
// its connections.
type querier interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

// queryStrings returns the one string column q selects, in its order.
func queryStrings(ctx context.Context, c querier, q string, args ...any) ([]string, error) {
	rows, err := c.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// mergeDocs merges temp.land_docs into raw.documents and
// raw.document_versions. The tables have no key (schema version 11: an
// ART index over random sha256 keys is memory a load cannot evict, ~110
// MiB at 200k documents, and an insert into it per row): one row per
// doc_id, and per (doc_id, source_hash), is kept here, by updating the
// rows the warehouse has and inserting the others. A batch naming a
// document twice is refused, as the key refused it.
func mergeDocs(ctx context.Context, c *sql.Conn, runID string, now time.Time, known landFacts) error {
	if !known.unique {
		var dups int
		if err := c.QueryRowContext(ctx, `select count(*) - count(distinct doc_id) from land_docs`).Scan(&dups); err != nil {
			return fmt.Errorf("warehouse: land documents: %w", err)
		}
		if dups > 0 {
			id, _ := queryStrings(ctx, c, `select doc_id from land_docs group by doc_id having count(*) > 1 limit 1`)
			return twiceError(id)
		}
	}
	set := []string{}
	for _, col := range strings.Split(docColumns, ",") {
		switch col = strings.TrimSpace(col); col {
		case "doc_id":
		case "metadata":
			set = append(set, col+" = l.metadata::json")
		default:
			set = append(set, col+" = l."+col)
		}
	}
	// Documents new to the warehouse are inserted plainly, the others
	// updated in place. Which ones the warehouse has is a scan of
	// raw.documents' doc_id column for the batch's ids (none when the
	// batch is fresh).
	existing := "" // none, when the batch is fresh
	if !known.fresh {
		var err error
		if existing, err = existingDocs(ctx, c); err != nil {
			return err
		}
	}
	// first_seen_at is the start of the run that first saw the document
	// (the batch's time when the run is not recorded), not the time its
	// batch landed: a text's representative is its first seen document's
	// chunk (curated.chunk_dup_index's ord: first_seen_at, then doc_id), and
	// with batch times two files of one run sharing a text were ranked by
	// which worker finished first, so two loads of the same folder picked
	// different representatives (192 search_chunks rows of make eval's
	// corpus). Within a run, doc_id decides.
	insert := `insert into raw.documents (` + docColumns + `, first_seen_at, last_seen_at, last_run_id)
			select ` + strings.Replace(docColumns, "metadata,", "metadata::json,", 1) + `,
			coalesce((select started_at from ops.load_runs where run_id = $2), $1), $1, $2 from land_docs`
	stmts := []string{insert}
	if existing != "" {
		stmts = []string{`update raw.documents d set ` + strings.Join(set, ", ") + `, last_seen_at = $1, last_run_id = $2
			from land_docs l where d.doc_id = l.doc_id and l.doc_id in (` + existing + `)`,
			insert + ` where doc_id not in (` + existing + `)`}
	}
	// Content reused (same bytes as another document, or as an earlier
	// version of this one): its metadata comes from its extraction. The
	// join reads staging.extractions whole: only when the batch has one.
	reused := known.reused
	if reused < 0 {
		if err := c.QueryRowContext(ctx, `select count(*) from land_docs where reused`).Scan(&reused); err != nil {
			return fmt.Errorf("warehouse: land documents: %w", err)
		}
	}
	if reused > 0 {
		stmts = append(stmts, `update raw.documents d set title = json_extract_string(m.metadata, '$.title'), author = json_extract_string(m.metadata, '$.author'),
			created_at_doc = json_extract_string(m.metadata, '$.created'), modified_at_doc = json_extract_string(m.metadata, '$.modified'),
			language_hint = json_extract_string(m.metadata, '$.language'), page_count = (json_extract_string(m.metadata, '$.page_count'))::integer,
			metadata = m.metadata::json, mime_type = coalesce(m.mime_type, d.mime_type), warnings = m.warnings
			from land_docs l, staging.extractions m
			where l.reused and d.doc_id = l.doc_id and m.source_hash = l.source_hash and m.status = 'landed'`)
	}
	// Versions: a document new to the warehouse has none yet (tombstones
	// stay in raw.documents), so its version is inserted plainly; a
	// document the warehouse has gets its version's last sighting
	// updated, or a new version.
	versions := `insert into raw.document_versions
			select doc_id, source_hash, $1, $2, $1, $2, size_bytes from land_docs l where source_hash is not null and status <> 'deleted'`
	if existing == "" {
		stmts = append(stmts, versions)
	} else {
		stmts = append(stmts, versions+` and doc_id not in (`+existing+`)`,
			`update raw.document_versions v set last_seen_at = $1, last_run_id = $2
			from land_docs l where l.doc_id in (`+existing+`) and l.source_hash is not null and l.status <> 'deleted'
			and v.doc_id = l.doc_id and v.source_hash = l.source_hash`,
			versions+` and doc_id in (`+existing+`)
			and not exists (select 1 from raw.document_versions v where v.doc_id = l.doc_id and v.source_hash = l.source_hash)`)
	}
	stmts = append(stmts, `drop table land_docs`)
	for _, q := range stmts {
		args := []any{}
		if strings.Contains(q, "$1") {
			args = []any{now, runID}
		}
		if _, err := c.ExecContext(ctx, q, args...); err != nil {
			return fmt.Errorf("warehouse: land documents: %w", err)
		}
	}
	return nil
}

func nullInt32(n int) any {
	if n == 0 {
		return nil
	}
	return int32(n)
}

func nullBytes(b []byte) any {
	if b == nil {
		return nil
	}
	return b
}

func nullStr(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func withAppender(c *sql.Conn, schema, table string, fn func(a *duckdb.Appender) error) error {
	catalog := ""
	if schema == "temp" {
		catalog, schema = "temp", "main"
	}
	return c.Raw(func(dc any) error {
		a, err := duckdb.NewAppender(dc.(driver.Conn), catalog, schema, table)
		if err != nil {
			return fmt.Errorf("warehouse: appender %s.%s: %w", schema, table, err)
		}
		if err := fn(a); err != nil {
			a.Close()
			return fmt.Errorf("warehouse: append %s.%s: %w", schema, table, err)
		}
		if err := a.Close(); err != nil {
			return fmt.Errorf("warehouse: append %s.%s: %w", schema, table, err)
		}
		return nil
	})
}

// TableID is sha256(source_hash, 'table', seq) in hex.
func TableID(hash string, seq int) string { return hashHex(hash, "table", fmt.Sprint(seq)) }

func hashHex(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// appendContents lands the contents extracted in this run; w.attempts
// are the extractions each content had before.
func appendContents(c *sql.Conn, w *writer, contents []Landing) error {
	return appendContentRows(c, w, contents, decl.parts)
}

// appendContentRows appends the staging rows of contents, each table to
// where(table) (schema, name): the staging tables themselves, or a
// shard's scratch copies of them.
func appendContentRows(c *sql.Conn, w *writer, contents []Landing, where func(decl) (string, string)) error {
	var ex []contentRow
	var at []attachRow
	var pg []pageRow
	var rv []reviewRow
	var el []elementRow
	var tb []tableRow
	var wd []wordRow
	for i := range contents {
		l := &contents[i]
		ex = append(ex, contentRow{l, w})
		for j := range l.Attachments {
			at = append(at, attachRow{l, &l.Attachments[j]})
		}
		r := l.Content
		if r == nil {
			continue
		}
		for j := range r.Pages {
			pg = append(pg, pageRow{l, w, &r.Pages[j]})
		}
		for _, v := range r.AllReviews() {
			rv = append(rv, reviewRow{l, v})
		}
		for j := range r.Elements {
			el = append(el, elementRow{l, &r.Elements[j]})
		}
		for j := range r.Tables {
			t := &r.Tables[j]
			ncols := len(t.Header)
			for _, row := range t.Rows {
				ncols = max(ncols, len(row))
			}
			tb = append(tb, tableRow{l, t, ncols})
		}
		for j := range r.Words {
			wd = append(wd, wordRow{l, &r.Words[j]})
		}
	}
	for _, step := range []func() error{
		func() error { s, n := where(extractionsTable); return extractionsTable.appendTo(c, s, n, ex) },
		func() error { s, n := where(attachmentsTable); return attachmentsTable.appendTo(c, s, n, at) },
		func() error { s, n := where(pagesTable); return pagesTable.appendTo(c, s, n, pg) },
		func() error { s, n := where(reviewsTable); return reviewsTable.appendTo(c, s, n, rv) },
		func() error { s, n := where(elementsTable); return elementsTable.appendTo(c, s, n, el) },
		func() error { s, n := where(tablesTable); return tablesTable.appendTo(c, s, n, tb) },
		func() error { s, n := where(wordsTable); return wordsTable.appendTo(c, s, n, wd) },
	} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

func appendEvents(c *sql.Conn, w *writer, batch []Landing) error {
	return appendEventRows(c, w, batch, "ops", "document_events")
}

func appendEventRows(c *sql.Conn, w *writer, batch []Landing, schema, name string) error {
	rows := make([]eventRow, len(batch))
	for i := range batch {
		rows[i] = eventRow{&batch[i], w, statsOf(&batch[i])}
	}
	return eventsTable.appendTo(c, schema, name, rows)
}

// statValues are a stat's columns (null when there is no stat).
func statValues(s FileStat) [5]any {
	if s.TakenN == 0 {
		return [5]any{}
	}
	return [5]any{s.Size, s.MTimeN, s.Inode, s.CTimeN, s.TakenN}
}

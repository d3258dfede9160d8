package warehouse

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/docket-dev/docket/loader/internal/document"
)

// The loader's landed tables (DESIGN §3), each declared once: the list of
// columns generates the DDL, the appender's rows and the columns of a
// shard's Parquet files. A change of shape is a numbered migration too
// (migrate.go); TestFreshEqualsMigrated checks that both agree.
//
// Keys are declared as PRIMARY KEYs only on the small ops tables. The
// tables that grow with the corpus (raw.documents, raw.document_versions,
// staging.pages, extractions, tables, attachments: v11Unkeyed) lost
// theirs in schema version 11, as staging.elements and staging.ocr_words
// had before: an ART index over random sha256 keys is memory DuckDB
// cannot evict until a checkpoint writes it (~30 MiB at 50k documents,
// ~110 MiB of a 200k load's 160 MiB), and the checkpoint that writes it
// ramps the load's memory at its end (a first 200k load: ~480 MiB against
// ~380 without; keys25), besides an index insert per landed row
// (appending 43k elements with one cost ~0.5 s of a 2.8 s corpus load in
// schema version 1). The loader keeps the keys unique: it replaces a
// content's rows as a whole (clearContents), and merges a document's row
// and versions by updating what the warehouse has and inserting the rest
// (mergeDocs). DuplicateKeys and the source tests in models/sources.yml
// (`docket test -s "source_unique*"`) check it.

// writer is what the single writer adds to the rows it lands: the
// landing time and, per content, the extractions it had before.
type writer struct {
	runID    string
	now      time.Time
	attempts map[string]int
}

// Row types of the appended tables.
type (
	docRow   struct{ l *Landing }
	eventRow struct {
		l  *Landing
		w  *writer
		st eventStats
	}
	contentRow struct {
		l *Landing
		w *writer
	}
	attachRow struct {
		l *Landing
		a *AttachmentRef
	}
	pageRow struct {
		l *Landing
		w *writer
		p *document.Page
	}
	reviewRow struct {
		l *Landing
		v document.Review
	}
	elementRow struct {
		l *Landing
		e *document.Element
	}
	tableRow struct {
		l     *Landing
		t     *document.Table
		ncols int
	}
	wordRow struct {
		l  *Landing
		wd *document.OCRWord
	}
	skipRow struct {
		s *Skip
		w *writer
	}
	sqlRow struct{} // tables written by SQL statements only
)

var documentsTable = &table[docRow]{schema: "raw", name: "documents", cols: []col[docRow]{
	// sha256(source name || '/' || relative path); attachments: sha256(parent doc_id || '#' || index || '/' || name)
	{"doc_id", "varchar", "not null", func(r docRow) any { return r.l.Doc.DocID }},
	{"source_name", "varchar", "not null", func(r docRow) any { return r.l.Doc.SourceName }},
	// path relative to the source folder (attachments: parent path + '#' + name); bytes that are not UTF-8 shown as \xNN
	{"rel_path", "varchar", "not null", func(r docRow) any { return r.l.Doc.RelPath }},
	// file:// URI of the absolute path (attachments: parent URI + '#' + name)
	{"source_uri", "varchar", "not null", func(r docRow) any { return r.l.Doc.URI }},
	{"source_hash", "varchar", "", func(r docRow) any { return nullStr(r.l.Doc.Hash) }}, // sha256 of the current bytes
	{"size_bytes", "bigint", "", func(r docRow) any { return r.l.Doc.Size }},
	{"detected_type", "varchar", "", func(r docRow) any { return nullStr(r.l.Doc.DetectedType) }}, // from magic bytes / container contents
	{"extension_type", "varchar", "", func(r docRow) any { return nullStr(r.l.Doc.ExtType) }},     // what the extension says
	{"type_mismatch", "boolean", "", func(r docRow) any { return r.l.Doc.Mismatch }},
	{"mime_type", "varchar", "", func(r docRow) any { return nullStr(r.l.Doc.MIME) }},
	{"status", "varchar", "not null", func(r docRow) any { return r.l.Doc.Status }}, // landed | quarantined | deleted
	{"error_kind", "varchar", "", func(r docRow) any { return nullStr(r.l.Doc.ErrorKind) }},
	{"error_message", "varchar", "", func(r docRow) any { return nullStr(r.l.Doc.ErrorMessage) }},
	{"parent_doc_id", "varchar", "", func(r docRow) any { return nullStr(r.l.Doc.ParentDocID) }},
	{"depth", "integer", "not null default 0", func(r docRow) any { return int32(r.l.Doc.Depth) }},
	{"title", "varchar", "", func(r docRow) any { return nullStr(r.l.Doc.Meta.Title) }},
	{"author", "varchar", "", func(r docRow) any { return nullStr(r.l.Doc.Meta.Author) }},
	{"created_at_doc", "varchar", "", func(r docRow) any { return nullStr(r.l.Doc.Meta.Created) }},
	{"modified_at_doc", "varchar", "", func(r docRow) any { return nullStr(r.l.Doc.Meta.Modified) }},
	{"language_hint", "varchar", "", func(r docRow) any { return nullStr(r.l.Doc.Meta.Language) }},
	{"page_count", "integer", "", func(r docRow) any { return nullInt32(r.l.Doc.Meta.PageCount) }},
	// JSON; staged as text (the appender takes no JSON)
	{"metadata", "json", "", func(r docRow) any { b, _ := json.Marshal(r.l.Doc.Meta); return string(b) }},
	{"warnings", "varchar[]", "", func(r docRow) any { return anyList(r.l.Doc.Warnings) }},
	{"first_seen_at", "timestamp", "not null", nil},
	{"last_seen_at", "timestamp", "not null", nil},
	{"last_run_id", "varchar", "not null", nil},
	{"mtime", "timestamp", "", func(r docRow) any {
		if r.l.Doc.MTime.IsZero() {
			return nil
		}
		return r.l.Doc.MTime
	}},
	// the path's bytes when they are not valid UTF-8 (rel_path shows them escaped)
	{"rel_path_bytes", "blob", "", func(r docRow) any { return nullBytes(r.l.Doc.RelPathBytes) }},
	// The file's stat as the load that last read it saw it (schema version
	// 7): size, mtime and ctime in ns since the epoch, inode, and when
	// that load's listing began. A later load compares a file's stat with
	// these instead of reading it (loader.StatClean has the rules); null
	// for attachments.
	{"stat_size", "bigint", "", func(r docRow) any { return statValues(r.l.Doc.Stat)[0] }},
	{"stat_mtime_ns", "bigint", "", func(r docRow) any { return statValues(r.l.Doc.Stat)[1] }},
	{"stat_inode", "ubigint", "", func(r docRow) any { return statValues(r.l.Doc.Stat)[2] }},
	{"stat_ctime_ns", "bigint", "", func(r docRow) any { return statValues(r.l.Doc.Stat)[3] }},
	{"stat_taken_ns", "bigint", "", func(r docRow) any { return statValues(r.l.Doc.Stat)[4] }},
}}

var versionsTable = &table[sqlRow]{schema: "raw", name: "document_versions", cols: []col[sqlRow]{
	{"doc_id", "varchar", "not null", nil},
	{"source_hash", "varchar", "not null", nil},
	{"first_seen_at", "timestamp", "not null", nil},
	{"first_run_id", "varchar", "not null", nil},
	{"last_seen_at", "timestamp", "not null", nil},
	{"last_run_id", "varchar", "not null", nil},
	{"size_bytes", "bigint", "", nil},
}}

var pagesTable = &table[pageRow]{schema: "staging", name: "pages", cols: []col[pageRow]{
	{"source_hash", "varchar", "not null", func(r pageRow) any { return r.l.Doc.Hash }},
	{"page_number", "integer", "not null", func(r pageRow) any { return int32(r.p.Number) }},
	{"text", "varchar", "not null", func(r pageRow) any { return r.p.Text }},
	{"char_count", "integer", "not null", func(r pageRow) any { return int32(len([]rune(r.p.Text))) }}, // code points in text
	{"width", "double", "", func(r pageRow) any { return r.p.Width }},
	{"height", "double", "", func(r pageRow) any { return r.p.Height }},
	{"method", "varchar", "not null", func(r pageRow) any { return r.p.Method }}, // text_layer | ocr | native | none
	{"needs_ocr", "boolean", "not null", func(r pageRow) any { return r.p.NeedsOCR }},
	// PDF pages: real characters the text layer had (why a page was or was not OCR'd)
	{"text_layer_chars", "integer", "", func(r pageRow) any {
		if r.l.Doc.DetectedType != "pdf" {
			return nil
		}
		return int32(r.p.CharCount)
	}},
	// PDF pages: glyphs without a Unicode mapping (U+FFFD)
	{"text_layer_unmapped", "integer", "", func(r pageRow) any {
		if r.l.Doc.DetectedType != "pdf" {
			return nil
		}
		return int32(r.p.UnmappedChars)
	}},
	{"ocr_confidence", "double", "", func(r pageRow) any {
		if r.p.Method != document.MethodOCR {
			return nil
		}
		return r.p.OCRConfidence
	}},
	{"review_reason", "varchar", "", func(r pageRow) any { return nullStr(r.p.ReviewReason) }},
	{"extractor_version", "varchar", "not null", func(r pageRow) any { return r.l.Content.ExtractorVersion }},
	{"extracted_at", "timestamp", "not null", func(r pageRow) any { return r.w.now }},
	// PDF pages: characters (spaces left out) the page's clip hid, left
	// out of text (since schema version 12; null on pages landed before)
	{"text_layer_clipped", "integer", "", func(r pageRow) any {
		if r.l.Doc.DetectedType != "pdf" {
			return nil
		}
		return int32(r.p.ClippedChars)
	}},
}}

// elementIDExpr is sha256(source_hash, 'element', seq) in hex as hashHex
// builds it (each part followed by a NUL), the ids the loader stored
// before schema version 3.
const elementIDExpr = `sha256(source_hash || chr(0) || 'element' || chr(0) || seq::varchar || chr(0))`

var elementsTable = &table[elementRow]{schema: "staging", name: "elements", cols: []col[elementRow]{
	// sha256(source_hash, 'element', seq), computed by the loader in Go
	// (hashHex, SHA-NI) and stored (schema version 13). As a virtual
	// generated column (versions 3-12) it cost no storage, but DuckDB
	// computed it at every append, to check that it could, with its own
	// SHA-256 (no SHA-NI: ~20k instructions an element, a fifth of a
	// first PDF load's main process), and threw it away. The table stays
	// a table (projects `docket init` scaffolded read it by rowid).
	{"element_id", "varchar", "", func(r elementRow) any { return hashHex(r.l.Doc.Hash, "element", strconv.Itoa(r.e.Seq)) }},
	{"source_hash", "varchar", "not null", func(r elementRow) any { return r.l.Doc.Hash }},
	{"seq", "integer", "not null", func(r elementRow) any { return int32(r.e.Seq) }}, // reading order within the content
	{"page_number", "integer", "not null", func(r elementRow) any { return int32(r.e.Page) }},
	{"category", "varchar", "not null", func(r elementRow) any { return string(r.e.Category) }},
	{"text", "varchar", "not null", func(r elementRow) any { return r.e.Text }},
	{"x0", "double", "", func(r elementRow) any { return r.e.BBox.X0 }},
	{"y0", "double", "", func(r elementRow) any { return r.e.BBox.Y0 }},
	{"x1", "double", "", func(r elementRow) any { return r.e.BBox.X1 }},
	{"y1", "double", "", func(r elementRow) any { return r.e.BBox.Y1 }},
	// 0-based code point offsets into staging.pages.text
	{"char_start", "integer", "not null", func(r elementRow) any { return int32(r.e.CharStart) }},
	{"char_end", "integer", "not null", func(r elementRow) any { return int32(r.e.CharEnd) }},
	{"level", "integer", "", func(r elementRow) any { return nullInt32(r.e.Level) }},
	{"section", "varchar", "", func(r elementRow) any { return nullStr(r.e.Section) }},
	{"table_seq", "integer", "", func(r elementRow) any {
		if r.e.Category != document.TableCat || r.e.TableSeq < 0 {
			return nil
		}
		return int32(r.e.TableSeq)
	}},
}}

const spansType = "struct(row_index integer, col_index integer, n_rows integer, n_cols integer)[]"

var tablesTable = &table[tableRow]{schema: "staging", name: "tables", cols: []col[tableRow]{
	{"table_id", "varchar", "not null", func(r tableRow) any { return TableID(r.l.Doc.Hash, r.t.Seq) }}, // sha256(source_hash, 'table', seq)
	{"source_hash", "varchar", "not null", func(r tableRow) any { return r.l.Doc.Hash }},
	{"table_seq", "integer", "not null", func(r tableRow) any { return int32(r.t.Seq) }},
	{"page_number", "integer", "not null", func(r tableRow) any { return int32(r.t.Page) }},
	{"x0", "double", "", func(r tableRow) any { return r.t.BBox.X0 }},
	{"y0", "double", "", func(r tableRow) any { return r.t.BBox.Y0 }},
	{"x1", "double", "", func(r tableRow) any { return r.t.BBox.X1 }},
	{"y1", "double", "", func(r tableRow) any { return r.t.BBox.Y1 }},
	{"header", "varchar[]", "", func(r tableRow) any { return anyList(r.t.Header) }},
	{"cells", "varchar[][]", "", func(r tableRow) any {
		cells := make([]any, len(r.t.Rows))
		for i, row := range r.t.Rows {
			cells[i] = anyList(row)
		}
		return cells
	}},
	{"n_rows", "integer", "", func(r tableRow) any { return int32(len(r.t.Rows)) }},
	{"n_cols", "integer", "", func(r tableRow) any { return int32(r.ncols) }},
	// cells covering more than one grid position; row_index 0 is the header row when there is one
	{"spans", spansType, "", func(r tableRow) any {
		spans := make([]any, len(r.t.Spans))
		for i, s := range r.t.Spans {
			spans[i] = map[string]any{"row_index": int32(s.Row), "col_index": int32(s.Col), "n_rows": int32(s.Rows), "n_cols": int32(s.Cols)}
		}
		return spans
	}},
	// a part of a table broken across pages: the table_id of the part it
	// carries on (the document's previous table, ending the page before);
	// null for a table that starts on its page (schema version 9)
	{"continues_table_id", "varchar", "", func(r tableRow) any {
		if !r.t.Continues || r.t.Seq == 0 {
			return nil
		}
		return TableID(r.l.Doc.Hash, r.t.Seq-1)
	}},
}}

var wordsTable = &table[wordRow]{schema: "staging", name: "ocr_words", cols: []col[wordRow]{
	{"source_hash", "varchar", "not null", func(r wordRow) any { return r.l.Doc.Hash }},
	{"page_number", "integer", "not null", func(r wordRow) any { return int32(r.wd.Page) }},
	{"seq", "integer", "not null", func(r wordRow) any { return int32(r.wd.Seq) }},
	{"text", "varchar", "not null", func(r wordRow) any { return r.wd.Text }},
	{"x0", "double", "", func(r wordRow) any { return r.wd.BBox.X0 }},
	{"y0", "double", "", func(r wordRow) any { return r.wd.BBox.Y0 }},
	{"x1", "double", "", func(r wordRow) any { return r.wd.BBox.X1 }},
	{"y1", "double", "", func(r wordRow) any { return r.wd.BBox.Y1 }},
	{"confidence", "double", "", func(r wordRow) any { return r.wd.Confidence }},
	{"block_num", "integer", "", func(r wordRow) any { return int32(r.wd.Block) }},
	{"par_num", "integer", "", func(r wordRow) any { return int32(r.wd.Paragraph) }},
	{"line_num", "integer", "", func(r wordRow) any { return int32(r.wd.Line) }},
}}

var extractionsTable = &table[contentRow]{schema: "staging", name: "extractions", cols: []col[contentRow]{
	{"source_hash", "varchar", "not null", func(r contentRow) any { return r.l.Doc.Hash }}, // one row per distinct content extracted
	{"detected_type", "varchar", "", func(r contentRow) any { return nullStr(r.l.Doc.DetectedType) }},
	{"extractor_version", "varchar", "not null", func(r contentRow) any {
		if r.l.Content == nil {
			return ""
		}
		return r.l.Content.ExtractorVersion
	}},
	{"page_count", "integer", "", func(r contentRow) any {
		if r.l.Content == nil {
			return nil
		}
		return int32(len(r.l.Content.Pages))
	}},
	{"status", "varchar", "not null", func(r contentRow) any { // landed | quarantined
		if r.l.Content == nil {
			return StatusQuarantined
		}
		return StatusLanded
	}},
	{"error_kind", "varchar", "", func(r contentRow) any {
		if r.l.Content != nil {
			return nil
		}
		return r.l.Doc.ErrorKind
	}},
	{"error_message", "varchar", "", func(r contentRow) any {
		if r.l.Content != nil {
			return nil
		}
		return r.l.Doc.ErrorMessage
	}},
	{"duration_ms", "bigint", "", func(r contentRow) any { return r.l.Duration.Milliseconds() }},
	{"extracted_at", "timestamp", "not null", func(r contentRow) any { return r.w.now }},
	{"mime_type", "varchar", "", func(r contentRow) any {
		if r.l.Content == nil {
			return nil
		}
		return nullStr(r.l.Content.MIME)
	}},
	// JSON text: the content's own metadata, copied to every document with these bytes
	{"metadata", "varchar", "", func(r contentRow) any {
		if r.l.Content == nil {
			return nil
		}
		m := r.l.Content.Metadata
		if m.PageCount == 0 {
			m.PageCount = len(r.l.Content.Pages)
		}
		b, _ := json.Marshal(m)
		return string(b)
	}},
	{"warnings", "varchar[]", "", func(r contentRow) any {
		if r.l.Content == nil {
			return []any{}
		}
		return anyList(r.l.Content.Warnings)
	}},
	// extractions of this content so far (bounds automatic retries)
	{"attempts", "integer", "", func(r contentRow) any { return int32(r.w.attempts[r.l.Doc.Hash] + 1) }},
}}

var reviewsTable = &table[reviewRow]{schema: "staging", name: "reviews", cols: []col[reviewRow]{
	{"source_hash", "varchar", "not null", func(r reviewRow) any { return r.l.Doc.Hash }}, // the content
	// 1-based; null when the reason is about the whole document
	{"page_number", "integer", "", func(r reviewRow) any { return nullInt32(r.v.Page) }},
	// pages_missing | page_unreadable | no_text | replacement_chars | unexpected_chars | low_ocr_confidence | ocr_found_no_text | script_not_installed | repaired | ...
	{"reason_code", "varchar", "not null", func(r reviewRow) any { return r.v.Code }},
	// what is wrong, in plain words, with the figures behind it
	{"message", "varchar", "not null", func(r reviewRow) any { return r.v.Message }},
}}

var attachmentsTable = &table[attachRow]{schema: "staging", name: "attachments", cols: []col[attachRow]{
	{"source_hash", "varchar", "not null", func(r attachRow) any { return r.l.Doc.Hash }}, // the parent content
	{"seq", "integer", "not null", func(r attachRow) any { return int32(r.a.Seq) }},
	{"name", "varchar", "not null", func(r attachRow) any { return r.a.Name }},
	// sha256 of the attachment's bytes (its content in staging)
	{"child_hash", "varchar", "not null", func(r attachRow) any { return r.a.ChildHash }},
	{"size_bytes", "bigint", "", func(r attachRow) any { return r.a.Size }},
}}

var runsTable = &table[sqlRow]{schema: "ops", name: "load_runs", cols: []col[sqlRow]{
	{"run_id", "varchar", "primary key", nil},
	{"started_at", "timestamp", "not null", nil},
	{"finished_at", "timestamp", "", nil},
	{"status", "varchar", "not null", nil}, // running | completed | failed | aborted (killed before it finished)
	{"docket_version", "varchar", "", nil},
	{"seen", "integer", "", nil}, {"new", "integer", "", nil}, {"changed", "integer", "", nil},
	{"unchanged", "integer", "", nil}, {"deleted", "integer", "", nil},
	{"quarantined", "integer", "", nil}, {"landed", "integer", "", nil}, {"pages", "integer", "", nil},
	{"ocr_pages", "integer", "", nil},
	{"duration_ms", "bigint", "", nil},
	{"options", "json", "", nil},
}}

var eventsTable = &table[eventRow]{schema: "ops", name: "document_events", cols: []col[eventRow]{
	{"run_id", "varchar", "not null", func(r eventRow) any { return r.w.runID }},
	{"doc_id", "varchar", "not null", func(r eventRow) any { return r.l.Doc.DocID }},
	{"source_hash", "varchar", "", func(r eventRow) any { return nullStr(r.l.Doc.Hash) }},
	// new | changed | unchanged | deleted | quarantined | retried | reocr | reextracted | repaired | vanished_during_load | changing_during_load
	{"event", "varchar", "not null", func(r eventRow) any { return r.l.Event }},
	{"status", "varchar", "", func(r eventRow) any { return r.l.Doc.Status }},
	{"error_kind", "varchar", "", func(r eventRow) any { return nullStr(r.l.Doc.ErrorKind) }},
	{"error_message", "varchar", "", func(r eventRow) any { return nullStr(r.l.Doc.ErrorMessage) }},
	{"detected_type", "varchar", "", func(r eventRow) any { return nullStr(r.l.Doc.DetectedType) }},
	{"pages", "integer", "", func(r eventRow) any { return r.st.pages }},
	{"chars", "bigint", "", func(r eventRow) any { return r.st.chars }},
	{"ocr_pages", "integer", "", func(r eventRow) any { return r.st.ocrPages }},
	{"mean_ocr_confidence", "double", "", func(r eventRow) any { return r.st.conf }},
	{"review_pages", "integer", "", func(r eventRow) any { return r.st.review }},
	{"duration_ms", "bigint", "", func(r eventRow) any { return r.l.Duration.Milliseconds() }},
	{"event_at", "timestamp", "not null", func(r eventRow) any { return r.w.now }},
}}

var skipsTable = &table[skipRow]{schema: "ops", name: "load_skips", cols: []col[skipRow]{
	{"run_id", "varchar", "not null", func(r skipRow) any { return r.w.runID }},
	{"source_name", "varchar", "not null", func(r skipRow) any { return r.s.SourceName }},
	// as in raw.documents (bytes that are not UTF-8 shown as \xNN)
	{"rel_path", "varchar", "not null", func(r skipRow) any { return r.s.RelPath }},
	// the path's bytes when they are not valid UTF-8
	{"rel_path_bytes", "blob", "", func(r skipRow) any { return nullBytes(r.s.RelPathBytes) }},
	// symlink | special_file | path_too_long | unreadable_folder | excluded_warehouse
	{"kind", "varchar", "not null", func(r skipRow) any { return r.s.Kind }},
	{"reason", "varchar", "not null", func(r skipRow) any { return r.s.Reason }},
	{"recorded_at", "timestamp", "not null", func(r skipRow) any { return r.w.now }},
}}

var metaTable = &table[sqlRow]{schema: "ops", name: "meta", cols: []col[sqlRow]{
	{"key", "varchar", "primary key", nil},
	{"value", "varchar", "", nil},
}}

// shardLandsTable records each shard of a plan landed (shard -1: the
// plan's own decisions: unchanged documents, deletions, skipped entries),
// so landing it again changes nothing.
var shardLandsTable = &table[sqlRow]{schema: "ops", name: "shard_lands", cols: []col[sqlRow]{
	{"plan_id", "varchar", "not null", nil},
	{"shard", "integer", "not null", nil},
	{"run_id", "varchar", "not null", nil},  // the ops.load_runs row of the land
	{"manifest_sha256", "varchar", "", nil}, // of the shard's manifest.json
	{"landed_at", "timestamp", "not null", nil},
}, keys: "primary key (plan_id, shard)"}

// landedTables are every table the loader creates and fills, in creation order.
var landedTables = []decl{documentsTable, versionsTable, pagesTable, elementsTable, tablesTable, wordsTable,
	extractionsTable, reviewsTable, attachmentsTable, runsTable, eventsTable, skipsTable, metaTable, shardLandsTable}

// eventStats are an event's page figures (nil when nothing was extracted).
type eventStats struct {
	pages, chars, ocrPages, conf, review any
}

func statsOf(l *Landing) eventStats {
	var st eventStats
	r := l.Content
	if r == nil {
		return st
	}
	n, o, rv, ch := 0, 0, 0, int64(0)
	sum := 0.0
	for _, p := range r.Pages {
		n++
		ch += int64(len([]rune(p.Text)))
		if p.Method == document.MethodOCR {
			o++
			sum += p.OCRConfidence
		}
		if p.ReviewReason != "" {
			rv++
		}
	}
	st.pages, st.ocrPages, st.review, st.chars = int32(n), int32(o), int32(rv), ch
	if o > 0 {
		st.conf = sum / float64(o)
	}
	return st
}

func anyList(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

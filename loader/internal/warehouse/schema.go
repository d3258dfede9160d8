package warehouse

import (
	"context"
	"fmt"
	"strings"
)

// SchemaVersion is bumped when the landed tables change shape.
// Version 6: raw.documents.rel_path_bytes, staging.extractions.attempts
// and ops.load_skips (added to
// older warehouses by create/alter ... if not exists).
const SchemaVersion = 6

// ddl creates the loader's landed tables (DESIGN §3). Keys are declared as
// PRIMARY KEYs only where DuckDB's index cost is worth it (the upserts of
// raw.documents and raw.document_versions need theirs; small tables keep
// theirs); uniqueness of the others is asserted by the source tests in
// models/sources.yml. staging.elements and staging.ocr_words have none: an
// ART index over random sha256 keys made appending 43k elements, their
// commit and the closing checkpoint cost ~0.5 s of a 2.8 s corpus load
// (measured in schema version 1), and the loader replaces a content's
// rows as a whole, so the keys are unique by construction.
var ddl = []string{
	`create schema if not exists raw`,
	`create schema if not exists staging`,
	`create schema if not exists ops`,
	`create table if not exists raw.documents (
		doc_id varchar primary key,        -- sha256(source name || '/' || relative path); attachments: sha256(parent doc_id || '#' || index || '/' || name)
		source_name varchar not null,
		rel_path varchar not null,         -- path relative to the source folder (attachments: parent path + '#' + name); bytes that are not UTF-8 shown as \xNN
		source_uri varchar not null,       -- file:// URI of the absolute path (attachments: parent URI + '#' + name)
		source_hash varchar,               -- sha256 of the current bytes
		size_bytes bigint,
		detected_type varchar,             -- from magic bytes / container contents
		extension_type varchar,            -- what the extension says
		type_mismatch boolean,
		mime_type varchar,
		status varchar not null,           -- landed | quarantined | deleted
		error_kind varchar,
		error_message varchar,
		parent_doc_id varchar,
		depth integer not null default 0,
		title varchar, author varchar, created_at_doc varchar, modified_at_doc varchar, language_hint varchar,
		page_count integer,
		metadata json,
		warnings varchar[],
		first_seen_at timestamp not null,
		last_seen_at timestamp not null,
		last_run_id varchar not null,
		mtime timestamp,
		rel_path_bytes blob                -- the path's bytes when they are not valid UTF-8 (rel_path shows them escaped)
	)`,
	`alter table raw.documents add column if not exists rel_path_bytes blob`,
	`create table if not exists raw.document_versions (
		doc_id varchar not null,
		source_hash varchar not null,
		first_seen_at timestamp not null,
		first_run_id varchar not null,
		last_seen_at timestamp not null,
		last_run_id varchar not null,
		size_bytes bigint,
		primary key (doc_id, source_hash)
	)`,
	`create table if not exists staging.pages (
		source_hash varchar not null,
		page_number integer not null,
		text varchar not null,
		char_count integer not null,       -- code points in text
		width double, height double,
		method varchar not null,           -- text_layer | ocr | native | none
		needs_ocr boolean not null,
		text_layer_chars integer,          -- PDF pages: real characters the text layer had (why a page was or was not OCR'd)
		text_layer_unmapped integer,       -- PDF pages: glyphs without a Unicode mapping (U+FFFD)
		ocr_confidence double,
		review_reason varchar,
		extractor_version varchar not null,
		extracted_at timestamp not null,
		primary key (source_hash, page_number)
	)`,
	`create table if not exists staging.elements (
		-- sha256(source_hash, 'element', seq), computed when read: stored,
		-- 64 random hex characters per element were ~a third of the cost of
		-- checkpointing the table (and of hashing and appending them)
		element_id varchar generated always as (` + elementIDExpr + `) virtual,
		source_hash varchar not null,
		seq integer not null,              -- reading order within the content
		page_number integer not null,
		category varchar not null,
		text varchar not null,
		x0 double, y0 double, x1 double, y1 double,
		char_start integer not null,       -- 0-based code point offsets into staging.pages.text
		char_end integer not null,
		level integer,
		section varchar,
		table_seq integer
	)`,
	`create table if not exists staging.tables (
		table_id varchar primary key,      -- sha256(source_hash, 'table', seq)
		source_hash varchar not null,
		table_seq integer not null,
		page_number integer not null,
		x0 double, y0 double, x1 double, y1 double,
		header varchar[],
		cells varchar[][],
		n_rows integer, n_cols integer,
		spans struct(row_index integer, col_index integer, n_rows integer, n_cols integer)[] -- cells covering more than one grid position; row_index 0 is the header row when there is one
	)`,
	// spans came with schema version 5: older warehouses get the column
	// (null for the tables landed before).
	`alter table staging.tables add column if not exists spans struct(row_index integer, col_index integer, n_rows integer, n_cols integer)[]`,
	`create table if not exists staging.ocr_words (
		source_hash varchar not null,
		page_number integer not null,
		seq integer not null,
		text varchar not null,
		x0 double, y0 double, x1 double, y1 double,
		confidence double,
		block_num integer, par_num integer, line_num integer
	)`,
	`create table if not exists staging.extractions (
		source_hash varchar primary key,   -- one row per distinct content extracted
		detected_type varchar,
		extractor_version varchar not null,
		page_count integer,
		status varchar not null,           -- landed | quarantined
		error_kind varchar,
		error_message varchar,
		duration_ms bigint,
		extracted_at timestamp not null,
		mime_type varchar,
		metadata varchar,                  -- JSON text: the content's own metadata, copied to every document with these bytes
		warnings varchar[],
		attempts integer                   -- extractions of this content so far (bounds automatic retries)
	)`,
	`alter table staging.extractions add column if not exists attempts integer`,
	// staging.reviews came with schema version 4 (a new table: created
	// here, no rows to move).
	`create table if not exists staging.reviews (
		source_hash varchar not null,      -- the content
		page_number integer,               -- 1-based; null when the reason is about the whole document
		reason_code varchar not null,      -- pages_missing | page_unreadable | no_text | replacement_chars | unexpected_chars | low_ocr_confidence | ocr_found_no_text | script_not_installed | repaired | ...
		message varchar not null           -- what is wrong, in plain words, with the figures behind it
	)`,
	`create table if not exists staging.attachments (
		source_hash varchar not null,      -- the parent content
		seq integer not null,
		name varchar not null,
		child_hash varchar not null,       -- sha256 of the attachment's bytes (its content in staging)
		size_bytes bigint,
		primary key (source_hash, seq)
	)`,
	`create table if not exists ops.load_runs (
		run_id varchar primary key,
		started_at timestamp not null,
		finished_at timestamp,
		status varchar not null,           -- running | completed | failed | aborted (killed before it finished)
		docket_version varchar,
		seen integer, new integer, changed integer, unchanged integer, deleted integer,
		quarantined integer, landed integer, pages integer, ocr_pages integer,
		duration_ms bigint,
		options json
	)`,
	`create table if not exists ops.document_events (
		run_id varchar not null,
		doc_id varchar not null,
		source_hash varchar,
		event varchar not null,            -- new | changed | unchanged | deleted | quarantined | retried | reocr
		status varchar,
		error_kind varchar,
		error_message varchar,
		detected_type varchar,
		pages integer,
		chars bigint,
		ocr_pages integer,
		mean_ocr_confidence double,
		review_pages integer,
		duration_ms bigint,
		event_at timestamp not null
	)`,
	`create table if not exists ops.load_skips (
		run_id varchar not null,
		source_name varchar not null,
		rel_path varchar not null,         -- as in raw.documents (bytes that are not UTF-8 shown as \xNN)
		rel_path_bytes blob,               -- the path's bytes when they are not valid UTF-8
		kind varchar not null,             -- symlink | special_file | path_too_long | unreadable_folder | excluded_warehouse
		reason varchar not null,
		recorded_at timestamp not null
	)`,
	`create table if not exists ops.meta (key varchar primary key, value varchar)`,
}

// EnsureSchema creates the landed tables if they do not exist and
// migrates a warehouse of an older schema version.
func (w *DB) EnsureSchema(ctx context.Context) error {
	for _, q := range ddl {
		if _, err := w.sql.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("warehouse: create schema: %w", err)
		}
	}
	if err := w.migrate(ctx); err != nil {
		return fmt.Errorf("warehouse: migrate schema: %w", err)
	}
	_, err := w.sql.ExecContext(ctx, `insert or replace into ops.meta values ('schema_version', ?)`, fmt.Sprint(SchemaVersion))
	return err
}

// elementIDExpr is sha256(source_hash, 'element', seq) in hex as hashHex
// builds it (each part followed by a NUL), the ids the loader stored
// before schema version 3.
const elementIDExpr = `sha256(source_hash || chr(0) || 'element' || chr(0) || seq::varchar || chr(0))`

// migrations are the staging tables older schema versions created
// differently: version 1 gave staging.elements and staging.ocr_words a
// PRIMARY KEY, versions 1 and 2 stored element_id.
var migrations = []struct {
	table string
	stale string // SQL that counts 1 when the table needs rebuilding
}{
	{"elements", `select count(*) from duckdb_tables() where schema_name = 'staging' and table_name = 'elements'
		and (sql not ilike '%generated always%' or sql ilike '%primary key%')`},
	{"ocr_words", `select count(*) from duckdb_constraints()
		where schema_name = 'staging' and table_name = 'ocr_words' and constraint_type = 'PRIMARY KEY'`},
}

// migrate rebuilds, once, a staging table an older schema version made:
// DuckDB cannot drop a constraint or turn a column into a generated one,
// so the rows move to a table created from the current DDL, in one
// transaction (generated columns are computed, not copied).
func (w *DB) migrate(ctx context.Context) error {
	for _, m := range migrations {
		t := m.table
		var n int
		if err := w.sql.QueryRowContext(ctx, m.stale).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			continue
		}
		var cols []string
		rows, err := w.sql.QueryContext(ctx, `select column_name from duckdb_columns()
			where schema_name = 'staging' and table_name = ? order by column_index`, t)
		if err != nil {
			return err
		}
		for rows.Next() {
			var c string
			if err := rows.Scan(&c); err != nil {
				rows.Close()
				return err
			}
			if !(t == "elements" && c == "element_id") {
				cols = append(cols, c)
			}
		}
		rows.Close()
		list := strings.Join(cols, ", ")
		create := ""
		for _, q := range ddl {
			if strings.Contains(q, "staging."+t+" (") {
				create = strings.Replace(q, "staging."+t+" (", "staging."+t+"_v2 (", 1)
			}
		}
		tx, err := w.sql.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		for _, q := range []string{create, "insert into staging." + t + "_v2 (" + list + ") select " + list + " from staging." + t,
			"drop table staging." + t, "alter table staging." + t + "_v2 rename to " + t} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				tx.Rollback()
				return fmt.Errorf("staging.%s: %w", t, err)
			}
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return nil
}

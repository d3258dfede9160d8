package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Schema changes are numbered migrations (golang-migrate's model): each is
// applied once, in order, in its own transaction with the version it
// reaches, recorded in ops.meta (schema_version). A new warehouse is made
// from the declarations in landed.go and starts at the latest version; a
// migration is frozen once landed (it says what the tables were, the
// declarations say what they are), and TestFreshEqualsMigrated checks that
// the two agree.
//
// To change a landed table: change its declaration, append a migration
// with the next number doing the same to an existing warehouse, and the
// test tells whether they match.
type migration struct {
	version int
	name    string
	up      func(ctx context.Context, c *sql.Conn) error
}

var migrations = []migration{
	// Versions 1 to 6 were reached by statements that could run again
	// (create/alter ... if not exists) and by rebuilding the tables
	// versions 1 and 2 made differently; version 6 is all of them, so a
	// warehouse of any of those versions (recorded or not) comes here.
	{6, "tables of versions 1-6", upTo6},
	{7, "raw.documents keeps each file's stat", upTo7},
	{8, "ops.shard_lands", execAll(`create table ops.shard_lands (
		plan_id varchar not null,
		shard integer not null,
		run_id varchar not null,
		manifest_sha256 varchar,
		landed_at timestamp not null,
		primary key (plan_id, shard))`)},
	{9, "staging.tables.continues_table_id", execAll(`alter table staging.tables add column continues_table_id varchar`)},
	// Version 10 is taken: 46daa64 (the corpus tables without their
	// primary keys) recorded it and 52f7fbf reverted it. A warehouse a
	// build of that commit migrated is at 10 without those keys, which
	// version 11 takes as it finds them.
	{11, "no primary keys on the tables that grow with the corpus", upTo11},
	{12, "staging.pages.text_layer_clipped", execAll(`alter table staging.pages add column if not exists text_layer_clipped integer`)},
	{13, "staging.elements.element_id stored", upTo13},
}

// upTo13 stores staging.elements.element_id, which versions 3-12
// generated (virtual), with the values it had (landed.go's elementsTable
// says why). DuckDB cannot turn a generated column into a stored one, and
// a column added goes last: the table is rebuilt with element_id first,
// its rows moved over (frozen DDL). A table already without the generated
// column is left as it is.
func upTo13(ctx context.Context, c *sql.Conn) error {
	var n int
	if err := c.QueryRowContext(ctx, `select count(*) from duckdb_tables() where schema_name = 'staging' and table_name = 'elements'
		and sql ilike '%generated always%'`).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	cols := `source_hash, seq, page_number, category, text, x0, y0, x1, y1, char_start, char_end, level, section, table_seq`
	return execAll(`create table staging.elements_v13 (
		element_id varchar,
		source_hash varchar not null,
		seq integer not null,
		page_number integer not null,
		category varchar not null,
		text varchar not null,
		x0 double, y0 double, x1 double, y1 double,
		char_start integer not null,
		char_end integer not null,
		level integer,
		section varchar,
		table_seq integer)`,
		`insert into staging.elements_v13 select `+elementIDExpr+`, `+cols+` from staging.elements`,
		`drop table staging.elements`,
		`alter table staging.elements_v13 rename to elements`)(ctx, c)
}

// v11Unkeyed are the tables schema version 11 keeps without a PRIMARY
// KEY (frozen): their ART indexes were the corpus-sized memory of a load
// that DuckDB cannot evict until a checkpoint writes them (~30 MiB at 50k
// documents, ~110 MiB at 200k), and writing them ramped the load's
// closing checkpoint. The loader keeps their keys unique (mergeDocs,
// clearContents), and DuplicateKeys checks it.
var v11Unkeyed = [][2]string{{"raw", "documents"}, {"raw", "document_versions"}, {"staging", "pages"},
	{"staging", "extractions"}, {"staging", "tables"}, {"staging", "attachments"}}

var (
	columnKeyRe = regexp.MustCompile(`(?i) PRIMARY KEY\b`)
	tableKeyRe  = regexp.MustCompile(`(?i),\s*PRIMARY KEY\s*\([^)]*\)`)
	createRe    = regexp.MustCompile(`(?is)^CREATE TABLE [^(]+\(`)
)

// upTo11 rebuilds the v11Unkeyed tables without their PRIMARY KEY (DuckDB
// cannot drop a constraint): each table's own DDL, as DuckDB keeps it,
// with the key taken out and its columns still NOT NULL, then its rows
// moved over. A table already without a key (a warehouse 46daa64 took to
// version 10) is left as it is.
func upTo11(ctx context.Context, c *sql.Conn) error {
	for _, st := range v11Unkeyed {
		schema, name := st[0], st[1]
		var ddl string
		if err := c.QueryRowContext(ctx, `select sql from duckdb_tables() where schema_name = ? and table_name = ?`, schema, name).Scan(&ddl); err != nil {
			return fmt.Errorf("%s.%s: %w", schema, name, err)
		}
		keyCols, err := queryStrings(ctx, c, `select unnest(constraint_column_names) from duckdb_constraints()
			where schema_name = ? and table_name = ? and constraint_type = 'PRIMARY KEY'`, schema, name)
		if err != nil {
			return fmt.Errorf("%s.%s: %w", schema, name, err)
		}
		if len(keyCols) == 0 {
			continue
		}
		tmp := schema + `."` + name + `_v11"`
		ddl = columnKeyRe.ReplaceAllString(tableKeyRe.ReplaceAllString(ddl, ""), " NOT NULL")
		ddl = createRe.ReplaceAllLiteralString(ddl, "CREATE TABLE "+tmp+"(")
		stmts := []string{ddl}
		for _, k := range keyCols {
			stmts = append(stmts, `alter table `+tmp+` alter column "`+k+`" set not null`)
		}
		stmts = append(stmts, `insert into `+tmp+` select * from `+schema+`."`+name+`"`,
			`drop table `+schema+`."`+name+`"`, `alter table `+tmp+` rename to "`+name+`"`)
		for _, q := range stmts {
			if _, err := c.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("%s.%s: %w", schema, name, err)
			}
		}
	}
	return nil
}

// upTo7 adds raw.documents' stat columns (null until a load reads the
// file again, which it then does).
func upTo7(ctx context.Context, c *sql.Conn) error {
	for _, q := range []string{
		`alter table raw.documents add column stat_size bigint`,
		`alter table raw.documents add column stat_mtime_ns bigint`,
		`alter table raw.documents add column stat_inode ubigint`,
		`alter table raw.documents add column stat_ctime_ns bigint`,
		`alter table raw.documents add column stat_taken_ns bigint`,
	} {
		if _, err := c.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// execAll is a migration of plain statements.
func execAll(stmts ...string) func(context.Context, *sql.Conn) error {
	return func(ctx context.Context, c *sql.Conn) error {
		for _, q := range stmts {
			if _, err := c.ExecContext(ctx, q); err != nil {
				return err
			}
		}
		return nil
	}
}

// SchemaVersion is the version this docket writes: the last migration's.
var SchemaVersion = migrations[len(migrations)-1].version

// EnsureSchema creates the landed tables in a new warehouse and migrates
// one of an older schema version. A warehouse of a newer version than
// this docket knows is refused.
func (w *DB) EnsureSchema(ctx context.Context) error {
	c, err := w.sql.Conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	v, fresh, err := schemaVersion(ctx, c)
	if err != nil {
		return fmt.Errorf("warehouse: read schema version: %w", err)
	}
	if v > SchemaVersion {
		return fmt.Errorf("warehouse: %s has schema version %d, newer than this docket's %d: use a newer docket", w.Path, v, SchemaVersion)
	}
	if fresh {
		return inTx(ctx, c, func() error {
			for _, s := range []string{"raw", "staging", "ops"} {
				if _, err := c.ExecContext(ctx, "create schema if not exists "+s); err != nil {
					return err
				}
			}
			for _, t := range landedTables {
				if _, err := c.ExecContext(ctx, t.createSQL()); err != nil {
					return fmt.Errorf("warehouse: create %s: %w", t.qualified(), err)
				}
			}
			return setVersion(ctx, c, SchemaVersion)
		})
	}
	for _, m := range migrations {
		if m.version <= v {
			continue
		}
		if err := inTx(ctx, c, func() error {
			if err := m.up(ctx, c); err != nil {
				return err
			}
			return setVersion(ctx, c, m.version)
		}); err != nil {
			return fmt.Errorf("warehouse: migrate to schema version %d (%s): %w", m.version, m.name, err)
		}
		w.migrated = true
	}
	return nil
}

// Fresh reports whether the warehouse has no table in the loader's
// schemas yet (EnsureSchema would create them all): it knows no document.
func (w *DB) Fresh(ctx context.Context) (bool, error) {
	c, err := w.sql.Conn(ctx)
	if err != nil {
		return false, err
	}
	defer c.Close()
	_, fresh, err := schemaVersion(ctx, c)
	return fresh, err
}

// schemaVersion reads the recorded version; fresh says the warehouse has
// no table in the loader's schemas yet. A warehouse with tables and no
// version is 0.
func schemaVersion(ctx context.Context, c *sql.Conn) (v int, fresh bool, err error) {
	var n int
	if err := c.QueryRowContext(ctx, `select count(*) from duckdb_tables() where schema_name in ('raw', 'staging', 'ops')`).Scan(&n); err != nil {
		return 0, false, err
	}
	var m int
	if err := c.QueryRowContext(ctx, `select count(*) from duckdb_tables() where schema_name = 'ops' and table_name = 'meta'`).Scan(&m); err != nil {
		return 0, false, err
	}
	if m > 0 {
		var s string
		err := c.QueryRowContext(ctx, `select value from ops.meta where key = 'schema_version'`).Scan(&s)
		if err != nil && err != sql.ErrNoRows {
			return 0, false, err
		}
		if s != "" {
			if v, err = strconv.Atoi(s); err != nil {
				return 0, false, fmt.Errorf("schema_version %q: %w", s, err)
			}
		}
	}
	return v, n == 0 && v == 0, nil
}

func setVersion(ctx context.Context, c *sql.Conn, v int) error {
	_, err := c.ExecContext(ctx, `insert or replace into ops.meta values ('schema_version', ?)`, strconv.Itoa(v))
	return err
}

// inTx runs fn in a transaction on c.
func inTx(ctx context.Context, c *sql.Conn, fn func() error) error {
	if _, err := c.ExecContext(ctx, "begin transaction"); err != nil {
		return err
	}
	if err := fn(); err != nil {
		c.ExecContext(context.Background(), "rollback")
		return err
	}
	_, err := c.ExecContext(ctx, "commit")
	return err
}

// upTo6 brings a warehouse of versions 1 to 5 (or one made before the
// version was recorded) to version 6: the statements that made version 6,
// then the rebuild of the staging tables versions 1 and 2 made
// differently.
func upTo6(ctx context.Context, c *sql.Conn) error {
	for _, q := range v6DDL {
		if _, err := c.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	for _, r := range v2Rebuilds {
		if err := rebuildStaging(ctx, c, r.table, r.stale); err != nil {
			return err
		}
	}
	return nil
}

// v6DDL is the schema of version 6 as it was created and altered (frozen;
// the tables now are declared in landed.go).
var v6DDL = []string{
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

// v2Rebuilds are the staging tables older schema versions created
// differently: version 1 gave staging.elements and staging.ocr_words a
// PRIMARY KEY, versions 1 and 2 stored element_id.
var v2Rebuilds = []struct {
	table string
	stale string // SQL that counts 1 when the table needs rebuilding
}{
	{"elements", `select count(*) from duckdb_tables() where schema_name = 'staging' and table_name = 'elements'
		and (sql not ilike '%generated always%' or sql ilike '%primary key%')`},
	{"ocr_words", `select count(*) from duckdb_constraints()
		where schema_name = 'staging' and table_name = 'ocr_words' and constraint_type = 'PRIMARY KEY'`},
}

// rebuildStaging rebuilds a staging table an older schema version made:
// DuckDB cannot drop a constraint or turn a column into a generated one,
// so the rows move to a table created from version 6's DDL (generated
// columns are computed, not copied). c is inside the migration's
// transaction.
func rebuildStaging(ctx context.Context, c *sql.Conn, t, stale string) error {
	var n int
	if err := c.QueryRowContext(ctx, stale).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	var cols []string
	rows, err := c.QueryContext(ctx, `select column_name from duckdb_columns()
		where schema_name = 'staging' and table_name = ? order by column_index`, t)
	if err != nil {
		return err
	}
	for rows.Next() {
		var col string
		if err := rows.Scan(&col); err != nil {
			rows.Close()
			return err
		}
		if !(t == "elements" && col == "element_id") {
			cols = append(cols, col)
		}
	}
	rows.Close()
	list := strings.Join(cols, ", ")
	create := ""
	for _, q := range v6DDL {
		if strings.Contains(q, "staging."+t+" (") {
			create = strings.Replace(q, "staging."+t+" (", "staging."+t+"_v2 (", 1)
		}
	}
	for _, q := range []string{create, "insert into staging." + t + "_v2 (" + list + ") select " + list + " from staging." + t,
		"drop table staging." + t, "alter table staging." + t + "_v2 rename to " + t} {
		if _, err := c.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("staging.%s: %w", t, err)
		}
	}
	return nil
}

package warehouse

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/document"
)

// assertOneRowPerKey fails the test when a table that grows with the
// corpus has more than one row for a key.
func assertOneRowPerKey(t *testing.T, db *DB, step string) {
	t.Helper()
	dups, err := db.DuplicateKeys(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(dups) > 0 {
		t.Fatalf("%s: rows beyond one per key: %v", step, dups)
	}
}

// TestLandsKeepOneRowPerKey: raw.documents, raw.document_versions and
// the staging tables have no PRIMARY KEY (schema version 11), so the
// landing keeps one row per key itself: through new documents, changed
// ones, re-extractions of the same content (retry, re-OCR), deletions,
// a deleted document coming back with an earlier version's bytes, and a
// document landed again by a later batch of the same run (the retry of
// a failed batch). A batch naming a document twice is refused.
func TestLandsKeepOneRowPerKey(t *testing.T) {
	ctx := context.Background()
	db := openWithSchema(t)
	content := func(text string) *document.Result {
		return &document.Result{Type: "pdf", ExtractorVersion: "test",
			Pages:       []document.Page{{Number: 1, Text: text, Method: document.MethodTextLayer}, {Number: 2, Text: text + " 2", Method: document.MethodTextLayer}},
			Tables:      []document.Table{{Page: 1, Seq: 0, Header: []string{"a"}, Rows: [][]string{{"1"}}}, {Page: 2, Seq: 1, Rows: [][]string{{"2"}}}},
			Attachments: []document.Attachment{{Name: "x.txt", Data: []byte("x")}},
		}
	}
	doc := func(id, hash string, res *document.Result, ev string) Landing {
		l := Landing{Doc: DocRow{DocID: id, SourceName: "s", RelPath: id + ".pdf", URI: "file:///" + id, Hash: hash, Status: StatusLanded}, Event: ev}
		if res != nil {
			l.Content, l.Extracted = res, true
			l.Attachments = []AttachmentRef{{Seq: 0, Name: "x.txt", ChildHash: "hx", Size: 1}}
		}
		return l
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	land := func(step string, at int, batch []Landing, deleted ...string) {
		t.Helper()
		if err := db.Land(ctx, fmt.Sprintf("r%d", at), t0.Add(time.Duration(at)*time.Hour), batch, deleted); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		assertOneRowPerKey(t, db, step)
	}
	land("new", 1, []Landing{doc("a", "h1", content("a"), "new"), doc("b", "h2", content("b"), "new"), doc("c", "h2", nil, "new")})
	land("changed, retried, reused", 2, []Landing{doc("a", "h3", content("a3"), "changed"), doc("b", "h2", content("b again"), "retried"),
		doc("c", "h1", nil, "changed"), doc("d", "h4", content("d"), "new")})
	land("same run, landed again", 2, []Landing{doc("d", "h4", content("d"), "new"), doc("a", "h3", nil, "changed")})
	land("deleted", 3, nil, "a", "d")
	land("back with an earlier version's bytes", 4, []Landing{doc("a", "h1", nil, "changed"), doc("d", "h4", content("d re-OCR"), "reocr")})

	count := func(q string) string {
		t.Helper()
		var s string
		if err := db.SQL().QueryRowContext(ctx, q).Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	for q, want := range map[string]string{
		`select string_agg(source_hash || '@r' || last_run_id[2:], ' ' order by source_hash) from raw.document_versions where doc_id = 'a'`: "h1@r4 h3@r2",
		`select string_agg(doc_id || '=' || status || ':' || source_hash, ' ' order by doc_id) from raw.documents`:                          "a=landed:h1 b=landed:h2 c=landed:h1 d=landed:h4",
		`select string_agg(text, '|' order by page_number) from staging.pages where source_hash = 'h4'`:                                     "d re-OCR|d re-OCR 2",
		`select string_agg(text, '|' order by page_number) from staging.pages where source_hash = 'h2'`:                                     "b again|b again 2",
		`select first_seen_at::varchar from raw.documents where doc_id = 'a'`:                                                               "2026-01-01 01:00:00",
	} {
		if got := count(q); got != want {
			t.Errorf("%s\n got %s\nwant %s", q, got, want)
		}
	}

	err := db.Land(ctx, "r5", t0.Add(5*time.Hour), []Landing{doc("e", "h5", nil, "new"), doc("e", "h6", nil, "new")}, nil)
	if err == nil || !strings.Contains(err.Error(), "more than once") {
		t.Fatalf("a batch naming a document twice: %v", err)
	}
	assertOneRowPerKey(t, db, "refused batch")
}

// DuplicateKeys finds a key that is not unique (rows written by hand:
// nothing in the warehouse refuses them any more).
func TestDuplicateKeysFound(t *testing.T) {
	ctx := context.Background()
	db := openWithSchema(t)
	for _, q := range []string{
		`insert into raw.document_versions values ('a', 'h', now(), 'r', now(), 'r', 1), ('a', 'h', now(), 'r', now(), 'r', 1), ('a', 'h2', now(), 'r', now(), 'r', 1)`,
		`insert into staging.attachments values ('h', 0, 'x', 'c', 1), ('h', 0, 'y', 'c', 1), ('h', 0, 'z', 'c', 1), ('h', 1, 'x', 'c', 1)`,
	} {
		if _, err := db.SQL().ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	dups, err := db.DuplicateKeys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(dups) != 2 || dups["raw.document_versions"] != 1 || dups["staging.attachments"] != 2 {
		t.Fatalf("DuplicateKeys: %v", dups)
	}
}

// The tables that grow with the corpus have no PRIMARY KEY or UNIQUE
// constraint in a new warehouse and in one migrated in place (the v6
// fixture, rows kept), and landing documents builds no ART index: an
// index's memory is what DuckDB cannot evict until a checkpoint writes
// it (~110 MiB of a 200k-document load's 160 MiB limit).
func TestCorpusTablesUnkeyed(t *testing.T) {
	ctx := context.Background()
	old := openV6Fixture(t)
	rowsOf := map[string]string{
		"raw.documents":         `select count(*) || ':' || coalesce(bit_xor(hash(doc_id, source_hash, status, rel_path, first_seen_at, last_run_id, metadata::varchar)), 0) from raw.documents`,
		"raw.document_versions": `select count(*) || ':' || coalesce(bit_xor(hash(doc_id, source_hash, first_seen_at, last_seen_at, size_bytes)), 0) from raw.document_versions`,
		"staging.pages":         `select count(*) || ':' || coalesce(bit_xor(hash(source_hash, page_number, text, method)), 0) from staging.pages`,
		"staging.extractions":   `select count(*) || ':' || coalesce(bit_xor(hash(source_hash, status, extractor_version, warnings::varchar)), 0) from staging.extractions`,
		"staging.tables":        `select count(*) || ':' || coalesce(bit_xor(hash(table_id, source_hash, cells::varchar)), 0) from staging.tables`,
		"staging.attachments":   `select count(*) || ':' || coalesce(bit_xor(hash(source_hash, seq, name, child_hash)), 0) from staging.attachments`,
	}
	read := func(db *DB, q string) string {
		t.Helper()
		var s string
		if err := db.SQL().QueryRowContext(ctx, q).Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	before := map[string]string{}
	for k, q := range rowsOf {
		before[k] = read(old, q)
	}
	if before["staging.pages"][:2] != "3:" {
		t.Fatalf("fixture: %v", before)
	}
	if err := old.EnsureSchema(ctx); err != nil {
		t.Fatal(err)
	}
	for k, q := range rowsOf {
		if got := read(old, q); got != before[k] {
			t.Errorf("%s: rows %s after migrating, %s before", k, got, before[k])
		}
	}
	keysOf := func(db *DB) string {
		return read(db, `select count(*) || ' ' || coalesce(string_agg(schema_name || '.' || table_name || ' ' || constraint_type, ', '), '') from duckdb_constraints()
			where constraint_type in ('PRIMARY KEY', 'UNIQUE') and schema_name || '.' || table_name in
			('raw.documents', 'raw.document_versions', 'staging.pages', 'staging.extractions', 'staging.tables', 'staging.attachments')`)
	}
	if got := keysOf(old); got != "0 " {
		t.Errorf("migrated warehouse: keys %s", got)
	}
	fresh := openWithSchema(t)
	if got := keysOf(fresh); got != "0 " {
		t.Errorf("new warehouse: keys %s", got)
	}
	art := func() int64 {
		var n int64
		if err := fresh.SQL().QueryRowContext(ctx, `select coalesce(sum(memory_usage_bytes), 0) from duckdb_memory() where tag = 'ART_INDEX'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	artBefore := art()
	for b := 0; b < 4; b++ {
		var batch []Landing
		for i := 0; i < 500; i++ {
			id := hashHex("doc", fmt.Sprint(b, i))
			batch = append(batch, Landing{Doc: DocRow{DocID: id, SourceName: "s", RelPath: id, URI: "file:///" + id, Hash: hashHex(id), Status: StatusLanded}, Event: "new",
				Extracted: true, Content: &document.Result{Type: "txt", ExtractorVersion: "test", Pages: []document.Page{{Number: 1, Text: id, Method: document.MethodNative}}}})
		}
		if err := fresh.Land(ctx, "r1", time.Now(), batch, nil); err != nil {
			t.Fatal(err)
		}
	}
	if a := art(); a != artBefore {
		t.Errorf("ART index memory %d bytes after landing 2,000 documents, %d before", a, artBefore)
	}
}

// A warehouse 46daa64 took to schema version 10 (the corpus tables
// already without keys) reaches 11 with its rows and the shape of a new
// one.
func TestVersion10Migrates(t *testing.T) {
	ctx := context.Background()
	db := openWithSchema(t)
	if _, err := db.SQL().ExecContext(ctx, `insert into staging.extractions (source_hash, extractor_version, status, extracted_at) values ('h', 'v', 'landed', now())`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL().ExecContext(ctx, `update ops.meta set value = '10' where key = 'schema_version'`); err != nil {
		t.Fatal(err)
	}
	if err := db.EnsureSchema(ctx); err != nil {
		t.Fatal(err)
	}
	var v string
	var n int
	if err := db.SQL().QueryRowContext(ctx, `select (select value from ops.meta where key = 'schema_version'), (select count(*) from staging.extractions)`).Scan(&v, &n); err != nil {
		t.Fatal(err)
	}
	if v != fmt.Sprint(SchemaVersion) || n != 1 {
		t.Fatalf("after migrating: version %s, %d extractions", v, n)
	}
	if a, b := shape(t, db), shape(t, openWithSchema(t)); a != b {
		t.Fatalf("migrated from 10 and fresh differ:\n%s\n%s", a, b)
	}
}

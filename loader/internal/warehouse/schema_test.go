package warehouse

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// Warehouses made by older schema versions keep their rows: version 1
// (PRIMARY KEYs on staging.elements and staging.ocr_words, element_id
// stored) and version 2 (element_id stored) become the current tables.
func TestOldSchemasMigrate(t *testing.T) {
	for _, v := range []int{1, 2} {
		t.Run(map[int]string{1: "v1", 2: "v2"}[v], func(t *testing.T) { testMigrate(t, v) })
	}
}

func testMigrate(t *testing.T, version int) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "w.duckdb"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	generated := "element_id varchar generated always as (" + elementIDExpr + ") virtual,"
	for _, q := range v6DDL {
		switch {
		case strings.Contains(q, "staging.elements ("):
			old := "element_id varchar not null,"
			if version == 1 {
				old = "element_id varchar primary key,"
			}
			if !strings.Contains(q, generated) {
				t.Fatal("elements DDL changed; update the test")
			}
			q = strings.Replace(q, generated, old, 1)
		case strings.Contains(q, "staging.ocr_words (") && version == 1:
			q = strings.Replace(q, "line_num integer\n", "line_num integer, primary key (source_hash, page_number, seq)\n", 1)
		}
		if _, err := db.SQL().ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	id := hashHex("h", "element", "0") // the id schema versions 1 and 2 stored
	for _, q := range []string{
		`insert into staging.elements values ('` + id + `', 'h', 0, 1, 'Title', 'Hello', 0, 0, 1, 1, 0, 5, 1, 'Hello', null)`,
		`insert into staging.ocr_words values ('h', 1, 0, 'Hello', 0, 0, 1, 1, 91.5, 1, 1, 1)`,
	} {
		if _, err := db.SQL().ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	stale := func() int {
		n := 0
		for _, m := range v2Rebuilds {
			var k int
			if err := db.SQL().QueryRowContext(ctx, m.stale).Scan(&k); err != nil {
				t.Fatal(err)
			}
			n += k
		}
		return n
	}
	if n, want := stale(), 3-version; n != want {
		t.Fatalf("set-up: %d stale tables, want %d", n, want)
	}
	for i := 0; i < 2; i++ { // the second run finds nothing to do
		if err := db.EnsureSchema(ctx); err != nil {
			t.Fatal(err)
		}
	}
	// upTo6's rebuilds left nothing stale; schema version 13 then stored
	// element_id (no generated column left, no key either).
	var left int
	if err := db.SQL().QueryRowContext(ctx, `select count(*) from duckdb_tables() where schema_name = 'staging' and table_name = 'elements'
		and (sql ilike '%generated always%' or sql ilike '%primary key%')`).Scan(&left); err != nil {
		t.Fatal(err)
	}
	var ocr int
	if err := db.SQL().QueryRowContext(ctx, v2Rebuilds[1].stale).Scan(&ocr); err != nil {
		t.Fatal(err)
	}
	if n := ocr + left; n != 0 {
		t.Fatalf("%d tables left to migrate", n)
	}
	var text, got string
	var conf float64
	if err := db.SQL().QueryRowContext(ctx, `select e.text, e.element_id, w.confidence from staging.elements e, staging.ocr_words w`).Scan(&text, &got, &conf); err != nil {
		t.Fatal(err)
	}
	if text != "Hello" || conf != 91.5 {
		t.Fatalf("rows changed: %q %v", text, conf)
	}
	if got != id {
		t.Fatalf("element_id computed as %s, versions 1 and 2 stored %s", got, id)
	}
	// NOT NULL survived the rebuild.
	if _, err := db.SQL().ExecContext(ctx, `insert into staging.elements (seq) values (1)`); err == nil {
		t.Fatal("insert without source_hash accepted")
	}
}

// shape renders a warehouse's landed tables: columns (name, type, null,
// default, position) and constraints, to compare two warehouses.
func shape(t *testing.T, db *DB) string {
	t.Helper()
	var b strings.Builder
	for _, q := range []string{
		`select schema_name, table_name, column_index, column_name, data_type, is_nullable, coalesce(column_default, '') from duckdb_columns()
			where schema_name in ('raw', 'staging', 'ops') order by all`,
		`select schema_name, table_name, constraint_type, constraint_column_names::varchar from duckdb_constraints()
			where schema_name in ('raw', 'staging', 'ops') order by all`,
	} {
		rows, err := db.SQL().Query(q)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintln(&b, vals...)
		}
		rows.Close()
	}
	return b.String()
}

// A warehouse made by docket before numbered migrations (schema version
// 6, testdata/v6-warehouse.duckdb.gz: three documents loaded by that
// binary) migrates to the current version, keeps its rows, and has the
// shape of a warehouse created new; opening it again changes nothing.
func TestFreshEqualsMigrated(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	old := openV6Fixture(t)
	count := func(db *DB, q string) int {
		var n int
		if err := db.SQL().QueryRow(q).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	var v string
	if err := old.SQL().QueryRow(`select value from ops.meta where key = 'schema_version'`).Scan(&v); err != nil || v != "6" {
		t.Fatalf("fixture: schema_version %q (%v), want 6", v, err)
	}
	before := map[string]int{}
	counts := map[string]string{
		"documents": `select count(*) from raw.documents where status = 'landed'`,
		"versions":  `select count(*) from raw.document_versions`,
		"pages":     `select count(*) from staging.pages where length(text) > 0`,
		"elements":  `select count(*) from staging.elements`,
		"runs":      `select count(*) from ops.load_runs where status = 'completed'`,
		"events":    `select count(*) from ops.document_events`,
	}
	for k, q := range counts {
		before[k] = count(old, q)
	}
	if before["documents"] != 3 || before["pages"] != 3 {
		t.Fatalf("fixture: %v", before)
	}
	for i := 0; i < 2; i++ {
		if err := old.EnsureSchema(ctx); err != nil {
			t.Fatal(err)
		}
	}
	for k, q := range counts {
		if n := count(old, q); n != before[k] {
			t.Errorf("%s: %d rows after migrating, %d before", k, n, before[k])
		}
	}
	if err := old.SQL().QueryRow(`select value from ops.meta where key = 'schema_version'`).Scan(&v); err != nil || v != fmt.Sprint(SchemaVersion) {
		t.Fatalf("schema_version %q after migrating (%v), want %d", v, err, SchemaVersion)
	}
	fresh, err := Open(ctx, filepath.Join(dir, "new.duckdb"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if err := fresh.EnsureSchema(ctx); err != nil {
		t.Fatal(err)
	}
	if a, b := shape(t, old), shape(t, fresh); a != b {
		t.Fatalf("migrated and fresh warehouses differ:\nmigrated:\n%s\nfresh:\n%s", a, b)
	}
}

// A warehouse of a newer schema version than this docket is refused, not
// written.
func TestNewerSchemaRefused(t *testing.T) {
	ctx := context.Background()
	db := openWithSchema(t)
	if _, err := db.SQL().Exec(`update ops.meta set value = ? where key = 'schema_version'`, fmt.Sprint(SchemaVersion+1)); err != nil {
		t.Fatal(err)
	}
	if err := db.EnsureSchema(ctx); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("EnsureSchema on a newer warehouse: %v", err)
	}
}

// openV6Fixture opens a copy of testdata/v6-warehouse.duckdb.gz (three
// documents loaded by docket at schema version 6), closed when the test
// ends.
func openV6Fixture(t *testing.T) *DB {
	t.Helper()
	return openFixture(t, "testdata/v6-warehouse.duckdb.gz")
}

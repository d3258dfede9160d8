package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/warehouse/whtest"
)

// elementRowsText renders staging.elements row for row, every column as text,
// in (source_hash, seq) order, with its column names and types first.
func elementRowsText(t *testing.T, db *sql.DB) []string {
	t.Helper()
	var out []string
	cols, err := db.Query(`select column_name, data_type from duckdb_columns()
		where database_name = current_database() and schema_name = 'staging' and table_name = 'elements' order by column_index`)
	if err != nil {
		t.Fatal(err)
	}
	var head []string
	for cols.Next() {
		var n, typ string
		cols.Scan(&n, &typ)
		head = append(head, n+" "+typ)
	}
	cols.Close()
	out = append(out, strings.Join(head, ", "))
	rows, err := db.Query(`select * from staging.elements order by source_hash, seq`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	names, _ := rows.Columns()
	for rows.Next() {
		vals := make([]any, len(names))
		ptrs := make([]any, len(names))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprint(vals...))
	}
	return out
}

// A warehouse main's docket loaded at schema version 12
// (testdata/v12-warehouse.duckdb.gz: testdata/v12-inbox loaded with
// testdata/v12-project.yaml, 36 elements) migrates in place to version 13:
// staging.elements stays a table (rowid and all) with the same columns in
// the same order and the same rows, element_id for element_id, now stored
// (no generated column left for DuckDB to compute at every append), each
// the sha256 of its source_hash and seq that the loader's hashHex gives;
// the migrated warehouse has the shape of a new one.
func TestSchema12MigratesInPlace(t *testing.T) {
	ctx := context.Background()
	db := openFixture(t, "testdata/v12-warehouse.duckdb.gz")
	var v string
	if err := db.SQL().QueryRow(`select value from ops.meta where key = 'schema_version'`).Scan(&v); err != nil || v != "12" {
		t.Fatalf("fixture: schema_version %q (%v), want 12", v, err)
	}
	before := elementRowsText(t, db.SQL())
	if len(before) != 37 {
		t.Fatalf("fixture: %d elements, want 36", len(before)-1)
	}
	generated := func() int {
		var n int
		if err := db.SQL().QueryRow(`select count(*) from duckdb_tables() where schema_name = 'staging' and table_name = 'elements'
			and sql ilike '%generated%'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if generated() != 1 {
		t.Fatal("fixture: staging.elements.element_id is not generated")
	}
	for i := 0; i < 2; i++ { // the second finds nothing to do
		if err := db.EnsureSchema(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if generated() != 0 {
		t.Fatal("after migrating, staging.elements.element_id is still generated")
	}
	after := elementRowsText(t, db.SQL())
	if len(after) != len(before) {
		t.Fatalf("%d element rows after migrating, %d before", len(after)-1, len(before)-1)
	}
	for i := range before {
		if before[i] != after[i] {
			t.Errorf("row %d changed:\nbefore %s\nafter  %s", i, before[i], after[i])
		}
	}
	var bad, rowids int
	check, err := db.SQL().Query(`select source_hash, seq, element_id, rowid from staging.elements`)
	if err != nil {
		t.Fatal(err)
	}
	for check.Next() {
		var h, id string
		var seq, rowid int
		check.Scan(&h, &seq, &id, &rowid)
		if id != hashHex(h, "element", fmt.Sprint(seq)) {
			bad++
		}
		rowids++
	}
	check.Close()
	if bad > 0 || rowids != 36 {
		t.Errorf("%d of %d element_ids are not sha256(source_hash, 'element', seq)", bad, rowids)
	}
	fresh, err := Open(ctx, filepath.Join(t.TempDir(), "new.duckdb"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if err := fresh.EnsureSchema(ctx); err != nil {
		t.Fatal(err)
	}
	if a, b := shape(t, db), shape(t, fresh); a != b {
		t.Fatalf("migrated and fresh warehouses differ:\nmigrated:\n%s\nfresh:\n%s", a, b)
	}
}

// openFixture opens a copy of a gzipped warehouse in testdata, closed
// when the test ends.
func openFixture(t *testing.T, gz string) *DB {
	t.Helper()
	path := filepath.Join(t.TempDir(), "old.duckdb")
	if err := os.WriteFile(path, whtest.Gunzip(t, gz), 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

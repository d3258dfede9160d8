package warehouse

import (
	"context"
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
	for _, q := range ddl {
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
		for _, m := range migrations {
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
	if n := stale(); n != 0 {
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

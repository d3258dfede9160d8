package warehouse

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// A warehouse made by schema version 1 (PRIMARY KEYs on staging.elements
// and staging.ocr_words) keeps its rows and loses those indexes.
func TestSchemaV1Migrates(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "w.duckdb"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	v1 := map[string]string{"elements": "element_id varchar primary key,", "ocr_words": ""}
	for _, q := range ddl {
		for tbl, pk := range v1 {
			if !strings.Contains(q, "staging."+tbl+" (") {
				continue
			}
			if tbl == "elements" {
				q = strings.Replace(q, "element_id varchar not null,", pk, 1)
			} else {
				q = strings.Replace(q, "line_num integer\n", "line_num integer, primary key (source_hash, page_number, seq)\n", 1)
			}
		}
		if _, err := db.SQL().ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []string{
		`insert into staging.elements values ('e1', 'h', 0, 1, 'Title', 'Hello', 0, 0, 1, 1, 0, 5, 1, 'Hello', null)`,
		`insert into staging.ocr_words values ('h', 1, 0, 'Hello', 0, 0, 1, 1, 91.5, 1, 1, 1)`,
	} {
		if _, err := db.SQL().ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	pks := func() int {
		var n int
		if err := db.SQL().QueryRowContext(ctx, `select count(*) from duckdb_constraints()
			where schema_name = 'staging' and table_name in ('elements', 'ocr_words') and constraint_type = 'PRIMARY KEY'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := pks(); n != 2 {
		t.Fatalf("set-up: %d primary keys, want 2", n)
	}
	for i := 0; i < 2; i++ { // the second run finds nothing to do
		if err := db.EnsureSchema(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if n := pks(); n != 0 {
		t.Fatalf("%d primary keys left", n)
	}
	var text string
	var conf float64
	if err := db.SQL().QueryRowContext(ctx, `select e.text, w.confidence from staging.elements e, staging.ocr_words w where e.element_id = 'e1'`).Scan(&text, &conf); err != nil {
		t.Fatal(err)
	}
	if text != "Hello" || conf != 91.5 {
		t.Fatalf("rows changed: %q %v", text, conf)
	}
	// NOT NULL survived the rebuild.
	if _, err := db.SQL().ExecContext(ctx, `insert into staging.elements (element_id) values ('e2')`); err == nil {
		t.Fatal("insert without source_hash accepted")
	}
}

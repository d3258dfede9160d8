package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/document"
)

// A PDF page's count of characters its clip hid lands in
// staging.pages.text_layer_clipped; other formats' pages have null there.
func TestClippedCharsLand(t *testing.T) {
	ctx := context.Background()
	db := openWithSchema(t)
	land := func(id, hash, typ string, p document.Page) {
		t.Helper()
		res := &document.Result{Type: typ, Pages: []document.Page{p}, ExtractorVersion: "test"}
		doc := DocRow{DocID: id, SourceName: "s", RelPath: id, URI: "file:///" + id, Hash: hash, DetectedType: typ, Status: StatusLanded}
		if err := db.Land(ctx, "run1", time.Now(), []Landing{{Doc: doc, Event: "new", Content: res, Extracted: true}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	land("a.pdf", "h1", "pdf", document.Page{Number: 1, Text: "Matthew C. & 2165", Method: document.MethodTextLayer, ClippedChars: 9})
	land("b.txt", "h2", "text", document.Page{Number: 1, Text: "plain", Method: document.MethodNative})
	got := map[string]sql.NullInt64{}
	rows, err := db.SQL().QueryContext(ctx, `select source_hash, text_layer_clipped from staging.pages`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var h string
		var n sql.NullInt64
		if err := rows.Scan(&h, &n); err != nil {
			t.Fatal(err)
		}
		got[h] = n
	}
	if got["h1"] != (sql.NullInt64{Int64: 9, Valid: true}) || got["h2"].Valid {
		t.Fatalf("text_layer_clipped: %v, want h1 9 and h2 null", got)
	}
}

// A warehouse of schema version 11 reaches 12 (staging.pages gains
// text_layer_clipped): its pages keep their rows, the new column null on
// them, and the warehouse has the shape of a new one.
func TestVersion11Migrates(t *testing.T) {
	ctx := context.Background()
	db := openWithSchema(t)
	for _, q := range []string{
		`alter table staging.pages drop column text_layer_clipped`,
		`insert into staging.pages (source_hash, page_number, text, char_count, method, needs_ocr, extractor_version, extracted_at)
			values ('h', 1, 'old page', 8, 'text_layer', false, 'pdf/58', now())`,
		`update ops.meta set value = '11' where key = 'schema_version'`,
	} {
		if _, err := db.SQL().ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.EnsureSchema(ctx); err != nil {
		t.Fatal(err)
	}
	var v, text string
	var clipped sql.NullInt64
	if err := db.SQL().QueryRowContext(ctx, `select (select value from ops.meta where key = 'schema_version'), text, text_layer_clipped from staging.pages`).Scan(&v, &text, &clipped); err != nil {
		t.Fatal(err)
	}
	if v != fmt.Sprint(SchemaVersion) || SchemaVersion < 12 || text != "old page" || clipped.Valid {
		t.Fatalf("after migrating: version %s, text %q, text_layer_clipped %v", v, text, clipped)
	}
	if a, b := shape(t, db), shape(t, openWithSchema(t)); a != b {
		t.Fatalf("migrated from 11 and fresh differ:\n%s\n%s", a, b)
	}
}

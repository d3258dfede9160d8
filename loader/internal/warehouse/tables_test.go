package warehouse

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/document"
)

// A table's spanning cells land in staging.tables.spans, and a warehouse
// of schema version 4 (no spans column) gets the column and keeps its
// rows.
func TestTableSpansLand(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "w.duckdb")
	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// a version 4 staging.tables with one row
	for _, q := range []string{
		`create schema staging`,
		`create table staging.tables (table_id varchar primary key, source_hash varchar not null, table_seq integer not null,
			page_number integer not null, x0 double, y0 double, x1 double, y1 double, header varchar[], cells varchar[][], n_rows integer, n_cols integer)`,
		`insert into staging.tables values ('old', 'h0', 0, 1, 0, 0, 1, 1, ['a'], [['1']], 1, 1)`,
	} {
		if _, err := db.SQL().ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.EnsureSchema(ctx); err != nil {
		t.Fatal(err)
	}
	res := &document.Result{
		Type:  "pdf",
		Pages: []document.Page{{Number: 1, Text: "Region Population 2020 2021", Method: document.MethodTextLayer}},
		Tables: []document.Table{{Page: 1, BBox: document.BBox{X0: 72, Y0: 100, X1: 400, Y1: 200},
			Header: []string{"Region", "Population", ""},
			Rows:   [][]string{{"", "2020", "2021"}, {"North", "10.5", "11.0"}},
			Spans:  []document.CellSpan{{Row: 0, Col: 0, Rows: 2, Cols: 1}, {Row: 0, Col: 1, Rows: 1, Cols: 2}}}},
		ExtractorVersion: "test",
	}
	doc := DocRow{DocID: "d1", SourceName: "s", RelPath: "a.pdf", URI: "file:///a.pdf", Hash: "h1", DetectedType: "pdf", Status: StatusLanded}
	if err := db.Land(ctx, "run1", time.Now(), []Landing{{Doc: doc, Event: "new", Content: res, Extracted: true}}, nil); err != nil {
		t.Fatal(err)
	}
	var got string
	if err := db.SQL().QueryRowContext(ctx, `select spans::varchar from staging.tables where source_hash = 'h1'`).Scan(&got); err != nil {
		t.Fatal(err)
	}
	want := `[{'row_index': 0, 'col_index': 0, 'n_rows': 2, 'n_cols': 1}, {'row_index': 0, 'col_index': 1, 'n_rows': 1, 'n_cols': 2}]`
	if got != want {
		t.Errorf("spans\n got %s\nwant %s", got, want)
	}
	var n int
	if err := db.SQL().QueryRowContext(ctx, `select count(*) from staging.tables where table_id = 'old' and spans is null and cells = [['1']]`).Scan(&n); err != nil || n != 1 {
		t.Errorf("the version 4 row: %d %v", n, err)
	}
}

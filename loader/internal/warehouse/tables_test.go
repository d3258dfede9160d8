package warehouse

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
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

// The parts of a table broken across pages land joined: the part that
// carries on another has its table_id in continues_table_id, so a user
// can put the parts together; the first part's is null.
func TestContinuedTableLands(t *testing.T) {
	ctx := context.Background()
	db := openWithSchema(t)
	part := func(page, seq int, cont bool, rows ...[]string) document.Table {
		return document.Table{Page: page, Seq: seq, BBox: document.BBox{X0: 72, Y0: 100, X1: 400, Y1: 200},
			Header: []string{"Region", "2021"}, Rows: rows, Continues: cont}
	}
	res := &document.Result{
		Type: "pdf",
		Pages: []document.Page{{Number: 1, Text: "North 10", Method: document.MethodTextLayer},
			{Number: 2, Text: "South 12", Method: document.MethodTextLayer}, {Number: 3, Text: "West 9", Method: document.MethodTextLayer}},
		Tables: []document.Table{part(1, 0, false, []string{"North", "10"}), part(2, 1, true, []string{"South", "12"}),
			part(3, 2, true, []string{"West", "9"})},
		ExtractorVersion: "test",
	}
	doc := DocRow{DocID: "d1", SourceName: "s", RelPath: "a.pdf", URI: "file:///a.pdf", Hash: "h1", DetectedType: "pdf", Status: StatusLanded}
	if err := db.Land(ctx, "run1", time.Now(), []Landing{{Doc: doc, Event: "new", Content: res, Extracted: true}}, nil); err != nil {
		t.Fatal(err)
	}
	// every body row of the whole table, through the chain of parts
	rows, err := db.SQL().QueryContext(ctx, `with recursive parts(table_id, first_id) as (
			select table_id, table_id from staging.tables where continues_table_id is null
			union all
			select t.table_id, p.first_id from staging.tables t join parts p on t.continues_table_id = p.table_id)
		select t.table_seq, t.cells[1][1], (p.first_id = ?)::int from staging.tables t join parts p using (table_id) order by t.table_seq`,
		TableID("h1", 0))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var seq, same int
		var label string
		if err := rows.Scan(&seq, &label, &same); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%d %s %d", seq, label, same))
	}
	if want := []string{"0 North 1", "1 South 1", "2 West 1"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("parts of the table: %q, want %q", got, want)
	}
}

package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/document"
)

// Review reasons land in staging.reviews, document-level ones with a null
// page; landing the same content again replaces them.
func TestReviewsLand(t *testing.T) {
	ctx := context.Background()
	db := openWithSchema(t)
	res := &document.Result{
		Type:             "pdf",
		Metadata:         document.Metadata{PageCount: 2},
		Pages:            []document.Page{{Number: 1, Text: "Only page one.", Method: document.MethodTextLayer, ReviewReason: "low_ocr_confidence: mean 40.0 < 70"}},
		ExtractorVersion: "test",
	}
	document.Check(res)
	land := func(r *document.Result) {
		t.Helper()
		doc := DocRow{DocID: "d1", SourceName: "s", RelPath: "a.pdf", URI: "file:///a.pdf", Hash: "h1", DetectedType: "pdf", Status: StatusLanded}
		if err := db.Land(ctx, "run1", time.Now(), []Landing{{Doc: doc, Event: "new", Content: r, Extracted: true}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	land(res)
	rows := func() [][3]string {
		t.Helper()
		rs, err := db.SQL().QueryContext(ctx, `select coalesce(page_number::varchar, 'doc'), reason_code, message from staging.reviews where source_hash = 'h1' order by all`)
		if err != nil {
			t.Fatal(err)
		}
		defer rs.Close()
		var out [][3]string
		for rs.Next() {
			var r [3]string
			if err := rs.Scan(&r[0], &r[1], &r[2]); err != nil {
				t.Fatal(err)
			}
			out = append(out, r)
		}
		return out
	}
	got := rows()
	want := [][3]string{
		{"1", "low_ocr_confidence", "mean 40.0 < 70"},
		{"doc", "pages_missing", "the file declares 2 pages but only 1 could be read; the missing pages are not in the warehouse"},
	}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("staging.reviews:\n got %q\nwant %q", got, want)
	}
	res2 := &document.Result{Type: "pdf", Pages: []document.Page{{Number: 1, Text: "Fixed.", Method: document.MethodTextLayer}}, ExtractorVersion: "test"}
	land(res2)
	if got := rows(); len(got) != 0 {
		t.Fatalf("re-landed content kept old reviews: %q", got)
	}
	var v sql.NullString
	if err := db.SQL().QueryRowContext(ctx, `select value from ops.meta where key = 'schema_version'`).Scan(&v); err != nil || v.String != fmt.Sprint(SchemaVersion) {
		t.Fatalf("schema_version %v %v", v, err)
	}
}

// TestLandInsertsAndMerges: documents new to the warehouse are inserted,
// known ones merged (first_seen_at kept, the rest replaced), in one batch;
// the stat lands with the row and RecordStats replaces only the stat.
func TestLandInsertsAndMerges(t *testing.T) {
	ctx := context.Background()
	db := openWithSchema(t)
	doc := func(id, hash string) Landing {
		return Landing{Doc: DocRow{DocID: id, SourceName: "s", RelPath: id + ".txt", URI: "file:///" + id, Hash: hash, Status: StatusQuarantined,
			ErrorKind: "empty", Stat: FileStat{Size: 1, MTimeN: 2, Inode: 3, CTimeN: 4, TakenN: 5}}, Event: "new"}
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := db.Land(ctx, "r1", t0, []Landing{doc("a", "h1"), doc("b", "h2")}, nil); err != nil {
		t.Fatal(err)
	}
	if err := db.Land(ctx, "r2", t0.Add(time.Hour), []Landing{doc("b", "h3"), doc("c", "h4")}, nil); err != nil {
		t.Fatal(err)
	}
	if err := db.RecordStats(ctx, []StatUpdate{{DocID: "a", Stat: FileStat{Size: 9, MTimeN: 8, Inode: 7, CTimeN: 6, TakenN: 10}}}); err != nil {
		t.Fatal(err)
	}
	known, err := db.KnownDocuments(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(known) != 3 || known["b"].Hash != "h3" || known["c"].Hash != "h4" {
		t.Fatalf("documents: %+v", known)
	}
	if s := known["b"].Stat; s != (FileStat{Size: 1, MTimeN: 2, Inode: 3, CTimeN: 4, TakenN: 5}) {
		t.Errorf("b's stat: %+v", s)
	}
	if s := known["a"].Stat; s != (FileStat{Size: 9, MTimeN: 8, Inode: 7, CTimeN: 6, TakenN: 10}) || known["a"].Hash != "h1" {
		t.Errorf("a after RecordStats: %+v", known["a"])
	}
	var first time.Time
	var run string
	if err := db.SQL().QueryRowContext(ctx, `select first_seen_at, last_run_id from raw.documents where doc_id = 'b'`).Scan(&first, &run); err != nil {
		t.Fatal(err)
	}
	if !first.Equal(t0) || run != "r2" {
		t.Errorf("merged row: first_seen_at %s, last_run_id %s", first, run)
	}
}

// openWithSchema opens a fresh warehouse in the test's temporary folder with
// docket's schema in place; it is closed when the test ends.
func openWithSchema(t *testing.T) *DB {
	t.Helper()
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "w.duckdb"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.EnsureSchema(context.Background()); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestFirstSeenIsRunStart: documents first seen in one run, landed in
// batches at different times, share the run's start as first_seen_at
// (a text's representative is ranked by it, then by doc_id, so batch
// times made it depend on which worker finished first); last_seen_at is
// the batch's time, and a later run keeps first_seen_at.
func TestFirstSeenIsRunStart(t *testing.T) {
	ctx := context.Background()
	db := openWithSchema(t)
	doc := func(id string) Landing {
		return Landing{Doc: DocRow{DocID: id, SourceName: "s", RelPath: id + ".txt", URI: "file:///" + id, Hash: "h" + id, Status: StatusQuarantined,
			ErrorKind: "empty", Stat: FileStat{Size: 1}}, Event: "new"}
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := db.StartRun(ctx, Run{ID: "r1", StartedAt: t0}); err != nil {
		t.Fatal(err)
	}
	if err := db.Land(ctx, "r1", t0.Add(time.Second), []Landing{doc("b")}, nil); err != nil {
		t.Fatal(err)
	}
	if err := db.Land(ctx, "r1", t0.Add(2*time.Second), []Landing{doc("a")}, nil); err != nil {
		t.Fatal(err)
	}
	if err := db.StartRun(ctx, Run{ID: "r2", StartedAt: t0.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if err := db.Land(ctx, "r2", t0.Add(time.Hour+time.Second), []Landing{doc("a"), doc("c")}, nil); err != nil {
		t.Fatal(err)
	}
	want := map[string][2]time.Time{
		"a": {t0, t0.Add(time.Hour + time.Second)},
		"b": {t0, t0.Add(time.Second)},
		"c": {t0.Add(time.Hour), t0.Add(time.Hour + time.Second)},
	}
	rows, err := db.SQL().QueryContext(ctx, `select doc_id, first_seen_at, last_seen_at from raw.documents`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var first, last time.Time
		if err := rows.Scan(&id, &first, &last); err != nil {
			t.Fatal(err)
		}
		if w := want[id]; !first.Equal(w[0]) || !last.Equal(w[1]) {
			t.Errorf("%s: first_seen_at %s last_seen_at %s, want %s and %s", id, first, last, w[0], w[1])
		}
		delete(want, id)
	}
	if len(want) > 0 {
		t.Errorf("documents missing: %v", want)
	}
}

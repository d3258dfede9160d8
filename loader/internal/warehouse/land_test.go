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
	db, err := Open(ctx, filepath.Join(t.TempDir(), "w.duckdb"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.EnsureSchema(ctx); err != nil {
		t.Fatal(err)
	}
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
